# &, |, ^ and ~ on integer and bool tensors: masks combined and inverted, promotion, Python
# numbers on either side, and floats refused.
import torch

t = torch.tensor([0, 2, 5, 1, 3])
m = (t < 0) | (t >= 3)
print(m, t[m], t[(t > 0) & (t < 3)])
print(torch.tensor([6, 3]) & torch.tensor([3, 5]), torch.tensor([6, 3]) ^ 1, 1 | torch.tensor([2, 4]))
print(torch.tensor([True, False]) & True, (torch.tensor([1, 2]) | torch.tensor([True, False])).dtype)
print(torch.tensor([12, -3], dtype=torch.int32) ^ -1, torch.tensor([5], dtype=torch.uint8) & 3)
mask = torch.tensor([True, False, True])
print(~mask, ~torch.tensor([0, 5, -1]), ~torch.tensor([7], dtype=torch.uint8), torch.arange(3)[~mask])
try:
    ~torch.ones(2)
except TypeError as e:
    print(e)
torch.ones(2) | torch.ones(2)
