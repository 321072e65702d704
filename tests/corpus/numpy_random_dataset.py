# After: NumPy-generated toy dataset fed to a PyTorch linear model (common regression tutorial idiom)
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)

print(np.random.rand(3))
print(np.random.randn(2, 3))
print(np.random.randint(0, 10, size=5))

# Build a dataset: y = 2*x0 - 3*x1 + 1 + noise
n_samples = 100
x = np.random.rand(n_samples, 2)
noise = 0.05 * np.random.randn(n_samples)
true_w = np.array([2.0, -3.0])
y = x @ true_w + 1.0 + noise
print("x:", x.shape, x.dtype)
print("y:", y.shape, y.dtype)
print(x[:3])
print(y[:3])

X = torch.from_numpy(x).float()
Y = torch.tensor(y, dtype=torch.float32).unsqueeze(1)
print(X.dtype, X.shape, Y.dtype, Y.shape)

model = nn.Linear(2, 1)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)

for epoch in range(200):
    optimizer.zero_grad()
    pred = model(X)
    loss = loss_fn(pred, Y)
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        print(f"epoch {epoch:3d} loss {loss.item():.4f}")

print("weight:", model.weight.detach().numpy().round(2))
print("bias:", model.bias.detach().numpy().round(2))

preds = model(X).detach().numpy()
print(type(preds), preds.dtype, preds.shape)
print(np.round(preds[:5, 0], 3))
mse = np.mean((preds[:, 0] - y) ** 2)
print(f"numpy MSE: {mse:.4f}")

# Integer labels from randint into a classification target
labels = np.random.randint(0, 3, size=8)
print(labels, labels.dtype)
target = torch.tensor(labels)
print(target, target.dtype)
onehot = np.eye(3)[labels]
print(onehot)
print(torch.from_numpy(onehot).float().sum(0))
