# nn.Linear computes x @ W.T + b; weights set under no_grad; parameters and their shapes.
import torch
from torch import nn

layer = nn.Linear(3, 2)
with torch.no_grad():
    layer.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    layer.bias.fill_(0.25)
x = torch.tensor([[1.0, 2.0, 3.0]])
out = layer(x)
print(out, out.grad_fn.name())
print(layer.weight.shape, layer.bias.shape, layer.weight.requires_grad)
print(layer)
print(nn.Linear(4, 1, bias=False).bias)
out.sum().backward()
print(layer.weight.grad, layer.bias.grad)
