# cat joins along an existing dim; stack adds a new one; mismatches are errors.
import torch

a = torch.ones(2, 3)
b = torch.zeros(1, 3)
print(torch.cat([a, b]).shape, torch.cat((a, a), dim=1).shape)
print(torch.stack([a, a]).shape, torch.stack([a, a], dim=2).shape)
print(torch.cat([torch.tensor([1]), torch.tensor([2.5])]))
try:
    torch.stack([a, b])
except RuntimeError as e:
    print(e)
try:
    torch.cat([a, torch.ones(2, 2)])
except RuntimeError as e:
    print(e)
