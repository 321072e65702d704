# PyTorch's type promotion: tensors with tensors, with Python scalars, and 0-dim tensors.
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0])
h = torch.tensor([1.0], dtype=torch.float16)
d = torch.tensor(2.0, dtype=torch.float64)
print((i + 1).dtype, (i + 1.5).dtype, (i * True).dtype)
print((f + h).dtype, (h + 1.0).dtype, (h + d).dtype, (i + d).dtype)
print((i / 2).dtype, (i // 2).dtype, (i / 2))
b = torch.tensor([True, False])
print((b + b).dtype, (b + 1).dtype, (b * 2.5).dtype)
print(torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int32))
print(f.to(torch.int64), torch.tensor([2.7, -2.7]).long(), torch.tensor([0.0, 3.0]).bool())
