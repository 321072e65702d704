# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# model.to("cuda") moves parameters and buffers in place; plain tensor attributes stay behind.
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("scale", torch.ones(2))
        self.offset = torch.zeros(2)

    def forward(self, x):
        return self.fc(x) * self.scale + self.offset

net = Net()
w = net.fc.weight
net.to("cuda")
print(net.fc.weight.device, net.scale.device, net.offset.device, net.fc.weight is w)
try:
    net(torch.ones(1, 2, device="cuda"))
except RuntimeError as e:
    print(str(e).split(",")[0])
net.offset = net.offset.cuda()
print(net(torch.ones(1, 2, device="cuda")).device)
print(next(net.parameters()).device)
