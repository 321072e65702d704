# clamp, where and comparisons produce new tensors; masks are bool tensors.
import torch

x = torch.tensor([-2.0, -0.5, 0.5, 2.0])
print(x.clamp(-1, 1), x.clamp(min=0), torch.clamp(x, max=0.0))
print(torch.where(x > 0, x, torch.zeros(4)))
print(x > 0, (x > 0).dtype, (x == 0.5).any() if False else (x == 0.5))
print(x.abs(), x.neg(), -x, x.exp().log())
