# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# The caching allocator: 512-byte blocks, a 2 MiB segment kept after the tensor is freed.
import torch

print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
x = torch.zeros(1000, device="cuda")
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
y = torch.zeros(10, device="cuda")
print(torch.cuda.memory_allocated())
del x
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), torch.cuda.max_memory_allocated())
del y
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
print(torch.cuda.memory_allocated(1))
