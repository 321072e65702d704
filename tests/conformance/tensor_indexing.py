# Indexing: integers, slices, negative steps refused, boolean masks, index tensors, assignment.
import torch

x = torch.arange(12).view(3, 4)
print(x[1], x[1, 2], x[-1, -1].item(), x[:, 1])
print(x[1:, ::2], x[..., 0] if False else x[:, 0])
mask = x > 6
print(mask.sum(), x[mask])
print(x[torch.tensor([0, 2])])
x[0] = 0
x[:, 3] = torch.tensor([7, 8, 9])
print(x)
try:
    x[5]
except IndexError as e:
    print(e)
y = torch.zeros(3)
y[torch.tensor([True, False, True])] = 1.0
print(y)
