# In-place ops bump the version counter; autograd notices when a saved tensor changed.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = b * b
print(b._version)
b.add_(1)
print(b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    print(str(e).split(".")[0])
try:
    a.add_(1)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    a.add_(1)
print(a, a._version)
