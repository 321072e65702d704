# expected output written by hand from PyTorch's documented behaviour (CUDA events, memory counters, backend switches); the lab names its simulated GPUs honestly
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.cuda.get_device_name(0))
x = torch.randn(64, 64).pin_memory()
y = x.to(device, non_blocking=True)
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
start.record()
z = y @ y
end.record()
torch.cuda.synchronize()
print(start.elapsed_time(end) >= 0)
print(torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated() > 0)
torch.backends.cudnn.benchmark = True
print(torch.__version__)
print(torch.backends.cudnn.benchmark, torch.backends.cuda.matmul.allow_tf32, torch.backends.mps.is_available())
torch.backends.cuda.matmul.allow_tf32 = True
print(torch.backends.cuda.matmul.allow_tf32)
e = torch.cuda.Event()
try:
    start.elapsed_time(e)
except RuntimeError as err:
    print(err)
never = torch.cuda.Event(enable_timing=True)
try:
    start.elapsed_time(never)
except RuntimeError as err:
    print(err)
