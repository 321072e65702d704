# Leaving tensor land: item, tolist, float(), int(), and the errors for many-element tensors.
import torch

t = torch.tensor([[1.5, 2.0], [3.0, 4.25]])
print(t[0, 0].item(), type(t[0, 0].item()).__name__, t.tolist())
print(float(t[1, 1]), int(torch.tensor(7)), torch.tensor([3]).item(), bool(torch.tensor([0.0])))
print(torch.tensor(2, dtype=torch.int32).item(), torch.tensor(True).item())
try:
    t.item()
except RuntimeError as e:
    print(e)
try:
    float(t)
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    bool(t)
except RuntimeError as e:
    print(e)
