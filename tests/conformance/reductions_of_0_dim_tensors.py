import torch

# A 0-dim tensor has one dimension for reductions to name (dim=0 or -1), of size 1.
t = torch.tensor(3.0)
print(t.mean(0), t.sum(0))
print(t.std(0))
u = torch.tensor(3.0, requires_grad=True)
u.mean(0).backward()
print(u.grad)
u.grad = None
u.var(-1, correction=0).backward()
print(u.grad)
print(u.max(0), u.sum(-1))
