# After: "Learning PyTorch with Examples" - Warm-up: numpy (polynomial fit of sin(x))
import numpy as np
import math

np.random.seed(0)

# Create random input and output data
x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)

# Randomly initialize weights
a = np.random.randn()
b = np.random.randn()
c = np.random.randn()
d = np.random.randn()

learning_rate = 1e-6
for t in range(2000):
    # Forward pass: compute predicted y
    # y = a + b x + c x^2 + d x^3
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    # Compute and print loss
    loss = np.square(y_pred - y).sum()
    if t % 100 == 99:
        print(t, loss)

    # Backprop to compute gradients of a, b, c, d with respect to loss
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()

    # Update weights
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f'Result: y = {a} + {b} x + {c} x^2 + {d} x^3')

# Same fit with torch tensors, starting from the same weights
import torch
torch.manual_seed(0)
np.random.seed(0)
dtype = torch.float
xt = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
yt = torch.sin(xt)
w = torch.tensor(np.random.randn(4), dtype=dtype)
for t in range(2000):
    y_pred = w[0] + w[1] * xt + w[2] * xt ** 2 + w[3] * xt ** 3
    loss = (y_pred - yt).pow(2).sum().item()
    if t % 500 == 499:
        print(t, round(loss, 2))
    g = 2.0 * (y_pred - yt)
    grads = torch.stack([g.sum(), (g * xt).sum(), (g * xt ** 2).sum(), (g * xt ** 3).sum()])
    w -= learning_rate * grads
print(np.round(w.numpy(), 3))
print(np.allclose(w.numpy(), [a, b, c, d], atol=1e-3))
