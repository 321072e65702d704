# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# torch.load puts tensors back where they were saved unless map_location says otherwise.
import torch

t = torch.arange(3.0, device="cuda:1")
torch.save({"t": t}, "gpu.pt")
print(torch.load("gpu.pt")["t"].device)
print(torch.load("gpu.pt", map_location="cpu")["t"].device)
print(torch.load("gpu.pt", map_location={"cuda:1": "cuda:0"})["t"].device)
print(torch.load("gpu.pt", map_location=torch.device("cuda:0"))["t"])
