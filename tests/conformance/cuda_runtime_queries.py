# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs
# (torch/cuda/__init__.py, torch/cuda/memory.py, torch/csrc/cuda/Module.cpp, c10/cuda/CUDAFunctions.cpp).
# CUDA initialises lazily: before the first CUDA tensor (or a call that needs the driver) the memory
# figures read nothing. set_sync_debug_mode warns, or raises, at every synchronizing operation: a
# blocking copy either way, .item(), printing; torch.cuda.synchronize() itself is not one.
import warnings
import torch

print(torch.cuda.is_initialized(), torch.cuda.memory_allocated(), len(torch.cuda.memory_stats()))
print(torch.cuda.device_count(), torch.cuda.is_initialized())
props = torch.cuda.get_device_properties(0)
print(torch.cuda.is_initialized(), type(props).__name__)
print(torch.cuda.get_device_capability() == (props.major, props.minor))
print(torch.cuda.is_bf16_supported() == (props.major >= 8))
print(torch.cuda.get_device_name() == props.name == torch.cuda.get_device_name(0))
print(props.warp_size, props.total_memory == torch.cuda.mem_get_info()[1])
try:
    torch.cuda.get_device_properties(2)
except AssertionError as e:
    print("AssertionError:", e)

x = torch.zeros(256, device="cuda")
stats = torch.cuda.memory_stats()
print(len(stats), list(stats)[:3])
print(stats["allocated_bytes.all.current"], stats["allocation.all.current"], stats["active_bytes.all.current"])
print(stats["segment.all.current"], stats["num_device_alloc"], stats["max_split_size"])
nested = torch.cuda.memory_stats_as_nested_dict()
print(list(nested)[:7])
print(nested["allocated_bytes"]["small_pool"])
free, total = torch.cuda.mem_get_info()
print(total - free >= torch.cuda.memory_reserved())

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.cuda.set_sync_debug_mode("warn")
    print(torch.cuda.get_sync_debug_mode())
    y = x.sum().item()
    z = x.cpu()
    w = torch.ones(2).cuda()
    v = torch.ones(2).to("cuda", non_blocking=True)
    torch.cuda.synchronize()
print(len(caught))
for warning in caught:
    print(str(warning.message))

torch.cuda.set_sync_debug_mode(2)
try:
    print(x[:3])
except RuntimeError as e:
    print("RuntimeError:", e)
torch.cuda.set_sync_debug_mode("default")
print(x[:3])
try:
    torch.cuda.set_sync_debug_mode("loud")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.cuda.set_sync_debug_mode(3)
except RuntimeError as e:
    print("RuntimeError:", e)
