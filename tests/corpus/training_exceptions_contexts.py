# Idiom: error handling in a training pipeline -- a custom exception hierarchy
# (class TrainingError(Exception) with __init__/__str__), `raise ... from err`,
# try/except/else/finally, NaN-loss detection, a @contextlib.contextmanager
# "timer" that counts steps instead of wall time, contextlib.nullcontext() standing
# in for an optional torch.no_grad(), and contextlib.suppress / ExitStack.
import contextlib
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)


class TrainingError(Exception):
    """Base class for pipeline errors."""


class DataError(TrainingError):
    def __init__(self, index, reason):
        super().__init__(index, reason)
        self.index = index
        self.reason = reason

    def __str__(self):
        return f"bad sample at index {self.index}: {self.reason}"


class DivergenceError(TrainingError):
    def __init__(self, step, loss):
        self.step = step
        self.loss = loss
        super().__init__(f"loss diverged at step {step}")

    def __str__(self):
        return f"{self.args[0]} (loss={self.loss})"


@contextlib.contextmanager
def step_timer(name, stats):
    """Like the usual `with timer("forward"):` helper, but counts calls instead of seconds."""
    stats.setdefault(name, 0)
    try:
        yield stats
    finally:
        stats[name] += 1


def validate_batch(xb, offset):
    bad = (~torch.isfinite(xb)).any(dim=1).nonzero()
    if len(bad):
        raise DataError(offset + bad[0].item(), "non-finite feature")


def run_epoch(model, loader, optimizer=None, stats=None):
    training = optimizer is not None
    model.train(training)
    ctx = contextlib.nullcontext() if training else torch.no_grad()
    total, n = 0.0, 0
    with ctx:
        grad_inside = torch.is_grad_enabled()
        for i, (xb, yb) in enumerate(loader):
            try:
                validate_batch(xb, i * loader.batch_size)
            except DataError as err:
                raise TrainingError("data validation failed") from err
            with step_timer("forward", stats):
                loss = F.cross_entropy(model(xb), yb)
            if not math.isfinite(loss.item()):
                raise DivergenceError(i, loss.item())
            if training:
                with step_timer("backward", stats):
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
            total += loss.item() * len(xb)
            n += len(xb)
    return total / n, grad_inside


X = torch.randn(96, 5)
y = (X[:, 0] - X[:, 3] > 0).long()
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
loader = DataLoader(TensorDataset(X, y), batch_size=16)
stats = {}

for epoch in range(3):
    try:
        train_loss, _ = run_epoch(model, loader, optimizer, stats)
        val_loss, grad_on = run_epoch(model, loader, None, stats)
    except TrainingError as e:
        print("unexpected:", e)
    else:
        print(f"epoch {epoch}: train {train_loss:.4f} val {val_loss:.4f} (grad enabled in val: {grad_on}, after: {torch.is_grad_enabled()})")
    finally:
        print(f"  finally: counters {stats}")

# 1) corrupt data -> DataError chained into TrainingError
X_bad = X.clone()
X_bad[37, 2] = float("nan")
try:
    run_epoch(model, DataLoader(TensorDataset(X_bad, y), batch_size=16), optimizer, stats)
except TrainingError as e:
    print(f"{type(e).__name__}: {e}")
    cause = e.__cause__
    print(f"  caused by {type(cause).__name__}: {cause}")
    print("  index attr:", cause.index, "| isinstance TrainingError:", isinstance(cause, TrainingError))
    print("  suppress_context:", e.__suppress_context__)

# 2) exploding learning rate -> DivergenceError
torch.manual_seed(0)
model2 = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2))
opt2 = torch.optim.SGD(model2.parameters(), lr=1e6)
try:
    for epoch in range(5):
        run_epoch(model2, DataLoader(TensorDataset(X * 100, y), batch_size=16), opt2, {})
except DivergenceError as e:
    print(f"DivergenceError: {e}")
    print("  step:", e.step, "args:", e.args)

# 3) exceptions inside a context manager still update the counter (finally)
counters = {}
try:
    with step_timer("flaky", counters):
        raise RuntimeError("CUDA out of memory (simulated)")
except RuntimeError as e:
    print("caught:", e, "| counters:", counters)

# 4) contextlib.suppress and ExitStack for optional contexts
with contextlib.suppress(KeyError):
    {}["missing"]
    print("not reached")
print("suppress swallowed KeyError")

use_no_grad = True
with contextlib.ExitStack() as stack:
    if use_no_grad:
        stack.enter_context(torch.no_grad())
    c = stack.enter_context(step_timer("eval", counters))
    out = model(X[:4])
print("ExitStack eval: requires_grad =", out.requires_grad, "| counters:", counters)

with contextlib.nullcontext(model) as m:
    print("nullcontext yields its argument:", m is model)


def checked_div(a, b):
    try:
        return a / b
    except ZeroDivisionError as exc:
        raise TrainingError(f"cannot normalize by {b}") from exc
    finally:
        print(f"  checked_div({a}, {b}) done")


print("result:", checked_div(6, 3))
try:
    checked_div(1, 0)
except TrainingError as e:
    print("TrainingError:", e, "| cause:", repr(e.__cause__))
