print(t.std(0), t.var(dim=(0, 1), correction=3), t.std(True))
import torch.multiprocessing as mp, torch.distributed as dist
torch.where(t, t, t)
list(DataLoader(DS()))
t.view(7)import torch
t = torch.tensor(3.0)
print(t.mean(0), t.sum(0))
print(t.std(0))
