# detach() shares storage with the original: in-place changes show through; clone() does not.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
d = w.detach()
d[0] = 10.0
print(w, d.requires_grad, d.data_ptr() == w.data_ptr())
c = w.detach().clone()
c[1] = -1.0
print(w, c)
print(w.data is w, w.data.requires_grad)
