# Gradients: leaves, non-leaves, backward, accumulation, no_grad and detach.
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x = torch.tensor([0.5, -1.0, 2.0])
y = (w * x).sum()
print(y, y.grad_fn, y.grad_fn.name())
print(w.is_leaf, y.is_leaf, y.requires_grad)
y.backward()
print(w.grad)
z = (w ** 2).sum()
z.backward()
print(w.grad)
with torch.no_grad():
    q = w * 2
print(q.requires_grad, q.grad_fn, torch.is_grad_enabled())
d = w.detach()
print(d.requires_grad, d.is_leaf)
h = w.double()
print(h.grad_fn, h.dtype)
print(h.grad_fn.next_functions)
v = w * 3
print(v.grad)
