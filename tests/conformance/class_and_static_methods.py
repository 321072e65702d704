# @classmethod and @staticmethod as model code uses them: alternative constructors, helpers.
import torch
import torch.nn as nn


class Config:
    default_width = 16

    def __init__(self, width, depth):
        self.width, self.depth = width, depth

    @classmethod
    def small(cls):
        return cls(cls.default_width, 2)

    @classmethod
    def describe(cls, suffix="!"):
        return f"{cls.__name__} with width {cls.default_width}{suffix}"

    @staticmethod
    def clamp(v, low=1):
        return max(v, low)

    def __repr__(self):
        return f"Config(width={self.width}, depth={self.depth})"


print(Config.small(), Config.describe(), Config.describe(suffix="?"))
c = Config(8, 3)
print(c.small(), c.describe(), Config.clamp(0), c.clamp(5, low=7))


class Wide(Config):
    default_width = 64


print(Wide.small(), Wide.describe(), type(Wide.small()).__name__)


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc = nn.Linear(4, hidden)

    @classmethod
    def from_config(cls, config):
        return cls(config.width)

    @staticmethod
    def count(model):
        return sum(p.numel() for p in model.parameters())


net = Net.from_config(Config.small())
print(net.fc, Net.count(net), net.count(net))
