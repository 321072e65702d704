import torch

x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 3.0, 9.0]], requires_grad=True)
print(x.std(), x.var())
print(x.std(0), x.var(1))
print(x.std(1, keepdim=True))
print(x.var(unbiased=False), x.std(False))
print(x.var(dim=1, correction=0), torch.var(x, 1), torch.std(x, dim=0))
print(x.std().grad_fn, x.var(0).grad_fn)
x.std().backward()
print(x.grad)
x.grad = None
x.var(1).sum().backward()
print(x.grad)
print(torch.tensor([3.0]).std())
try:
    torch.arange(4).std()
except NotImplementedError as e:
    print("NotImplementedError:", e)

# max and min along a dimension return a named tuple (values, indices).
result = x.max(1)
print(result)
print(type(result).__name__, len(result), result.indices, result[0])
values, indices = torch.max(x, 1)
print(values.grad_fn, indices.dtype)
print(torch.min(x, dim=0, keepdim=True))
x.grad = None
values.sum().backward()
print(x.grad)
outputs = torch.tensor([[0.1, 2.0, -1.0], [3.0, 0.5, 0.2], [0.0, 0.1, 0.9]])
labels = torch.tensor([1, 0, 1])
_, predicted = torch.max(outputs, 1)
print(predicted, (predicted == labels).sum().item())
print(torch.max(x, torch.full((2, 3), 4.0)))
print(torch.minimum(x, torch.full((2, 3), 4.0)).grad_fn)
