# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# pin_memory=True hands out pinned batches, ready for non_blocking copies.
import torch
from torch.utils.data import TensorDataset, DataLoader

ds = TensorDataset(torch.arange(6.0).view(6, 1), torch.arange(6))
loader = DataLoader(ds, batch_size=4, pin_memory=True)
for xb, yb in loader:
    print(xb.is_pinned(), yb.is_pinned(), xb.to("cuda", non_blocking=True).device)
