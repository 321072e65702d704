# optimizer.zero_grad() sets gradients to None by default; set_to_none=False keeps zero tensors.
import torch
from torch import nn

m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
print(m.weight.grad is None, m.bias.grad)
opt.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
opt.zero_grad()
print(m.weight.grad, m.bias.grad)
m.zero_grad()
print(m.bias.grad)
