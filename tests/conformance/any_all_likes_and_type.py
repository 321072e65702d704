import torch

torch.manual_seed(0)
x = torch.tensor([[1.0, 0.0, 3.0], [0.0, 0.0, 2.0]])
print(x.any(), x.all(), x.any(dim=1), x.all(1), (x > -1).all(), torch.tensor([]).all(), torch.tensor([]).any())
print(torch.zeros_like(x, dtype=torch.int64), torch.full_like(x, 2.5), torch.empty_like(x).shape)
print(torch.rand_like(x), torch.randn_like(x, dtype=torch.float64))
print(x.type(), x.type(torch.float64).dtype, x.type("torch.LongTensor"))
try:
    x.type("torch.NopeTensor")
except ValueError as e:
    print("ValueError:", e)
