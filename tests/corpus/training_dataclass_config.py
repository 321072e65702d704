# Idiom: a @dataclass config object driving a training run -- defaults,
# field(default_factory=...), __post_init__ validation, asdict(), replace(),
# a nested dataclass, frozen dataclass, and printing the config repr.
import random
from dataclasses import asdict, dataclass, field, fields, replace
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)


@dataclass(frozen=True)
class OptimConfig:
    name: str = "adam"
    lr: float = 1e-2
    weight_decay: float = 0.0


@dataclass
class TrainConfig:
    input_dim: int = 10
    hidden_dims: List[int] = field(default_factory=lambda: [32, 16])
    num_classes: int = 4
    dropout: float = 0.1
    batch_size: int = 32
    epochs: int = 5
    optim: OptimConfig = field(default_factory=OptimConfig)
    tags: List[str] = field(default_factory=list)
    run_name: Optional[str] = None

    def __post_init__(self):
        if self.batch_size <= 0:
            raise ValueError(f"batch_size must be positive, got {self.batch_size}")
        if self.run_name is None:
            self.run_name = f"mlp-{'x'.join(map(str, self.hidden_dims))}"


class MLP(nn.Module):
    def __init__(self, cfg: TrainConfig):
        super().__init__()
        layers = []
        prev = cfg.input_dim
        for h in cfg.hidden_dims:
            layers += [nn.Linear(prev, h), nn.ReLU(), nn.Dropout(cfg.dropout)]
            prev = h
        layers.append(nn.Linear(prev, cfg.num_classes))
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


def build_optimizer(model, ocfg: OptimConfig):
    if ocfg.name == "adam":
        return torch.optim.Adam(model.parameters(), lr=ocfg.lr, weight_decay=ocfg.weight_decay)
    elif ocfg.name == "sgd":
        return torch.optim.SGD(model.parameters(), lr=ocfg.lr, momentum=0.9,
                               weight_decay=ocfg.weight_decay)
    raise ValueError(f"unknown optimizer {ocfg.name!r}")


def run(cfg: TrainConfig, X, y):
    torch.manual_seed(0)
    model = MLP(cfg)
    opt = build_optimizer(model, cfg.optim)
    loader = DataLoader(TensorDataset(X, y), batch_size=cfg.batch_size, shuffle=True)
    for epoch in range(cfg.epochs):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(X)
        acc = (logits.argmax(dim=1) == y).float().mean().item()
        final_loss = F.cross_entropy(logits, y).item()
    return final_loss, acc


X = torch.randn(200, 10)
y = (X[:, :4] * torch.tensor([1.0, -1.0, 2.0, 0.5])).argmax(dim=1)

cfg = TrainConfig()
print(cfg)
print("asdict:", asdict(cfg))
print("field names:", [f.name for f in fields(cfg)])

# default_factory gives each instance its own list
other = TrainConfig()
other.tags.append("baseline")
print("cfg.tags:", cfg.tags, "other.tags:", other.tags)
print("equal configs:", cfg == TrainConfig(), cfg == other)

try:
    cfg.optim.lr = 0.5
except Exception as e:  # dataclasses.FrozenInstanceError
    print(f"{type(e).__name__}: {e}")

try:
    TrainConfig(batch_size=0)
except ValueError as e:
    print("invalid config:", e)

sweep = [
    cfg,
    replace(cfg, hidden_dims=[64], run_name=None),
    replace(cfg, optim=replace(cfg.optim, name="sgd", lr=0.05), epochs=8),
]
results = {}
for c in sweep:
    loss, acc = run(c, X, y)
    results[c.run_name + "/" + c.optim.name] = (loss, acc)
    print(f"{c.run_name:>10} optim={c.optim.name:<4} lr={c.optim.lr:<5} epochs={c.epochs} "
          f"-> loss {loss:.4f} acc {acc:.3f}")

best = max(results, key=lambda k: results[k][1])
print("best run:", best)
print("original cfg untouched:", cfg.optim, cfg.epochs)
