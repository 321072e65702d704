# torch.nn.init fills parameters in place from the global generator, as PyTorch does.
import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(4, 3)
w = layer.weight
out = nn.init.xavier_uniform_(layer.weight)
print(out is w or torch.equal(out, w), layer.weight.requires_grad)
print(layer.weight)
nn.init.zeros_(layer.bias)
print(layer.bias)
nn.init.kaiming_normal_(layer.weight, mode="fan_out", nonlinearity="relu")
print(layer.weight.abs().sum().item() > 0, layer.weight.grad_fn)
nn.init.constant_(layer.bias, 0.5)
nn.init.normal_(layer.weight, mean=0.0, std=0.01)
print(layer.bias, round(nn.init.calculate_gain("relu"), 4), round(nn.init.calculate_gain("leaky_relu", 0.2), 4))
from torch.nn import init
init.uniform_(layer.weight, -0.1, 0.1)
print(layer.weight)
