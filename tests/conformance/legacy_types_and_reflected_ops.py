# The legacy tensor types (torch.FloatTensor and its siblings, torch.Tensor(...) as a
# constructor, isinstance and Tensor.type with them), and a number on the left of a tensor's
# operator (__rtruediv__, __rfloordiv__, __rmod__) and div_'s rounding modes.
import numpy as np
import torch


def tr(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


# ---- torch.Tensor(...) and the legacy types
tr(lambda: torch.Tensor())
tr(lambda: torch.Tensor(2, 3).shape)
tr(lambda: torch.Tensor(torch.Size([2, 3])).shape)
tr(lambda: torch.Tensor([1, 2]))
tr(lambda: torch.Tensor((2, 3)))
tr(lambda: torch.Tensor([[1, 2], [3, 4]]))
tr(lambda: torch.Tensor(np.zeros(2)))
t = torch.tensor([1, 2])
print(torch.Tensor(t) is t)
tr(lambda: torch.Tensor(2.5))
tr(lambda: torch.Tensor("ab"))
tr(lambda: torch.Tensor(None))
tr(lambda: torch.Tensor(-1))
tr(lambda: torch.Tensor([1], requires_grad=True))
tr(lambda: torch.Tensor(1, 2, dtype=torch.float32))
tr(lambda: torch.Tensor([1], [2]))
tr(lambda: torch.Tensor(2, device="meta"))
for ty in [torch.FloatTensor, torch.DoubleTensor, torch.HalfTensor, torch.BFloat16Tensor,
           torch.LongTensor, torch.IntTensor, torch.ByteTensor, torch.BoolTensor]:
    print(ty, ty.__name__, ty.dtype, ty.is_cuda, ty([1, 0]), ty(2).shape)
print(type(torch.FloatTensor), torch.cuda.FloatTensor, torch.cuda.LongTensor.is_cuda)
tr(lambda: torch.LongTensor([1.7, -2.5]))
tr(lambda: torch.FloatTensor(torch.tensor([1, 2])))
tr(lambda: torch.IntTensor(torch.zeros(1)))
tr(lambda: torch.LongTensor([1], dtype=torch.float32))
tr(lambda: torch.FloatTensor([1], device="meta"))
f = torch.FloatTensor([1.5])
print(torch.FloatTensor(f) is f, torch.FloatTensor(2, device="cpu").shape)
a, i = torch.zeros(2), torch.zeros(2, dtype=torch.long)
print(isinstance(a, torch.FloatTensor), isinstance(i, torch.FloatTensor), isinstance(i, torch.LongTensor))
print(isinstance(a, torch.cuda.FloatTensor), isinstance(a, torch.Tensor), isinstance(a, (torch.LongTensor, torch.FloatTensor)))
print(isinstance(torch.nn.Parameter(torch.ones(1)), torch.FloatTensor))
print(a.type(), a.type(torch.LongTensor), i.type(torch.DoubleTensor).type(), a.type(torch.FloatTensor) is a)
print(torch.FloatTensor == torch.FloatTensor, torch.FloatTensor == torch.DoubleTensor, callable(torch.LongTensor))
torch.set_default_dtype(torch.float64)
print(torch.Tensor([1]).dtype, torch.Tensor(2).dtype, torch.FloatTensor([1]).dtype)
torch.set_default_dtype(torch.float32)

# ---- a number on the left
i = torch.tensor([[3, -2, 7], [0, 5, -9]])
a = torch.tensor([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]])
print(6 / i, 1 / a, 2 / torch.tensor([1, 2], dtype=torch.uint8))
print(7 // a, -7 // torch.tensor([2, 3]), 7 // torch.tensor([2.5, -2.0]))
print(7.5 % a, 7 % torch.tensor([2, 3]), -7 % torch.tensor([2, -3]), 3 % torch.tensor([2], dtype=torch.uint8))
tr(lambda: 7 // i)
tr(lambda: 7 % i)
x = a.clone().requires_grad_()
y = 2 / x
print(y.grad_fn.name(), [type(n).__name__ for n, _ in y.grad_fn.next_functions])
y.sum().backward()
print(x.grad)
r = 7.5 % x
print(r.grad_fn.name())
tr(lambda: r.sum().backward())
print((7 // x).grad_fn.name(), torch.remainder(7.5, a), torch.remainder(7.5, x).grad_fn.name())

# ---- div_ with a rounding mode
b = torch.tensor([[1.5, 0.25, -2.0], [0.5, 4.0, -3.0]])
print(a.clone().div_(b, rounding_mode="trunc"), a.clone().div_(2, rounding_mode="floor"))
print(i.clone().div_(2, rounding_mode="trunc"), i.clone().div_(2, rounding_mode="floor"))
print(a.clone().div_(2, rounding_mode=None))
tr(lambda: i.clone().div_(2))
tr(lambda: a.clone().div_(2, rounding_mode="round"))
tr(lambda: i.clone().div_(torch.tensor([0, 1, 1]), rounding_mode="floor"))
z = (a.clone().requires_grad_() * 1).div_(b, rounding_mode="trunc")
print(z.grad_fn.name(), z.requires_grad)
