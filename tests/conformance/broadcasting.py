# Broadcasting: trailing dimensions line up; size-1 dims stretch; mismatches name both sizes.
import torch

a = torch.ones(3, 1)
b = torch.arange(4.0)
print((a + b).shape, (a * b))
print((torch.ones(2, 1, 3) + torch.ones(4, 1)).shape)
try:
    torch.ones(3) + torch.ones(4)
except RuntimeError as e:
    print(e)
c = torch.zeros(2, 3)
c += torch.tensor([1.0, 2.0, 3.0])
print(c)
try:
    c += torch.ones(2, 3, 1)
except RuntimeError as e:
    print(e)
