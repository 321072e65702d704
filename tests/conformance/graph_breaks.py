# Where the graph breaks: detach, no_grad, .item(), .data, and tensors rebuilt from values.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
a = (w * 2).detach()
print(a.requires_grad, a.grad_fn)
with torch.no_grad():
    b = w * 2
print(b.requires_grad)
c = torch.tensor((w * 2).tolist())
print(c.requires_grad)
s = (w * 2).sum().item()
print(type(s).__name__, s)
d = w.data * 2
print(d.requires_grad)
e = w * 2
print(e.requires_grad, e.grad_fn.name())
try:
    a.sum().backward()
except RuntimeError as err:
    print(err)
