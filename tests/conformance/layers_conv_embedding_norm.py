# Conv2d, Embedding and LayerNorm: shapes, default initialisation from the seed, outputs and graph nodes.
import torch
from torch import nn

torch.manual_seed(0)
conv = nn.Conv2d(1, 2, kernel_size=3, padding=1)
x = torch.arange(16.0).view(1, 1, 4, 4)
y = conv(x)
print(conv, y.shape, y.grad_fn.name())
print(conv.weight.shape, conv.bias.shape, round(y.sum().item(), 4))
strided = nn.Conv2d(2, 4, (3, 1), stride=(2, 1), bias=False)
print(strided(y).shape, strided.bias)
emb = nn.Embedding(10, 3, padding_idx=0)
e = emb(torch.tensor([[1, 0, 4]]))
print(emb, e.shape, e[0, 1].tolist(), e.grad_fn.name())
ln = nn.LayerNorm(3)
out = ln(torch.tensor([[1.0, 2.0, 4.0]]))
print(ln, out, out.grad_fn.name())
print([n for n, _ in ln.named_parameters()], nn.LayerNorm([2, 3], elementwise_affine=False))
