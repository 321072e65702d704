import torch
from torch import nn

torch.manual_seed(0)


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 3), nn.Linear(3, 1)])
        self.layers.append(nn.ReLU())

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


model = Stack()
print(model)
print(len(model.layers), type(model.layers).__name__, model.layers[1])
print([name for name, _ in model.named_parameters()])
print(model(torch.ones(4, 2)).shape)
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
print([type(m).__name__ for m in seq], len(seq))
seq.append(nn.Linear(2, 1))
print(seq)
model.to("cpu")
try:
    model.layers(torch.ones(1, 2))
except NotImplementedError as e:
    print("NotImplementedError:", e)
