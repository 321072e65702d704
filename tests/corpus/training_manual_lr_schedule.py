# Idiom: hand-written learning-rate schedules (nanoGPT-style get_lr with linear warmup
# + cosine decay via math.cos, written into every optimizer.param_groups[i]["lr"]),
# a manual StepLR-style decay `lr = base_lr * (gamma ** (epoch // step_size))`,
# and a LambdaLR built from the same function for comparison.
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)

# ---- hyperparameters --------------------------------------------------------
learning_rate = 6e-3
min_lr = 6e-4
warmup_iters = 4
lr_decay_iters = 20
max_iters = 24


def get_lr(it):
    # 1) linear warmup for warmup_iters steps
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    # 2) if it > lr_decay_iters, return min learning rate
    if it > lr_decay_iters:
        return min_lr
    # 3) in between, use cosine decay down to min learning rate
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    assert 0 <= decay_ratio <= 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))  # coeff ranges 0..1
    return min_lr + coeff * (learning_rate - min_lr)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))

    def forward(self, x):
        return self.body(x)


X = torch.randn(192, 6)
y = (X.sum(dim=1) > 0).long()
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)


def infinite(loader):
    while True:
        for batch in loader:
            yield batch


# ---- part 1: warmup + cosine, per iteration ----------------------------------
model = TinyNet()
# two param groups (weights decayed, biases not), like nanoGPT's configure_optimizers
decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
optimizer = torch.optim.AdamW([
    {"params": decay, "weight_decay": 0.1},
    {"params": no_decay, "weight_decay": 0.0},
], lr=learning_rate, betas=(0.9, 0.95))
print("param groups:", len(optimizer.param_groups),
      [len(g["params"]) for g in optimizer.param_groups])

data_iter = infinite(loader)
for it in range(max_iters + 1):
    lr = get_lr(it)
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr
    xb, yb = next(data_iter)
    loss = F.cross_entropy(model(xb), yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if it % 4 == 0 or it == max_iters:
        print(f"iter {it:3d}: lr {lr:.6f}, loss {loss.item():.4f}")

assert all(g["lr"] == min_lr for g in optimizer.param_groups)

# ---- part 2: manual StepLR-style decay, per epoch -----------------------------
torch.manual_seed(0)
model = TinyNet()
base_lr, gamma, step_size = 0.5, 0.5, 2
optimizer = torch.optim.SGD(model.parameters(), lr=base_lr, momentum=0.9)


def adjust_learning_rate(optimizer, epoch):
    """Sets the learning rate to the initial LR decayed by gamma every step_size epochs"""
    lr = base_lr * (gamma ** (epoch // step_size))
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr
    return lr


for epoch in range(7):
    lr = adjust_learning_rate(optimizer, epoch)
    model.train()
    total, n = 0.0, 0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        n += len(xb)
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(dim=1) == y).float().mean().item()
    print(f"epoch {epoch}: lr={lr:g} train_loss={total / n:.4f} acc={acc:.3f}")

# ---- part 3: same schedules as built-in schedulers ----------------------------
opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=learning_rate)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda it: get_lr(it) / learning_rate)
builtin = []
for it in range(max_iters + 1):
    builtin.append(opt.param_groups[0]["lr"])
    opt.step()
    sched.step()
manual = [get_lr(it) for it in range(max_iters + 1)]
print("LambdaLR matches manual:", all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(builtin, manual)))

opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
step = torch.optim.lr_scheduler.StepLR(opt, step_size=step_size, gamma=gamma)
lrs = []
for epoch in range(7):
    lrs.append(step.get_last_lr()[0])
    opt.step()
    step.step()
print("StepLR lrs:", lrs)
print("manual   :", [base_lr * gamma ** (e // step_size) for e in range(7)])
print("peak lr at iter", max(range(max_iters + 1), key=get_lr),
      "| lr at decay end:", f"{get_lr(lr_decay_iters):.2e}")
