# Activations and softmax along a dim, as functions, methods and modules.
import torch
import torch.nn.functional as F
from torch import nn

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
print(F.softmax(x, dim=1))
print(x.softmax(dim=0))
print(F.log_softmax(x, dim=1))
print(F.relu(x), torch.relu(x).sum())
print(nn.Sigmoid()(x), nn.Tanh()(torch.tensor([0.5])))
print(torch.sigmoid(torch.tensor(0.0)), x.tanh().mean())
