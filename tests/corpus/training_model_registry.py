# Idiom: a model registry as in timm / fairseq / mmcv -- MODEL_REGISTRY dict,
# a parametrized decorator @register("mlp") that records classes, @classmethod
# from_config(cfg), custom __repr__ / extra_repr, building models by name from
# config dicts, and training every registered model on the same synthetic task.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)

MODEL_REGISTRY = {}


def register(name):
    """Class decorator: @register("mlp") adds the class to MODEL_REGISTRY."""
    def decorator(cls):
        if name in MODEL_REGISTRY:
            raise ValueError(f"Cannot register duplicate model ({name})")
        if not issubclass(cls, nn.Module):
            raise ValueError(f"Model ({name}: {cls.__name__}) must extend nn.Module")
        MODEL_REGISTRY[name] = cls
        cls.registry_name = name
        return cls
    return decorator


def build_model(name, **kwargs):
    try:
        cls = MODEL_REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown model {name!r}; available: {sorted(MODEL_REGISTRY)}") from None
    return cls.from_config(kwargs)


class BaseModel(nn.Module):
    registry_name = None

    @classmethod
    def from_config(cls, cfg):
        return cls(**cfg)

    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())

    def __repr__(self):
        return f"{type(self).__name__}(name={self.registry_name!r}, params={self.num_parameters()})"


@register("linear")
class LinearModel(BaseModel):
    def __init__(self, in_dim, num_classes):
        super().__init__()
        self.fc = nn.Linear(in_dim, num_classes)

    def forward(self, x):
        return self.fc(x)


@register("mlp")
class MLP(BaseModel):
    def __init__(self, in_dim, num_classes, hidden=32, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, num_classes),
        )

    @classmethod
    def from_config(cls, cfg):
        cfg = dict(cfg)
        if "width" in cfg:  # accept an alias, as config loaders often do
            cfg["hidden"] = cfg.pop("width")
        return super().from_config(cfg)

    def forward(self, x):
        return self.net(x)


@register("resmlp")
class ResMLP(BaseModel):
    def __init__(self, in_dim, num_classes, hidden=32, depth=2):
        super().__init__()
        self.stem = nn.Linear(in_dim, hidden)
        self.blocks = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(depth)])
        self.head = nn.Linear(hidden, num_classes)
        self.depth = depth

    def forward(self, x):
        h = F.relu(self.stem(x))
        for block in self.blocks:
            h = h + F.relu(block(h))
        return self.head(h)

    def extra_repr(self):
        return f"depth={self.depth}"


print("registered:", list(MODEL_REGISTRY))
print("lookup:", MODEL_REGISTRY["mlp"].__name__, MODEL_REGISTRY["mlp"] is MLP)

try:
    @register("mlp")
    class Duplicate(BaseModel):
        pass
except ValueError as e:
    print("error:", e)

try:
    @register("not-a-module")
    class Plain:
        pass
except ValueError as e:
    print("error:", e)

try:
    build_model("transformer", in_dim=4, num_classes=2)
except KeyError as e:
    print("error:", e.args[0])

X = torch.randn(200, 6)
y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).long()  # XOR-like: linear model should struggle
loader = DataLoader(TensorDataset(X, y), batch_size=25, shuffle=True)

configs = [
    {"name": "linear", "in_dim": 6, "num_classes": 2},
    {"name": "mlp", "in_dim": 6, "num_classes": 2, "width": 64},
    {"name": "resmlp", "in_dim": 6, "num_classes": 2, "hidden": 16, "depth": 3},
]

for cfg in configs:
    cfg = dict(cfg)
    name = cfg.pop("name")
    torch.manual_seed(0)
    model = build_model(name, **cfg)
    print(repr(model))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(15):
        model.train()
        for xb, yb in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(xb), yb).backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(dim=1) == y).float().mean().item()
    print(f"  {name:<7} train acc {acc:.3f}  isinstance BaseModel: {isinstance(model, BaseModel)}")

# nn.Module's own repr still works on submodules, including extra_repr
res = build_model("resmlp", in_dim=6, num_classes=2, hidden=4, depth=1)
print(nn.Module.__repr__(res))
print("str(model) uses __repr__:", str(res))
