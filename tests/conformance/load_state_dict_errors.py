# load_state_dict: missing and unexpected keys, strict=False, and size mismatches.
import torch
from torch import nn

m = nn.Linear(3, 2)
sd = m.state_dict()
sd["extra"] = torch.zeros(1)
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
print(m.load_state_dict(sd, strict=False))
del sd["extra"]
sd["weight"] = torch.zeros(4, 3)
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
