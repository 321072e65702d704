# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# Mixing devices in one op is an error; moving one side fixes it.
import torch

w = torch.ones(3, device="cuda")
x = torch.ones(3)
try:
    w + x
except RuntimeError as e:
    print(str(e).split(",")[0])
print((w + x.to(w.device)).device)
print((w + torch.tensor(2.0)).device)
print((w * 3).device)
