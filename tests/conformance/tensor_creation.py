# Factory functions: shapes from *size or a tuple, dtypes inferred or given, seeded random draws.
import torch

print(torch.zeros(2, 3).shape, torch.ones((2,)).dtype, torch.full((2, 2), 7).dtype, torch.full((1,), 0.5))
print(torch.arange(5), torch.arange(1, 2, 0.25), torch.arange(3, dtype=torch.float64))
print(torch.tensor([[1, 2], [3, 4]]).dtype, torch.tensor(3.5).shape, torch.tensor([True, False]).dtype)
print(torch.empty(4, 2).shape, torch.zeros(0).numel(), torch.tensor([]).dtype)
torch.manual_seed(42)
print(torch.rand(3))
print(torch.randn(2, 2))
print(torch.randint(0, 10, (5,)), torch.randperm(6))
like = torch.ones(2, 2, dtype=torch.float16)
print(torch.zeros_like(like), torch.ones_like(like, dtype=torch.int64))
print(torch.tensor([1.5, 2.5], dtype=torch.bfloat16), torch.tensor([1, 2], dtype=torch.int32) * 2)
