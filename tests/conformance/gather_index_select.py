# gather and index_select, as methods and as torch functions, and the CPU's bounds check.
import torch

t = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(t.gather(1, torch.tensor([[2, 0], [1, 1]])))
print(torch.gather(t, 0, torch.tensor([[1, 0, 1]])))
print(t.index_select(1, torch.tensor([2, 0])), torch.index_select(t, 0, torch.tensor([1])))
print(t.gather(dim=1, index=torch.tensor([[0], [2]])))
try:
    t.gather(1, torch.tensor([[5]]))
except RuntimeError as e:
    print(type(e).__name__, e)
t.index_select(0, torch.tensor([2]))
