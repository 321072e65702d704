# A learner's Dataset class with __len__ and __getitem__, collated by the default collate function.

import torch
from torch.utils.data import Dataset, DataLoader

class Pairs(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([i, i + 1.0]), "label": i % 2, "weight": i / 2}

loader = DataLoader(Pairs(10**12), batch_size=2)
for batch in loader:
    print(batch["x"].tolist(), batch["label"], batch["weight"])

def collate(samples):
    return len(samples)

print([b for b in DataLoader(Pairs(5), batch_size=2, collate_fn=collate)])
print(list(DataLoader(Pairs(3), batch_size=None))[1]["label"])