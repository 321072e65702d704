# After: classifier evaluation with NumPy metrics (accuracy + confusion matrix) after a PyTorch forward pass
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
np.set_printoptions(precision=3)

k = 3
n = 30
# Synthetic data: three gaussian blobs
centers = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
labels_np = np.random.randint(0, k, size=n)
feats = centers[labels_np] + np.random.randn(n, 2)

inputs = torch.from_numpy(feats).float()
labels = torch.from_numpy(labels_np)

model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, k))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(60):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(inputs), labels)
    loss.backward()
    opt.step()
print(f"final loss: {loss.item():.3f}")

model.eval()
with torch.no_grad():
    outputs = model(inputs)
probs = torch.softmax(outputs, dim=1).numpy()
print("probs (first 4):")
print(np.round(probs[:4], 3))

predictions = outputs.argmax(1).numpy()
print("predictions:", predictions)
print("labels:     ", labels.numpy())
accuracy = (predictions == labels.numpy()).mean()
print("accuracy:", accuracy)
print(f"accuracy: {accuracy:.2%}")

confusion = np.zeros((k, k), dtype=int)
for t, p in zip(labels.numpy(), predictions):
    confusion[t, p] += 1
print("confusion matrix:")
print(confusion)
print(confusion.dtype, confusion.sum())

per_class = np.diag(confusion) / confusion.sum(axis=1)
precision = np.diag(confusion) / np.maximum(confusion.sum(axis=0), 1)
recall = per_class
f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
print("per-class recall:", per_class)
print("precision:", precision)
print("f1:", np.round(f1, 2))
print("macro f1:", np.round(f1.mean(), 4))

normalized = confusion / confusion.sum(axis=1, keepdims=True)
print(normalized)
print(np.round(normalized, 1))
print(np.round(2.5), np.round(3.5), np.round(-0.5), np.round(1.2345, 2))

# Top-2 accuracy using argsort
top2 = np.argsort(-probs, axis=1)[:, :2]
top2_acc = np.any(top2 == labels_np[:, None], axis=1).mean()
print("top-2 accuracy:", top2_acc)

# bincount of predictions vs labels
print("pred counts: ", np.bincount(predictions, minlength=k))
print("label counts:", np.bincount(labels_np, minlength=k))
print(np.array([1 / 3, 2 / 3, 1e-5]))
np.set_printoptions(precision=8)
print(np.array([1 / 3, 2 / 3]))
