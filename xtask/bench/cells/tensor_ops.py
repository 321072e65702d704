import torch
x = torch.ones(4)
for i in range(1000):
    x = x + 1
