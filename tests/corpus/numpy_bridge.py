# After: PyTorch "Tensors" tutorial (Learn the Basics), section "Bridge with NumPy"
import numpy as np
import torch

torch.manual_seed(0)
np.random.seed(0)

# Tensor to NumPy array
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")

# A change in the tensor reflects in the NumPy array.
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")

# NumPy array to Tensor
n = np.ones(5)
t = torch.from_numpy(n)

# Changes in the NumPy array reflect in the tensor.
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")

# In-place numpy ops also show through
n *= 3
print(f"t: {t}")
print(f"n: {n}")

# But a non in-place op creates a new array, so the tensor does not change
n = n + 1
print(f"t: {t}")
print(f"n: {n}")

# Same story for 2-D
data = [[1, 2], [3, 4]]
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
print(x_np)
print(x_np.dtype)
x_np[0, 0] = 100
print(np_array)

# torch.tensor copies, so it does not share memory
arr = np.arange(4.0)
copy = torch.tensor(arr)
arr[0] = -1.0
print(arr)
print(copy)

# A tensor made from a numpy array goes back to the same memory
t2 = torch.from_numpy(arr)
back = t2.numpy()
print(back is arr, np.shares_memory(back, arr))
print(repr(back))

# Zeroing the tensor in place shows through
t2.zero_()
print(arr)
