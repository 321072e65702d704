# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# autocast("cuda") runs matmul in float16 and keeps reductions in float32; GradScaler scales the loss.
import torch

a = torch.ones(2, 2, device="cuda")
with torch.autocast("cuda"):
    b = a @ a
    s = b.sum()
    e = b.float().softmax(dim=1)
print(b.dtype, s.dtype, e.dtype)
scaler = torch.amp.GradScaler("cuda")
w = torch.ones(2, device="cuda", requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
loss = (w * 2).sum()
scaled = scaler.scale(loss)
print(scaled.item(), scaler.get_scale())
scaled.backward()
scaler.step(opt)
scaler.update()
print(w.grad, w)
