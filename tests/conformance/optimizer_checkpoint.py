# Optimizer checkpoints: state_dict's shape, and load_state_dict restoring momentum so training
# continues exactly as if it had never stopped.
import torch
from torch import nn

x = torch.arange(24.0).view(8, 3) / 10
y = x.sum(dim=1, keepdim=True)
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for _ in range(3):
    opt.zero_grad()
    ((model(x) - y) ** 2).mean().backward()
    opt.step()
sd = opt.state_dict()
print(list(sd.keys()), list(sd["state"].keys()), list(sd["state"][0].keys()))
print({k: v for k, v in sd["param_groups"][0].items() if k in ("lr", "momentum", "params")})
torch.save({"model": model.state_dict(), "opt": sd}, "ckpt.pt")

resumed = nn.Linear(3, 1)
opt2 = torch.optim.SGD(resumed.parameters(), lr=0.5, momentum=0.0)
ckpt = torch.load("ckpt.pt")
resumed.load_state_dict(ckpt["model"])
opt2.load_state_dict(ckpt["opt"])
print(opt2.param_groups[0]["lr"], opt2.param_groups[0]["momentum"])
for m, o in [(model, opt), (resumed, opt2)]:
    o.zero_grad()
    ((m(x) - y) ** 2).mean().backward()
    o.step()
print(torch.equal(model.weight, resumed.weight), [round(v, 6) for v in model.weight.view(-1).tolist()])
