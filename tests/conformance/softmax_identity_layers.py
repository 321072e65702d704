import warnings

import torch
from torch import nn

x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
print(nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.Identity(), nn.Softmax)
print(nn.Softmax(dim=1)(x), nn.LogSoftmax(dim=0)(x))
identity = nn.Identity()
print(identity(x) is x, type(identity).__name__)
model = nn.Sequential(nn.Linear(3, 2), nn.LogSoftmax(dim=1))
print(model)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = nn.Softmax()(x)
print(out.sum(dim=1), out.grad_fn)
print([str(w.message) for w in caught])
