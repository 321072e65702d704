# expected output written by hand: what PyTorch 2.15 prints on a machine with two CUDA GPUs.
# .to() is differentiable: ToCopyBackward0 carries gradients back to the CPU leaf.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
g = w.to("cuda")
print(g.is_leaf, g.requires_grad, g.grad_fn.name(), g.device)
loss = (g * g).sum()
loss.backward()
print(w.grad, w.grad.device, g.grad)
p = torch.tensor([1.0, 2.0], requires_grad=True).to("cuda")
print(p.is_leaf)
q = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
(q * 3).sum().backward()
print(q.is_leaf, q.grad)
