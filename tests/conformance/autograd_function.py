# torch.autograd.Function as the tutorials write it: static forward and backward with ctx,
# save_for_backward/saved_tensors, needs_input_grad, other ctx attributes, non-tensor
# arguments, apply under no_grad, mark_non_differentiable, gradients checked against the
# inputs, and the errors PyTorch gives for a wrong backward.
import math

import torch


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)
P3 = LegendrePolynomial3.apply
for t in range(300):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 5e-6 * p.grad
            p.grad = None
print(f"y = {a.item():.4f} + {b.item():.4f} * P3({c.item():.4f} + {d.item():.4f} x)")
print("node", y_pred.grad_fn.next_functions[1][0].next_functions[1][0].name())


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, scale, note):
        ctx.save_for_backward(input)
        ctx.scale = scale
        ctx.note = note
        print("needs", ctx.needs_input_grad)
        return input.clamp(min=0) * scale

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        grad = grad_output.clone() * ctx.scale
        grad[input < 0] = 0
        return grad, None, None


w = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
out = MyReLU.apply(w, 3.0, "hi")
print(out, out.requires_grad, type(out.grad_fn).__name__ if False else out.grad_fn.name())
out.sum().backward()
print("grad", w.grad)
try:
    out.sum().backward()
except RuntimeError as e:
    print("twice:", str(e)[:60])
with torch.no_grad():
    print("no_grad", MyReLU.apply(w, 1.0, "x").grad_fn)
print("plain", MyReLU.apply(torch.tensor([1.0, -1.0]), 2.0, None).requires_grad)


class TwoInputs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, u, v):
        ctx.save_for_backward(u, v)
        return u * v

    @staticmethod
    def backward(ctx, g):
        u, v = ctx.saved_tensors
        return g * v, g * u


u = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([3.0, 4.0])
r = TwoInputs.apply(u, v)
r.backward(torch.ones(2), retain_graph=True)
print("two", u.grad, v.grad, len(r.grad_fn.next_functions))
r.backward(torch.ones(2))
print("retained", u.grad)


class Argmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        idx = t.argmax()
        ctx.mark_non_differentiable(idx)
        return idx

    @staticmethod
    def backward(ctx, g):
        return None


print("non-differentiable", Argmax.apply(u).requires_grad)


def bad(returned, label):
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t, k):
            return t * k

        @staticmethod
        def backward(ctx, g):
            return returned(g)

    try:
        Bad.apply(torch.ones(2, requires_grad=True), 2).sum().backward()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


bad(lambda g: g, "too few")
bad(lambda g: (g, None, None), "too many")
bad(lambda g: (g, g), "grad for a number")
bad(lambda g: (torch.ones(3), None), "shape")
bad(lambda g: (None, None), "none")


class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


m = torch.tensor([1.0, 2.0], requires_grad=True)
MulConstant.apply(m, 0.5).sum().backward()
print("setup_context", m.grad)
