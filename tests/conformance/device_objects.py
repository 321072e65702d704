# torch.device objects: equality, hashing into dicts, str and repr, and tensors' .device.
import torch

cpu = torch.device("cpu")
print(cpu, repr(cpu), cpu.type, cpu.index)
print(torch.device("cuda", 1), torch.device("cuda:1") == torch.device("cuda", 1))
print(torch.device("cuda") == torch.device("cuda:0"), torch.device("cpu") == "cpu")
x = torch.zeros(2)
print(x.device, x.device == cpu, x.device.type, x.is_cuda)
print(torch.zeros(1, device="cpu").device, torch.zeros(1, device=cpu).device)
for bad in ["cuda:-1", "cuda:0:1", "CPU", " cuda:0", "cuda: 0"]:
    try:
        torch.device(bad)
    except RuntimeError as e:
        print(e)
