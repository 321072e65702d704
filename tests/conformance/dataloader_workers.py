# num_workers > 0: batches come back in order; a seeded shuffle is the same as without workers.
import torch
from torch.utils.data import TensorDataset, DataLoader

ds = TensorDataset(torch.arange(8))
print([b[0].tolist() for b in DataLoader(ds, batch_size=3, num_workers=2)])
g = torch.Generator().manual_seed(1)
print([b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True, generator=g, num_workers=2)])
print(len(DataLoader(ds, batch_size=3, num_workers=2, drop_last=True)))
