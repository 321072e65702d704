# Device strings are parsed exactly as PyTorch parses them.
import torch

print(torch.device("cpu"), torch.device("cuda:1"), torch.device("cuda") == torch.device("cuda:0"))
print(repr(torch.device("cuda", 0)), torch.device("cuda:1").index, torch.device("mps").type)
print(torch.device("gpu"))
