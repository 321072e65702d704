# After: PyTorch/NumPy interop idioms (dtype mapping, torch.tensor vs from_numpy, .numpy() on grad tensors)
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)

a64 = np.array([1.0, 2.0, 3.0])
a32 = np.array([1.0, 2.0, 3.0], dtype=np.float32)
ai = np.array([1, 2, 3])
ab = np.array([True, False, True])
print(a64.dtype, a32.dtype, ai.dtype, ab.dtype)

for arr in (a64, a32, ai, ab, ai.astype(np.int32), a64.astype(np.float16), np.array([1, 2], dtype=np.uint8)):
    print(arr.dtype, "->", torch.from_numpy(arr).dtype)

print(torch.tensor(a64))
print(torch.tensor(a32))
print(torch.tensor(ai))
print(torch.tensor(a64, dtype=torch.float32))
print(torch.from_numpy(a64).float())
print(torch.as_tensor(a32).dtype, torch.as_tensor(a32).data_ptr() == torch.from_numpy(a32).data_ptr())

# Default dtypes differ: numpy float64, torch float32
print(np.zeros(2).dtype, torch.zeros(2).dtype)
print(torch.tensor([1.5, 2.5]).numpy().dtype)
print(torch.arange(3).numpy().dtype)

# Tensor -> array
t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
n1 = np.asarray(t)
n2 = t.numpy()
n3 = np.array(t)
print(repr(n1))
print(n2.dtype, n3.shape)
t[0, 0] = 42.0
print(n1[0, 0], n2[0, 0], n3[0, 0])

# Mixing: numpy ufuncs on tensors
print(np.sum(t.numpy()), np.mean(t.numpy(), axis=0))

# Tensors that require grad cannot go straight to numpy
w = torch.randn(3, requires_grad=True)
try:
    w.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
print(w.detach().numpy().dtype, w.detach().numpy().shape)
y = w * 2
try:
    np.asarray(y)
except RuntimeError as e:
    print("RuntimeError:", e)
print(np.round(y.detach().cpu().numpy(), 4))

# Non-writeable / negative strides
rev = a64[::-1]
try:
    torch.from_numpy(rev)
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
print(torch.from_numpy(rev.copy()))
try:
    torch.tensor(rev)
except ValueError as e:
    print("ValueError from torch.tensor too:", str(e).split(",")[0])
print(torch.tensor(np.ascontiguousarray(rev)))

# tolist
m = np.arange(6).reshape(2, 3)
print(m.tolist(), type(m.tolist()[0][0]).__name__)
print(np.array([0.5, 1.5]).tolist())
print(a32.tolist(), type(a32.tolist()[0]).__name__)
print(torch.tensor(m).tolist())
print(type(np.float32(1.5).item()).__name__, np.int64(7).item())
print(torch.tensor(np.float64(2.5)), torch.tensor(np.float64(2.5)).dtype)
print(torch.tensor([np.float32(1.0), np.float32(2.0)]).dtype)
