# Walking a model: modules, named_modules, children, parameters and their counts.
import torch
from torch import nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.Linear(2, 2)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.inner(x))

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(2, 1)

    def forward(self, x):
        return self.head(self.block(x))

m = Model()
print([name for name, _ in m.named_modules()])
print([type(c).__name__ for c in m.children()])
print([n for n, p in m.named_parameters()])
print(sum(p.numel() for p in m.parameters()), len(list(m.modules())))
print(m(torch.ones(3, 2)).shape)
print(m)
