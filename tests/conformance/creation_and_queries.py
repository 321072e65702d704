import torch

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
print(torch.linspace(0, 1, 5), torch.linspace(-1, 1, steps=4, dtype=torch.float64))
print(torch.eye(2), torch.eye(2, 3, dtype=torch.int64))
a = torch.as_tensor([1, 2, 3])
print(a, a.dtype, torch.as_tensor(x) is x, torch.as_tensor(x, dtype=torch.float64).dtype)
y = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 0.0])
print(torch.isnan(y), torch.isinf(y), torch.isfinite(y))
print(x.prod(), torch.prod(torch.tensor([2, 3, 4])))
print(x.masked_fill(x < 0, 0.0), torch.masked_fill(x, x > 2, -1.0))
print(x.new_zeros(2), x.new_ones((1, 2)), x.new_full((2,), 7.0), x.new_tensor([1, 2]).dtype, x.new_empty(3).shape)
print(x.get_device(), x.nbytes, x.itemsize, x.element_size(), x.double().nbytes)
w = torch.ones(2, requires_grad=True)
try:
    w.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
z = (w * 2).prod()
z.backward()
print(z.grad_fn, w.grad)
m = x.masked_fill(torch.tensor([[True, False, False], [False, False, True]]), 9.0)
print(m)
