# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# "cuda" means the current device; set_device changes it; .to("cuda:1") does not.
import torch

a = torch.zeros(1, device="cuda")
print(a.device, torch.cuda.current_device())
b = a.to("cuda:1")
print(b.device, torch.cuda.current_device())
torch.cuda.set_device(1)
c = torch.zeros(1, device="cuda")
print(c.device, torch.cuda.current_device())
print(torch.zeros(1).cuda().device, torch.zeros(1).cuda(0).device)
print(torch.device("cuda") == torch.device("cuda:1"))
