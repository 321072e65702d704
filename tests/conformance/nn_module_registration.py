# Attribute assignment registers parameters, buffers and submodules; plain tensors stay plain.
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.scale = nn.Parameter(torch.ones(2))
        self.register_buffer("mean", torch.zeros(3))
        self.register_buffer("cache", torch.zeros(1), persistent=False)
        self.plain = torch.ones(3)

    def forward(self, x):
        return self.fc(x - self.mean) * self.scale

torch.manual_seed(0)
net = Net()
print([name for name, _ in net.named_parameters()])
print([name for name, _ in net.named_buffers()])
print(list(net.state_dict().keys()))
print([name for name, _ in net.named_children()])
print(net)
out = net(torch.ones(4, 3))
print(out.shape, out.grad_fn.name())
print(sum(p.numel() for p in net.parameters()))
