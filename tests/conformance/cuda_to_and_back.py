# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# .to("cuda") makes a copy on the current GPU; moving again to the same device returns the same tensor.
import torch

x = torch.ones(2)
y = x.to("cuda")
print(y.device, y.is_cuda, x.device, y is x)
print(y.to("cuda:0") is y, y.cuda() is y, y.to("cuda:1") is y)
z = y.to("cuda:1")
print(z.device, torch.cuda.current_device())
back = z.cpu()
print(back.device, back, torch.equal(back, x))
print(torch.cuda.device_count(), torch.cuda.is_available())
