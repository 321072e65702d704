# torch.autocast on the CPU: matmul in bfloat16, other ops untouched, the region restored on exit.
import torch

a = torch.ones(2, 2)
b = torch.ones(2, 2)
with torch.autocast("cpu"):
    c = a @ b
    d = a + b
    e = torch.relu(c)
print(c.dtype, d.dtype, e.dtype)
print((a @ b).dtype)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    with torch.autocast(device_type="cpu", enabled=False):
        print((a @ b).dtype)
    print((a @ b).dtype)
