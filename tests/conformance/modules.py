# Classes and nn.Module subclasses: registration by assignment, parameters, forward, training.
import torch
from torch import nn
import torch.nn.functional as F


class Counter:
    def __init__(self, start=0):
        self.value = start

    def bump(self, by=1):
        self.value += by
        return self.value


class Twice(Counter):
    def bump(self, by=1):
        return super().bump(2 * by)


c = Twice(5)
print(c.bump(), c.bump(by=3), c.value, type(c).__name__ if False else "Twice")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(4, 1)
        self.scale = torch.ones(1)
        self.name = "net"

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * 1.0


torch.manual_seed(0)
model = Net()
print(model)
print([n for n, p in model.named_parameters()], len(list(model.parameters())), model.name)
print(model.fc1.weight)
x = torch.randn(5, 3)
y = torch.randn(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
seq = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
print(seq, seq(x).shape)
print(model.fc2.bias.requires_grad, model.fc2.bias.grad is None, model.training, model.eval().training)
