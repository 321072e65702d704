# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# An optimizer holds the parameters themselves: model.cuda() before or after creating it both work,
# because module.to() moves parameters in place.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model.cuda()
x = torch.ones(4, 2, device="cuda")
loss = model(x).pow(2).mean()
loss.backward()
opt.step()
print(model.weight.device, model.weight.grad.device)
print(opt.param_groups[0]["params"][0] is model.weight)
