# Views share storage with their base; reshape may or may not copy; contiguous() copies when needed.
import torch

x = torch.arange(6.0)
v = x.view(2, 3)
v[0, 0] = 100.0
print(x)
t = v.t()
print(t.is_contiguous(), t.stride(), v.stride())
print(t.data_ptr() == x.data_ptr(), t.contiguous().data_ptr() == x.data_ptr())
try:
    t.view(6)
except RuntimeError as e:
    print(e)
print(t.reshape(6))
s = x[1:5:2]
print(s, s.stride(), s.storage_offset())
print(x.unsqueeze(0).shape, x.view(2, 3).unsqueeze(1).shape, torch.zeros(1, 3, 1).squeeze().shape)
print(x.view(3, 2).permute(1, 0).shape, x.expand(2, 6).stride())
