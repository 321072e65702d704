# Gradients accumulate until zeroed; retain_grad on non-leaves; backward twice needs retain_graph.
import torch

w = torch.tensor([2.0, -1.0], requires_grad=True)
for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    print(step, w.grad)
w.grad.zero_()
h = w * 3
h.retain_grad()
out = h.sum()
out.backward(retain_graph=True)
print(w.grad, h.grad)
out.backward()
print(w.grad)
try:
    out.backward()
except RuntimeError as e:
    print(str(e).split(".")[0])
