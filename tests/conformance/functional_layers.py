# The functional forms of the layers: conv2d, embedding, layer_norm, dropout and linear.
import torch
import torch.nn.functional as F

x = torch.arange(16.0).view(1, 1, 4, 4)
k = torch.tensor([[[[1.0, 0.0], [0.0, -1.0]]]])
print(F.conv2d(x, k), F.conv2d(x, k, stride=2, padding=1).shape)
table = torch.arange(12.0).view(4, 3)
print(F.embedding(torch.tensor([3, 0]), table))
v = torch.tensor([[1.0, 2.0, 3.0, 6.0]])
print(F.layer_norm(v, (4,)), F.layer_norm(v, [4], weight=torch.full((4,), 2.0), bias=torch.ones(4)))
print(F.dropout(v, p=0.5, training=False), F.dropout(v, p=0.0))
print(F.linear(v, torch.ones(2, 4), torch.tensor([0.5, -0.5])))
