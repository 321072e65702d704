# expected output written by hand: PyTorch's CPU output (checked) with the reprs of cuda:0 tensors.
# Printing, formatting and testing GPU tensors: each one a sync point that reads values back.
import torch

x = torch.arange(4.0, device="cuda") * 2
print(f"{x} {x.sum():.2f} {x[1]}")
print(str(x), repr(x.mean()), float(x.max()), int(x.min()), bool(x[1] > 1))
if x.sum() > 3:
    print("big", x.tolist(), x.cpu())
