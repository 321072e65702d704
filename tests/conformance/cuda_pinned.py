# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# pin_memory() makes a page-locked copy; non_blocking copies from it; is_pinned tells them apart.
import torch

x = torch.arange(4.0)
p = x.pin_memory()
print(x.is_pinned(), p.is_pinned(), p is x, p.device)
y = p.to("cuda", non_blocking=True)
print(y.device, y.is_pinned())
torch.cuda.synchronize()
print(y.cpu())
