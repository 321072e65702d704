# torch.save and torch.load of tensors, dicts and state_dicts; weights_only refuses whole modules.
import torch
from torch import nn

torch.manual_seed(0)
t = torch.randn(2, 3)
torch.save({"t": t, "step": 3, "names": ["a", "b"]}, "roundtrip.pt")
back = torch.load("roundtrip.pt")
print(torch.equal(back["t"], t), back["step"], back["names"], back["t"] is t)
m = nn.Linear(2, 1)
torch.save(m.state_dict(), "linear.pt")
m2 = nn.Linear(2, 1)
print(m2.load_state_dict(torch.load("linear.pt")))
print(torch.equal(m2.weight, m.weight))
torch.save(m, "whole.pt")
print(type(torch.load("whole.pt", weights_only=False)).__name__)
try:
    torch.load("whole.pt")
except Exception as e:
    print(type(e).__name__)
