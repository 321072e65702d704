# Idiom: a hand-rolled metrics tracker -- collections.defaultdict(list) for per-epoch
# metrics, collections.Counter for class balance and predictions, a namedtuple Batch,
# an AverageMeter class (as in the ImageNet example), statistics.mean / stdev / median,
# and a per-class accuracy report.
import random
import statistics
from collections import Counter, OrderedDict, defaultdict, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)

Batch = namedtuple("Batch", ["inputs", "targets"])
CLASSES = ("cat", "dog", "bird", "fish")


class AverageMeter(object):
    """Computes and stores the average and current value"""

    def __init__(self, name, fmt=':f'):
        self.name = name
        self.fmt = fmt
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = '{name} {val' + self.fmt + '} ({avg' + self.fmt + '})'
        return fmtstr.format(**self.__dict__)


class MetricsTracker:
    def __init__(self):
        self.history = defaultdict(list)

    def log(self, **metrics):
        for k, v in metrics.items():
            self.history[k].append(v)

    def summary(self, key):
        vals = self.history[key]
        return {
            "mean": round(statistics.mean(vals), 4),
            "stdev": round(statistics.stdev(vals), 4) if len(vals) > 1 else 0.0,
            "median": round(statistics.median(vals), 4),
            "best": round(min(vals) if "loss" in key else max(vals), 4),
        }


def make_data(n=300):
    x = torch.randn(n, 6)
    logits = x[:, :4] + torch.tensor([0.8, 0.3, 0.0, -0.6])  # imbalanced classes
    return x, logits.argmax(dim=1)


X, y = make_data()
label_counts = Counter(y.tolist())
print("class counts:", {CLASSES[k]: v for k, v in sorted(label_counts.items())})
print("most common:", [(CLASSES[k], c) for k, c in label_counts.most_common(2)])

loader = DataLoader(TensorDataset(X, y), batch_size=50, shuffle=True)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
tracker = MetricsTracker()
step_losses = []

for epoch in range(6):
    model.train()
    losses = AverageMeter('Loss', ':.4f')
    top1 = AverageMeter('Acc@1', ':6.2f')
    for raw in loader:
        batch = Batch(*raw)
        out = model(batch.inputs)
        loss = F.cross_entropy(out, batch.targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (out.argmax(dim=1) == batch.targets).float().mean().item() * 100
        losses.update(loss.item(), batch.inputs.size(0))
        top1.update(acc, batch.inputs.size(0))
        step_losses.append(loss.item())
    tracker.log(loss=losses.avg, acc=top1.avg, epoch=epoch)
    print(f"Epoch [{epoch}]  {losses}  {top1}")

print("tracked keys:", sorted(tracker.history))
print("loss summary:", tracker.summary("loss"))
print("acc summary:", tracker.summary("acc"))
print(f"step loss mean={statistics.mean(step_losses):.4f} "
      f"stdev={statistics.stdev(step_losses):.4f} n={len(step_losses)}")

# per-class evaluation with Counters
model.eval()
correct_per_class = Counter()
total_per_class = Counter()
confusion = defaultdict(Counter)
with torch.no_grad():
    preds = model(X).argmax(dim=1)
for t, p in zip(y.tolist(), preds.tolist()):
    total_per_class[CLASSES[t]] += 1
    confusion[CLASSES[t]][CLASSES[p]] += 1
    if t == p:
        correct_per_class[CLASSES[t]] += 1

report = OrderedDict()
for name in CLASSES:
    report[name] = correct_per_class[name] / total_per_class[name]
for name, acc in report.items():
    print(f"Accuracy for class: {name:5s} is {100 * acc:.1f} %")
print("prediction counts:", dict(sorted(Counter(CLASSES[p] for p in preds.tolist()).items())))
print("cat row of confusion:", dict(confusion["cat"]))
print("missing key in Counter ->", correct_per_class["zebra"])
print("total correct:", sum(correct_per_class.values()), "/", sum(total_per_class.values()))
b = Batch(inputs=X[:2], targets=y[:2])
print(b._fields, b.targets.tolist(), b._replace(targets=None).targets)
