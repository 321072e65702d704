# Float vs Double: matmul does not promote, and says so.
import torch

a = torch.ones(2, 3)
b = torch.ones(3, 2, dtype=torch.float64)
print((a + b.t()).dtype)
try:
    a @ b
except RuntimeError as e:
    print("RuntimeError:", e)
print((a @ b.float()).dtype)
a @ b
