# Which tensors can require gradients, leaves vs results, and requires_grad_.
import torch

try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(e)
x = torch.ones(2)
print(x.requires_grad, x.is_leaf)
x.requires_grad_()
print(x.requires_grad, x.is_leaf)
y = x * 2
print(y.requires_grad, y.is_leaf, y.grad_fn.name())
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print(e)
z = torch.zeros(2, requires_grad=True).double()
print(z.is_leaf, z.grad_fn.name(), z.grad_fn.next_functions[0][0].name())
