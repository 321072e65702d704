# PyTorch's warnings, caught with warnings.catch_warnings(record=True).
import warnings
import torch
import torch.nn.functional as F

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.mse_loss(torch.ones(3, 1), torch.zeros(3))
    warnings.warn("my own warning")
print(len(caught))
for w in caught:
    print(w.category.__name__, str(w.message)[:60])
print(loss)
