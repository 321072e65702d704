# module.to() moves parameters in place and returns the module; dtype casts keep Parameter identity.
import torch
from torch import nn

torch.manual_seed(0)
m = nn.Linear(2, 2)
w = m.weight
r = m.to(torch.float64)
print(r is m, m.weight is w, m.weight.dtype, w.dtype)
m.half()
print(m.weight.dtype, m.bias.dtype, m.weight is w)
m.float()
print(type(m.weight).__name__, m.weight.requires_grad, m.weight.is_leaf)
try:
    m.to(torch.int64)
except TypeError as e:
    print(e)
print(m(torch.ones(1, 2)).dtype)
