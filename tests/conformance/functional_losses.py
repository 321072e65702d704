# Losses from torch.nn.functional and their module forms give PyTorch's values and graph nodes.
import torch
import torch.nn.functional as F
from torch import nn

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]], requires_grad=True)
target = torch.tensor([0, 2])
ce = F.cross_entropy(logits, target)
print(ce, ce.grad_fn.name())
print(F.nll_loss(F.log_softmax(logits, dim=1), target))
print(nn.CrossEntropyLoss(reduction="sum")(logits, target))
print(F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 1.0])))
print(nn.MSELoss(reduction="none")(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 0.0])))
bce = F.binary_cross_entropy_with_logits(torch.tensor([0.3, -1.2]), torch.tensor([1.0, 0.0]))
print(bce)
ce.backward()
print(logits.grad)
