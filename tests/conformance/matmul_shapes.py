# Matrix products: vector/matrix combinations and PyTorch's shape-mismatch text.
import torch

m = torch.arange(6.0).view(2, 3)
v = torch.tensor([1.0, 0.0, -1.0])
print(m @ v, (m @ m.t()).shape, v @ v, (v @ m.t()).shape)
print(torch.matmul(m, m.t()), m.mm(m.t()).shape)
try:
    m @ m
except RuntimeError as e:
    print(e)
try:
    torch.ones(2, dtype=torch.int64) @ torch.ones(2)
except RuntimeError as e:
    print(e)
