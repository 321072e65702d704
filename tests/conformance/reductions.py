# Reductions over all elements or along dims, keepdim, and what comes back.
import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum(), x.mean(), x.max(), x.min(), x.argmax())
print(x.sum(dim=0), x.sum(1), x.mean(dim=1, keepdim=True))
print(x.sum(dim=(0, 1)), x.argmax(dim=1), x.argmax(dim=0, keepdim=True))
print(torch.sum(x, 0), torch.mean(x), torch.max(x))
i = torch.tensor([1, 2, 3])
print(i.sum().dtype, i.float().mean())
try:
    i.mean()
except RuntimeError as e:
    print(e)
