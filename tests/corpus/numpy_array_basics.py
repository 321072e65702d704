# After: NumPy quickstart ("The Basics", "Basic Operations"), as used in PyTorch tutorials
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)

a = np.array([1, 2, 3])
b = np.array([1.0, 2.0, 3.0])
c = np.array([[1, 2, 3], [4, 5, 6]])
print(a, a.dtype)
print(b, b.dtype)
print(repr(a))
print(repr(b))
print(repr(c))
print(c)
print("shape:", c.shape, "ndim:", c.ndim, "size:", c.size, "dtype:", c.dtype)

r = np.arange(15).reshape(3, 5)
print(r)
print(r.shape, r.ndim, r.dtype.name, r.itemsize, r.size, type(r))
print(np.arange(10, 30, 5))
print(np.arange(0, 2, 0.3))
print(np.linspace(0, 2, 9))
print(np.zeros((3, 4)))
print(np.ones((2, 3), dtype=np.int16))
print(np.eye(3))
print(repr(np.linspace(0, 1, 5)))

# Basic arithmetic applies elementwise
a = np.array([20, 30, 40, 50])
b = np.arange(4)
c = a - b
print(c)
print(b ** 2)
print(10 * np.sin(a))
print(a < 35)

A = np.array([[1, 1], [0, 1]])
B = np.array([[2, 0], [3, 4]])
print(A * B)
print(A @ B)
print(A.dot(B))

# Broadcasting
m = np.arange(12).reshape(3, 4).astype(np.float64)
row = np.array([1.0, 0.0, -1.0, 2.0])
col = np.array([[10], [20], [30]])
print(m + row)
print(m * col)
print((m - m.mean(axis=0)) / m.std(axis=0))

# Reductions with axis
print(np.sum(m), np.sum(m, axis=0), np.sum(m, axis=1))
print(np.mean(m), np.mean(m, axis=0))
print(np.std(m), np.std(m, axis=1))
print(np.max(m), np.max(m, axis=1))
print(np.argmax(m), np.argmax(m, axis=0))
print(m.min(), m.cumsum(axis=1))

# Floats print with numpy's formatting
f = np.array([[0.1, 2.5, 3.0], [1e-3, 1.0 / 3.0, 100.0]])
print(f)
print(repr(f))
print(np.array([1.5, 2.25, 1e8]))
print(np.array([1e-10, 1.0]))
print(str(np.float64(0.1) + np.float64(0.2)))

# Same computation via torch for comparison
t = torch.from_numpy(m)
print(t.sum(dim=0))
print(t.mean(dim=1))
print(t.std(dim=1, unbiased=False))
print(np.allclose(t.std(dim=1, unbiased=False).numpy(), np.std(m, axis=1)))
