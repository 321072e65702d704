# Idiom: a pure-Python generator data pipeline feeding a model -- def batches(data, size):
# ... yield, `yield from` to chain shards, generator expressions passed to sum()/any()/
# max()/min()/all(), sorted(key=lambda ...) for length bucketing, a generator-based
# augmentation stage, lazy evaluation, and manual consumption with next() / StopIteration.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

VOCAB = 20


def make_examples(n, rng):
    """Variable-length token sequences; label = 1 if token 7 appears more than token 3."""
    for _ in range(n):
        length = rng.randint(3, 12)
        seq = [rng.randrange(VOCAB) for _ in range(length)]
        yield {"tokens": seq, "label": int(seq.count(7) > seq.count(3))}


def shards(all_data, n_shards):
    for k in range(n_shards):
        yield all_data[k::n_shards]


def stream(all_data, n_shards=3):
    for shard in shards(all_data, n_shards):
        yield from shard


def augment(examples, rng, p=0.2):
    for ex in examples:
        toks = list(ex["tokens"])
        if rng.random() < p and len(toks) > 3:
            toks.pop(rng.randrange(len(toks)))  # random token dropout
        yield {**ex, "tokens": toks}


def batches(data, size):
    batch = []
    for item in data:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def bucket_by_length(examples, size):
    """Sort by length so each batch needs little padding (as in torchtext BucketIterator)."""
    ordered = sorted(examples, key=lambda ex: len(ex["tokens"]))
    yield from batches(ordered, size)


def collate(batch, pad_id=0):
    max_len = max(len(ex["tokens"]) for ex in batch)
    ids = torch.tensor([ex["tokens"] + [pad_id] * (max_len - len(ex["tokens"])) for ex in batch])
    mask = torch.tensor([[1] * len(ex["tokens"]) + [0] * (max_len - len(ex["tokens"])) for ex in batch])
    labels = torch.tensor([ex["label"] for ex in batch])
    return ids, mask, labels


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.fc = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 2))

    def forward(self, ids, mask):
        e = self.emb(ids) * mask.unsqueeze(-1)
        pooled = e.sum(dim=1) / mask.sum(dim=1, keepdim=True)
        return self.fc(pooled)


rng = random.Random(0)
data = list(make_examples(240, rng))
train, val = data[:200], data[200:]

print("examples:", len(data), "| positives:", sum(ex["label"] for ex in data))
print("any empty:", any(len(ex["tokens"]) == 0 for ex in data),
      "| all len>=3:", all(len(ex["tokens"]) >= 3 for ex in data))
print("longest:", max(len(ex["tokens"]) for ex in data),
      "| shortest:", min((len(ex["tokens"]) for ex in data), default=0))
print("total tokens:", sum(len(ex["tokens"]) for ex in data))

gen = batches(range(10), 4)
print("generator type:", type(gen).__name__, "| first:", next(gen), "| rest:", list(gen))
print("stream order head:", [ex["tokens"][:2] for ex in list(stream(train[:6], 3))])

model = BagOfEmbeddings(VOCAB, 12)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)

padding_plain = sum(max(len(e["tokens"]) for e in b) * len(b) - sum(len(e["tokens"]) for e in b)
                    for b in batches(train, 16))
padding_bucketed = sum(max(len(e["tokens"]) for e in b) * len(b) - sum(len(e["tokens"]) for e in b)
                       for b in bucket_by_length(train, 16))
print(f"padding tokens: plain={padding_plain} bucketed={padding_bucketed}")

for epoch in range(8):
    model.train()
    epoch_rng = random.Random(epoch)
    shuffled = sorted(train, key=lambda ex: epoch_rng.random())
    batch_list = list(bucket_by_length(augment(stream(shuffled), epoch_rng), 16))
    epoch_rng.shuffle(batch_list)
    losses = []
    for batch in batch_list:
        ids, mask, labels = collate(batch)
        loss = F.cross_entropy(model(ids, mask), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        correct = sum((model(ids, mask).argmax(dim=1) == labels).sum().item()
                      for ids, mask, labels in (collate(b) for b in batches(val, 16)))
    if epoch % 2 == 1:
        print(f"epoch {epoch}: batches={len(losses)} loss={sum(losses) / len(losses):.4f} "
              f"val_acc={correct}/{len(val)}")

# lazy evaluation: nothing runs until the generator is consumed
log = []


def traced(xs):
    for x in xs:
        log.append(x)
        yield x * x


g = traced([1, 2, 3])
print("before consuming:", log)
print("first square:", next(g), "| log:", log)
print("remaining sum:", sum(g), "| log:", log)
try:
    next(g)
except StopIteration:
    print("exhausted -> StopIteration")
top3 = sorted(((ex["label"], len(ex["tokens"]), i) for i, ex in enumerate(val)),
              key=lambda t: (-t[1], t[2]))[:3]
print("three longest val examples (label, len, idx):", top3)
