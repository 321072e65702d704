# How a model prints: learners' extra_repr and __repr__ inside built-in containers,
# super().__repr__(), and methods of built-in classes called unbound.
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
        self.fc = nn.Linear(width, width)

    def extra_repr(self):
        return f"width={self.width}"


class Tagged(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Block(2)

    def __repr__(self):
        return "Tagged<" + super().__repr__().replace("\n", " ") + ">"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(2), Block(3)])
        self.tagged = Tagged()
        self.head = nn.Sequential(Block(4), nn.ReLU())

    def extra_repr(self):
        return "two blocks,\nthen a head"


net = Net()
print(net)
print(nn.Sequential(Block(1)))
print([Block(5)], {"m": Tagged()})
print(repr(Tagged()))
print(nn.Module.__repr__(Tagged()))
print(str(net.blocks[0]), f"{net.blocks[1]!r}")
print(torch.Tensor.add(torch.ones(2), 1), torch.Tensor.sum(torch.arange(4)),
      torch.Tensor.reshape(torch.arange(6), 2, 3).shape)
print(len(list(nn.Module.parameters(net))), nn.Module.train(net, False).training, net.training)
print(torch.Tensor.add)
try:
    nn.Module.parameters()
except TypeError as e:
    print("TypeError:", e)
try:
    torch.Tensor.add()
except TypeError as e:
    print("TypeError:", e)
