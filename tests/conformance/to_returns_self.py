# .to() returns the same tensor when nothing changes, a new one otherwise; copy=True forces a copy.
import torch

x = torch.ones(3)
print(x.to("cpu") is x, x.to(torch.float32) is x, x.to(x) is x)
y = x.to(torch.float64)
print(y is x, y.dtype, x.dtype)
c = x.to("cpu", copy=True)
print(c is x, c.data_ptr() == x.data_ptr(), torch.equal(c, x))
c[0] = 5.0
print(x, c)
print(x.float() is x, x.double() is x, x.cpu() is x)
