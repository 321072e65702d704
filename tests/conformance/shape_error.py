# A shape mismatch stops the cell with PyTorch's error on the line that caused it.
import torch

a = torch.ones(2, 3)
b = torch.ones(4, 5)
print("before")
c = a @ b
print("never printed")
