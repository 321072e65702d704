# backward() needs a scalar, or a gradient of the output's shape.
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = w * w
try:
    y.backward()
except RuntimeError as e:
    print(e)
y.backward(torch.tensor([1.0, 0.1, 0.01]))
print(w.grad)
s = (w * 2).mean()
s.backward()
print(w.grad)
print(torch.tensor(5.0, requires_grad=True).sum().grad_fn)
