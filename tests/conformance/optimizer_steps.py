# SGD with momentum and Adam take PyTorch's exact steps; zero_grad sets grads to None.
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
for _ in range(3):
    opt.zero_grad()
    loss = ((w - 1) ** 2).sum()
    loss.backward()
    opt.step()
    print(round(loss.item(), 6), [round(v, 6) for v in w.tolist()])
print(w.grad is None)
opt.zero_grad()
print(w.grad)
v = torch.zeros(2, requires_grad=True)
adam = torch.optim.Adam([v], lr=0.5)
for _ in range(3):
    adam.zero_grad()
    (v - torch.tensor([1.0, -2.0])).pow(2).sum().backward()
    adam.step()
print([round(x, 5) for x in v.tolist()])
print(opt)
