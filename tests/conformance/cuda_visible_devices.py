# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# CUDA_VISIBLE_DEVICES is read once, when CUDA initialises: set before, it hides a GPU.
import os
import torch

os.environ["CUDA_VISIBLE_DEVICES"] = "1"
print(torch.cuda.device_count())
x = torch.ones(1, device="cuda")
print(x.device)
os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"
print(torch.cuda.device_count())
try:
    torch.ones(1, device="cuda:1")
except RuntimeError as e:
    print(type(e).__name__)
