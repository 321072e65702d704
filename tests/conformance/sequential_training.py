# A small model trained for a few steps: the printed losses match PyTorch's exactly.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
x = torch.randn(16, 4)
y = torch.randint(0, 3, (16,))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(5):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.5f}")
with torch.no_grad():
    acc = (model(x).argmax(dim=1) == y).float().mean()
print(f"accuracy {acc.item():.4f}")
print(model[0].weight.shape, len(model), model[1])
