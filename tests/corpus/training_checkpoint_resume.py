# Idiom: the "Saving and Loading a General Checkpoint" recipe -- torch.save({'epoch',
# 'model_state_dict', 'optimizer_state_dict', 'loss'}, PATH), checkpoint = torch.load(PATH),
# model.load_state_dict / optimizer.load_state_dict, resuming from start_epoch, and
# saving/restoring the RNG state so dropout replays exactly, and file housekeeping
# with pathlib.Path, os.path.exists, os.remove (files live in the current directory).
import os
import random
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(6, 24)
        self.dropout = nn.Dropout(0.1)
        self.fc2 = nn.Linear(24, 3)

    def forward(self, x):
        return self.fc2(self.dropout(F.relu(self.fc1(x))))


X = torch.randn(150, 6)
y = (X[:, :3] @ torch.tensor([[1.0, 0.0, -1.0], [0.0, 1.0, 1.0], [1.0, -1.0, 0.0]])).argmax(dim=1)
dataset = TensorDataset(X, y)


def make_loader(seed):
    return DataLoader(dataset, batch_size=30, shuffle=True, generator=torch.Generator().manual_seed(seed))


def train_one_epoch(model, optimizer, epoch):
    model.train()
    running = 0.0
    for inputs, labels in make_loader(epoch):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(inputs), labels)
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(make_loader(epoch))


def evaluate(model):
    model.eval()
    with torch.no_grad():
        out = model(X)
        return F.cross_entropy(out, y).item(), (out.argmax(dim=1) == y).float().mean().item()


PATH = Path("checkpoint.pt")
run_dir = Path("runs") / "exp1"
run_dir.mkdir(parents=True, exist_ok=True)
print("checkpoint file:", PATH, "| suffix:", PATH.suffix, "| stem:", PATH.stem,
      "| run dir:", run_dir.as_posix(), "| parts:", run_dir.parts)
if os.path.exists('checkpoint.pt'):
    os.remove('checkpoint.pt')  # stale file from an earlier run
print("exists before save:", os.path.exists(PATH))

# ---- phase 1: train 3 epochs, then save ------------------------------------
model = Net()
optimizer = optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    loss = train_one_epoch(model, optimizer, epoch)
    print(f"[run 1] epoch {epoch} loss {loss:.4f}")

torch.save({
    'epoch': epoch,
    'model_state_dict': model.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
    'rng_state': torch.get_rng_state(),
}, 'checkpoint.pt')
print("exists after save:", os.path.exists(PATH), "| is_file:", PATH.is_file(),
      "| non-empty:", PATH.stat().st_size > 0)

# reference: keep training the same model for 3 more epochs without interruption
ref_losses = [train_one_epoch(model, optimizer, e) for e in range(3, 6)]
ref_eval = evaluate(model)

# ---- phase 2: fresh process-style restart from the checkpoint ---------------
torch.manual_seed(123)  # different init, to prove load_state_dict overwrites it
model = Net()
optimizer = optim.Adam(model.parameters(), lr=0.01)
print("fresh model differs:", not torch.equal(model.fc1.weight, torch.load(PATH)['model_state_dict']['fc1.weight']))

checkpoint = torch.load('checkpoint.pt')
print("checkpoint keys:", sorted(checkpoint.keys()))
torch.set_rng_state(checkpoint['rng_state'])  # dropout masks replay exactly
result = model.load_state_dict(checkpoint['model_state_dict'])
print("load_state_dict:", result)
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
start_epoch = checkpoint['epoch'] + 1
loss = checkpoint['loss']
print(f"resuming from epoch {start_epoch}, last loss {loss:.4f}")
state = optimizer.state_dict()
print("optimizer state entries:", len(state['state']), "| step:", int(state['state'][0]['step'].item()),
      "| lr:", state['param_groups'][0]['lr'])

model.train()
resumed_losses = []
for epoch in range(start_epoch, start_epoch + 3):
    loss = train_one_epoch(model, optimizer, epoch)
    resumed_losses.append(loss)
    print(f"[run 2] epoch {epoch} loss {loss:.4f}")

same = all(abs(a - b) < 1e-6 for a, b in zip(ref_losses, resumed_losses))
print("resumed run matches uninterrupted run:", same)
print(f"eval loss {evaluate(model)[0]:.4f} vs reference {ref_eval[0]:.4f}, acc {evaluate(model)[1]:.3f}")

# ---- state_dict-only save (inference) -------------------------------------
weights = run_dir / "model_weights.pth"
torch.save(model.state_dict(), weights)
infer = Net()
infer.load_state_dict(torch.load(weights, weights_only=True))
infer.eval()
with torch.no_grad():
    print("inference predictions:", infer(X[:8]).argmax(dim=1).tolist(), "| labels:", y[:8].tolist())

# strict=False reports mismatched keys instead of raising
partial = {k: v for k, v in model.state_dict().items() if k.startswith("fc1")}
missing, unexpected = Net().load_state_dict(partial, strict=False)
print("strict=False missing:", missing, "unexpected:", unexpected)
try:
    Net().load_state_dict(partial)
except RuntimeError as e:
    print("strict load error:", str(e).splitlines()[0])

best = PATH.with_name("best" + PATH.suffix)
best.write_bytes(PATH.read_bytes())
print("files:", sorted(p.as_posix() for p in [*Path(".").glob("*.pt"), *run_dir.iterdir()]))
print("glob *.pt:", sorted(p.name for p in Path(".").glob("*.pt")))
print("best ckpt epoch:", torch.load(best)['epoch'])

# ---- housekeeping ---------------------------------------------------------
for f in (PATH, best, weights):
    if os.path.exists(f):
        os.remove(f)
print("exists after remove:", os.path.exists('checkpoint.pt'), best.exists(), weights.exists())
run_dir.rmdir()
run_dir.parent.rmdir()
print("cleaned up:", not Path("runs").exists())
