# atan2, hypot, fmod, remainder, fmax/fmin, copysign and div's rounding modes as tutorials call them.
import math
import torch

y = torch.tensor([1.0, -1.0, 0.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 1.0, -1.0, 0.0], requires_grad=True)
angle = torch.atan2(y, x)
print(angle, angle.grad_fn)
angle.sum().backward()
print(y.grad, x.grad)
print(torch.rad2deg(angle.detach()) if hasattr(torch, "rad2deg") else angle.detach() * 180 / math.pi)
print(torch.hypot(torch.tensor([3.0, 5.0]), torch.tensor([4.0, 12.0])))
a = torch.tensor([-7.0, -1.5, 0.0, 5.5])
print(torch.fmod(a, 2), torch.remainder(a, 2), a.fmod(-2), a % -2)
print(torch.tensor([-7, 7]).fmod(3), torch.tensor([-7, 7]) % 3)
print(torch.div(a, 2, rounding_mode="trunc"), torch.div(a, 2, rounding_mode="floor"), a // 2)
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc"), torch.tensor([1.0]) // 0.1)
print(torch.fmax(torch.tensor([1.0, float("nan"), 3.0]), torch.tensor([float("nan"), 2.0, 1.0])))
print(torch.fmin(torch.tensor([1.0, float("nan"), 3.0]), torch.tensor([float("nan"), 2.0, 1.0])))
print(torch.copysign(torch.tensor([1.0, -2.0, 3.0]), -1), torch.tensor([1, 2]).copysign(torch.tensor([-1.0, 1.0])))
w = torch.tensor([0.5, -2.0], requires_grad=True)
out = torch.div(w, 3, rounding_mode="floor")
print(out, out.grad_fn)
out.sum().backward()
print(w.grad)
try:
    torch.hypot(torch.tensor([3]), torch.tensor([4]))
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    torch.atan2(torch.tensor([1.0]), 2.0)
except TypeError as e:
    print("TypeError:", e)
