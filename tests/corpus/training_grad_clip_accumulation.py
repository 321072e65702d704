# Idiom: gradient accumulation over micro-batches (loss / accumulation_steps,
# optimizer.step() every N micro-batches) with gradient clipping computed by hand
# -- total_norm = sum(p.grad.norm(2) ** 2) ** 0.5, clip_coef = max_norm / (total_norm + 1e-6),
# p.grad.mul_(clip_coef) -- cross-checked against nn.utils.clip_grad_norm_.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)


class MLP(nn.Module):
    def __init__(self, d_in=10, d_hidden=32, n_classes=3):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.drop = nn.Dropout(0.1)
        self.fc2 = nn.Linear(d_hidden, n_classes)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def compute_grad_norm(parameters, norm_type=2.0):
    total_norm = 0.0
    for p in parameters:
        if p.grad is not None:
            param_norm = p.grad.data.norm(norm_type)
            total_norm += param_norm.item() ** 2
    return total_norm ** 0.5


def clip_gradients(model, max_norm):
    """Manual version of torch.nn.utils.clip_grad_norm_; returns the pre-clip norm."""
    params = [p for p in model.parameters() if p.grad is not None]
    total_norm = torch.sqrt(sum(p.grad.norm(2) ** 2 for p in params))
    clip_coef = max_norm / (total_norm + 1e-6)
    if clip_coef < 1:
        for p in params:
            p.grad.detach().mul_(clip_coef)
    return total_norm


X = torch.randn(256, 10) * 3.0          # large inputs -> large gradients early on
y = torch.randint(0, 3, (256,))
y[X[:, 0] > 1.0] = 0
loader = DataLoader(TensorDataset(X, y), batch_size=8, shuffle=True)

model = MLP()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
accumulation_steps = 4
max_grad_norm = 1.0

print(f"micro-batch size {loader.batch_size}, accumulation_steps {accumulation_steps}, "
      f"effective batch {loader.batch_size * accumulation_steps}")

n_clipped = 0
for epoch in range(3):
    model.train()
    optimizer.zero_grad()
    running_loss = 0.0
    updates = 0
    norms = []
    for i, (inputs, labels) in enumerate(loader):
        outputs = model(inputs)
        loss = F.cross_entropy(outputs, labels)
        loss = loss / accumulation_steps          # normalize our loss (if averaged)
        loss.backward()                           # accumulate gradients
        running_loss += loss.item()
        if (i + 1) % accumulation_steps == 0:     # wait for several backward steps
            norm = clip_gradients(model, max_grad_norm)
            norms.append(norm.item())
            if norm.item() > max_grad_norm:
                n_clipped += 1
            after = compute_grad_norm(model.parameters())
            assert after <= max_grad_norm + 1e-4, after
            optimizer.step()                      # now we can do an optimizer step
            optimizer.zero_grad()                 # reset gradient tensors
            updates += 1
    avg = running_loss / updates
    print(f"epoch {epoch}: updates={updates} loss={avg:.4f} "
          f"grad_norm first={norms[0]:.3f} max={max(norms):.3f} min={min(norms):.3f}")

print("clipped steps:", n_clipped)

# Accumulated gradient over 4 micro-batches == gradient of the full batch
model.eval()  # no dropout so both passes see the same function
xb, yb = X[:32], y[:32]
model.zero_grad()
F.cross_entropy(model(xb), yb).backward()
full = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
for chunk_x, chunk_y in zip(xb.chunk(4), yb.chunk(4)):
    (F.cross_entropy(model(chunk_x), chunk_y) / 4).backward()
accum = [p.grad.clone() for p in model.parameters()]
print("accumulated == full-batch grad:",
      all(torch.allclose(a, b, atol=1e-6) for a, b in zip(full, accum)))

# Manual clip vs. the library function on identical gradients
manual_norm = clip_gradients(model, 0.01)
manual_grads = [p.grad.clone() for p in model.parameters()]
for p, g in zip(model.parameters(), accum):
    p.grad = g.clone()
lib_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.01)
print(f"manual norm {manual_norm.item():.5f} vs clip_grad_norm_ {lib_norm.item():.5f}")
print("clipped grads match:",
      all(torch.allclose(a, p.grad, atol=1e-7) for a, p in zip(manual_grads, model.parameters())))
print(f"norm after clipping: {compute_grad_norm(model.parameters()):.5f}")

# clip_grad_value_ is the other common variant
nn.utils.clip_grad_value_(model.parameters(), clip_value=1e-4)
print("max |grad| after clip_grad_value_:",
      f"{max(p.grad.abs().max().item() for p in model.parameters()):.6f}")
