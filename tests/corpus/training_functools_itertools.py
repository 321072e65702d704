# Idiom: functional-style training utilities -- functools.partial to fix loss kwargs
# (label_smoothing, reduction), functools.reduce to combine losses / count params,
# itertools.islice(itertools.cycle(loader), n) for a fixed number of steps,
# enumerate(..., start=1), zip over train/val loaders, itertools.chain over param
# groups, itertools.product for a tiny grid search, functools.lru_cache.
import functools
import itertools
import operator
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)

X = torch.randn(160, 8)
y = (X[:, 0] * X[:, 1] > 0).long() + (X[:, 2] > 0.5).long()
train_ds = TensorDataset(X[:120], y[:120])
val_ds = TensorDataset(X[120:], y[120:])


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 32)

    def forward(self, x):
        return F.relu(self.fc(x))


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)
        self.fc = nn.Linear(32, 3)

    def forward(self, h):
        return self.fc(self.drop(h))


encoder, head = Encoder(), Head()
count = functools.reduce(operator.add, (p.numel() for p in itertools.chain(encoder.parameters(), head.parameters())))
print("total params (reduce):", count)

smooth_ce = functools.partial(F.cross_entropy, label_smoothing=0.1)
sum_ce = functools.partial(F.cross_entropy, reduction="sum")
print("partial:", smooth_ce.func.__name__, smooth_ce.keywords)


def l2_penalty(*modules, weight=1e-4):
    squares = (p.pow(2).sum() for m in modules for p in m.parameters())
    return weight * functools.reduce(lambda a, b: a + b, squares)


optimizer = torch.optim.Adam(itertools.chain(encoder.parameters(), head.parameters()), lr=1e-2)
train_loader = DataLoader(train_ds, batch_size=16, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=16)

num_steps = 30  # more than one epoch: cycle the loader, islice to stop
encoder.train(); head.train()
window = []
for step, (xb, yb) in enumerate(itertools.islice(itertools.cycle(train_loader), num_steps), start=1):
    logits = head(encoder(xb))
    loss = smooth_ce(logits, yb) + l2_penalty(encoder, head)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    window.append(loss.item())
    if step % 10 == 0:
        print(f"step {step:2d}: mean loss over last {len(window)} = {sum(window) / len(window):.4f}")
        window.clear()

encoder.eval(); head.eval()
with torch.no_grad():
    batch_losses = [sum_ce(head(encoder(xb)), yb).item() for xb, yb in val_loader]
    correct = functools.reduce(operator.add,
                               ((head(encoder(xb)).argmax(dim=1) == yb).sum().item() for xb, yb in val_loader))
val_loss = functools.reduce(operator.add, batch_losses) / len(val_ds)
print(f"val loss {val_loss:.4f} acc {correct}/{len(val_ds)}")

# zip pairs of train and val batches; zip stops at the shorter loader
pairs = list(zip(DataLoader(train_ds, batch_size=16), val_loader))
print("zip(train, val) pairs:", len(pairs), "of", len(train_loader), "and", len(val_loader))
for i, ((xt, yt), (xv, yv)) in enumerate(pairs[:2], start=1):
    print(f"  pair {i}: train {tuple(xt.shape)} val {tuple(xv.shape)}")

# unzip with zip(*...)
names, shapes = zip(*[(n, tuple(p.shape)) for n, p in head.named_parameters()])
print("head params:", names, shapes)


@functools.lru_cache(maxsize=None)
def make_loader(batch_size):
    return DataLoader(train_ds, batch_size=batch_size, shuffle=False)


results = {}
for lr, bs in itertools.product([1e-2, 3e-2], [16, 40]):
    torch.manual_seed(1)
    model = nn.Sequential(Encoder(), Head())
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for xb, yb in itertools.islice(itertools.cycle(make_loader(bs)), 20):
        opt.zero_grad()
        F.cross_entropy(model(xb), yb).backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        results[(lr, bs)] = F.cross_entropy(model(X[120:]), y[120:]).item()
for (lr, bs), v in sorted(results.items(), key=operator.itemgetter(1)):
    print(f"  lr={lr:<5} bs={bs:<3} val_loss={v:.4f}")
print("loader cache:", make_loader.cache_info().hits, "hits,", make_loader.cache_info().misses, "misses")
print("best:", min(results, key=results.get))
print("accumulate:", [round(v, 2) for v in itertools.accumulate([0.5, 0.25, 0.125])])
print("pairwise groups:", list(itertools.pairwise([1, 2, 3, 4])))
print("grouped by label:", {k: len(list(g)) for k, g in itertools.groupby(sorted(y[:20].tolist()))})
