import torch
from torch.utils.data import DataLoader, TensorDataset
for b in DataLoader(TensorDataset(torch.ones(3)), batch_size=10**12):
    print(b)
class Big:
    def __len__(self):
        return 10**12
    def __getitem__(self, i):
        return i
print(next(iter(DataLoader(Big(), batch_size=4))))
for b in DataLoader(Big(), shuffle=True):
    pass
