# DataLoader over a TensorDataset: batches, drop_last, a seeded shuffle, and len().
import torch
from torch.utils.data import TensorDataset, DataLoader

x = torch.arange(10.0).view(10, 1)
y = torch.arange(10)
ds = TensorDataset(x, y)
print(len(ds), ds[3])
loader = DataLoader(ds, batch_size=4)
print(len(loader), [yb.tolist() for _, yb in loader])
print(len(DataLoader(ds, batch_size=4, drop_last=True)))
g = torch.Generator().manual_seed(7)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=3, shuffle=True, generator=g)])
torch.manual_seed(3)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True)])
first_x, first_y = next(iter(loader))
print(first_x.shape, first_y.dtype)
