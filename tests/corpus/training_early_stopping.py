# Idiom: the ubiquitous EarlyStopping helper class (patience counter, delta,
# best_score, early_stop flag, __call__) plus a `history = {"train_loss": [], ...}`
# dict of lists appended each epoch and dumped with json.dumps(history, indent=2).
import json
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, random_split

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)


class EarlyStopping:
    """Early stops the training if validation loss doesn't improve after a given patience."""

    def __init__(self, patience=3, verbose=False, delta=0.0):
        self.patience = patience
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.delta = delta
        self.best_state = None

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
        elif score < self.best_score + self.delta:
            self.counter += 1
            print(f'EarlyStopping counter: {self.counter} out of {self.patience}')
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
            self.counter = 0

    def save_checkpoint(self, val_loss, model):
        if self.verbose:
            print(f'Validation loss decreased ({self.val_loss_min:.6f} --> {val_loss:.6f}).  Saving model ...')
        self.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        self.val_loss_min = val_loss


class NoisyRegression(Dataset):
    """A small, noisy dataset so that the model overfits quickly."""

    def __init__(self, n=120):
        self.x = torch.linspace(-3, 3, n).unsqueeze(1)
        self.y = torch.sin(self.x) + 0.3 * torch.randn(n, 1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


class Overfitter(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


dataset = NoisyRegression()
train_set, val_set = random_split(dataset, [40, 80], generator=torch.Generator().manual_seed(42))
train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
val_loader = DataLoader(val_set, batch_size=40)

model = Overfitter()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
early_stopping = EarlyStopping(patience=3, verbose=True, delta=1e-3)

history = {"train_loss": [], "val_loss": []}
n_epochs = 60
for epoch in range(1, n_epochs + 1):
    model.train()
    train_losses = []
    for data, target in train_loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(data), target)
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())

    model.eval()
    valid_losses = []
    with torch.no_grad():
        for data, target in val_loader:
            valid_losses.append(F.mse_loss(model(data), target).item())

    train_loss = np.average(train_losses)
    valid_loss = np.average(valid_losses)
    history["train_loss"].append(round(float(train_loss), 4))
    history["val_loss"].append(round(float(valid_loss), 4))

    epoch_len = len(str(n_epochs))
    print(f'[{epoch:>{epoch_len}}/{n_epochs:>{epoch_len}}] '
          f'train_loss: {train_loss:.5f} valid_loss: {valid_loss:.5f}')

    early_stopping(valid_loss, model)
    if early_stopping.early_stop:
        print("Early stopping")
        break

model.load_state_dict(early_stopping.best_state)
model.eval()
with torch.no_grad():
    restored = np.mean([F.mse_loss(model(d), t).item() for d, t in val_loader])
print(f"stopped after {len(history['val_loss'])} epochs; best val loss {early_stopping.val_loss_min:.5f}")
print(f"restored model val loss {restored:.5f}")
best_epoch = int(np.argmin(history["val_loss"])) + 1
print("best epoch:", best_epoch)
history["best_epoch"] = best_epoch
history["lr"] = optimizer.param_groups[0]["lr"]
print(json.dumps(history, indent=2))
print("keys:", list(json.loads(json.dumps(history)).keys()))
