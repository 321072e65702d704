# Tensor.register_hook on leaves and non-leaves: hooks see the gradient, may replace it, run in
# the order registered and before retain_grad keeps it, can be removed, run in autograd.grad
# too, and are refused on tensors that need no gradient; a hook's wrong return and its own
# exception surface as in PyTorch.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
handle = a.register_hook(lambda g: g * 10)
(a * 2).sum().backward()
print("leaf hook", a.grad, type(handle).__name__)
handle.remove()
handle.remove()
a.grad = None
(a * 2).sum().backward()
print("removed", a.grad)

a.grad = None
y = a * 3
seen = []
y.register_hook(lambda g: seen.append(g.clone()))
y.sum().backward()
print("seen", seen, a.grad)

a.grad = None
y = a * 3
y.register_hook(lambda g: g + 1)
y.register_hook(lambda g: g * 2)
(y * y).sum().backward()
print("in order", a.grad)

a.grad = None
y = a * 3
y.retain_grad()
y.register_hook(lambda g: g * 0)
y.sum().backward()
print("before retain_grad", y.grad, a.grad)

a.grad = None
m = a * 2
m.register_hook(lambda g: print("hook in autograd.grad", g))
print(torch.autograd.grad((m * m).sum(), a))
print(".grad untouched", a.grad)

b = torch.tensor([1.0, -1.0], requires_grad=True)
calls = []
b.register_hook(lambda g: calls.append(1))
(b * b).sum().backward()
(b * 3).sum().backward()
print("every pass", len(calls), b.grad)

x = torch.tensor([2.0, 3.0], requires_grad=True)
h = x * x
h.register_hook(lambda g: g.clamp(max=1.0))
(h * 5).sum().backward()
print("clipped", x.grad)

for name, hook in [("size", lambda g: torch.ones(2)), ("type", lambda g: 5)]:
    y = a * 3
    y.register_hook(hook)
    try:
        y.sum().backward()
    except Exception as e:
        print(name, type(e).__name__ + ":", e)


def boom(g):
    raise ValueError("boom")


y = a * 2
y.register_hook(boom)
try:
    y.sum().backward()
except ValueError as e:
    print("raised", e)
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
