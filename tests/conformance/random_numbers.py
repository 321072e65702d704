# Seeded random numbers are PyTorch's very values.
import torch

torch.manual_seed(0)
print(torch.rand(3))
print(torch.randn(2, 3))
torch.manual_seed(42)
print(torch.randn(20))
print(torch.rand(2, 2, dtype=torch.float64))
