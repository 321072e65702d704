# out= as the Tensors tutorial uses it: the result written into a tensor made beforehand.
import torch

x = torch.ones(2, 3)
y = torch.full((2, 3), 2.0)
result = torch.empty(2, 3)
returned = torch.add(x, y, out=result)
print(result, returned is result)
torch.sin(torch.zeros(2, 3), out=result)
print(result)
torch.mul(x, 3, out=result)
print(result)
as_double = torch.zeros(2, 3, dtype=torch.float64)
torch.div(x, 3, out=as_double)
print(as_double)
ints = torch.zeros(2, 3, dtype=torch.int64)
torch.add(torch.ones(2, 3, dtype=torch.int64), 1, out=ints)
print(ints)
for label, fn in [
    ("float into long", lambda: torch.add(x, y, out=torch.zeros(2, 3, dtype=torch.long))),
    ("sin into long", lambda: torch.sin(x, out=torch.zeros(2, 3, dtype=torch.long))),
    ("with grad", lambda: torch.add(x.clone().requires_grad_(), y, out=torch.zeros(2, 3))),
]:
    try:
        fn()
    except RuntimeError as e:
        print(label, "->", e)
a = torch.ones(2)
a.add_(torch.ones(2, dtype=torch.float64))
print(a, a.dtype)
b = torch.ones(2, dtype=torch.int32)
b.add_(torch.ones(2, dtype=torch.int64))
print(b)
try:
    torch.tensor([True]).add_(torch.tensor([1]))
except RuntimeError as e:
    print(e)
