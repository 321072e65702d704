# After: NumPy indexing tutorial with the "Tensors" tutorial's "Operations on Tensors" shown side by side
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)

a = np.arange(12).reshape(3, 4)
t = torch.arange(12).reshape(3, 4)

def show(label, x, y):
    print(f"{label}:")
    print("  np:", repr(x).replace("\n", "\n      "))
    print("  pt:", repr(y).replace("\n", "\n      "))

show("a[1:3]", a[1:3], t[1:3])
show("a[:, 0]", a[:, 0], t[:, 0])
show("mask a > 5", a[a > 5], t[t > 5])
show("fancy rows [0, 2]", a[[0, 2]], t[[0, 2]])
show("fancy pairs", a[[0, 1, 2], [3, 2, 1]], t[[0, 1, 2], [3, 2, 1]])
show("where", np.where(a % 2 == 0, a, -1), torch.where(t % 2 == 0, t, -1))
print("np.where one-arg:", np.where(a > 8))
print("torch.nonzero:", torch.nonzero(t > 8))

x = np.array([3, 1, 2])
y = np.array([6, 5, 4])
tx, ty = torch.from_numpy(x), torch.from_numpy(y)
show("concatenate", np.concatenate([x, y]), torch.cat([tx, ty]))
show("stack axis 0", np.stack([x, y]), torch.stack([tx, ty]))
show("stack axis 1", np.stack([x, y], axis=1), torch.stack([tx, ty], dim=1))
show("argsort", np.argsort(x), torch.argsort(tx))
print("sort:", np.sort(y), torch.sort(ty).values)

v = np.array([2, 3, 2, 1, 3, 3])
vals, counts = np.unique(v, return_counts=True)
tvals, tcounts = torch.unique(torch.from_numpy(v), return_counts=True)
show("unique", vals, tvals)
print("counts:", counts, tcounts)

f = np.array([-1.5, -0.2, 0.0, 0.7, 2.3])
tf = torch.from_numpy(f)
show("clip", np.clip(f, -1, 1), torch.clamp(tf, -1, 1))
show("compare", f > 0, tf > 0)
print("allclose:", np.allclose(f, f + 1e-9), torch.allclose(tf, tf + 1e-9))
print("allclose:", np.allclose(f, f + 1e-3), torch.allclose(tf, tf + 1e-3))
print("any/all:", np.any(f > 2), np.all(f > -2), bool(torch.any(tf > 2)), bool(torch.all(tf > -2)))

# Assignment via masks and slices
a2 = a.copy()
a2[a2 > 8] = 0
t2 = t.clone()
t2[t2 > 8] = 0
show("masked assign", a2, t2)
a2[:, 1] = 99
t2[:, 1] = 99
show("column assign", a2, t2)
print("same:", np.array_equal(a2, t2.numpy()))
