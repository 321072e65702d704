# torch.autograd.grad and torch.autograd.backward (one output or several, grad_outputs,
# allow_unused, materialize_grads, inputs=, non-leaf inputs, retain_graph), Tensor.backward's
# inputs=, set_grad_enabled as a call, a context manager and a decorator, retains_grad and
# detach_: each line is what one call returns or the error it raises.
import torch


def t(name, f):
    try:
        print(name, repr(f()))
    except Exception as e:
        print(name, type(e).__name__ + ":", str(e).split("\n")[0])


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0], requires_grad=True)
t("cubes", lambda: torch.autograd.grad((a ** 3).sum(), a))
t("implicit for a vector", lambda: torch.autograd.grad(a * 2, a))
t("unused input", lambda: torch.autograd.grad((a * 2).sum(), [a, b]))
t("allow_unused", lambda: torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True))
t("materialize_grads", lambda: torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True))
t("materialize but not allow_unused", lambda: torch.autograd.grad((a * 2).sum(), b, allow_unused=False, materialize_grads=True))
t("input without grad", lambda: torch.autograd.grad((a * 2).sum(), torch.ones(2)))
t("output without grad", lambda: torch.autograd.grad(torch.ones(2).sum(), a))
t("grad_outputs", lambda: torch.autograd.grad(a * 2, a, grad_outputs=torch.ones_like(a)))
t("two outputs", lambda: torch.autograd.grad([a.sum(), (a * a).sum()], a))
t("two outputs, one gradient given", lambda: torch.autograd.grad([a.sum(), (a * a).sum()], a, grad_outputs=[torch.tensor(2.0), None]))
t("fewer gradients", lambda: torch.autograd.grad([a.sum(), a * a], a, grad_outputs=[torch.tensor(2.0)]))
t("wrong gradient shape", lambda: torch.autograd.grad(a * 2, a, grad_outputs=torch.ones(2)))
t("gradient not a tensor", lambda: torch.autograd.grad(a.sum(), a, grad_outputs=[3]))
t("no inputs", lambda: torch.autograd.grad(a.sum(), []))
t("leaf as output", lambda: torch.autograd.grad(a, a, grad_outputs=torch.ones(3)))
t(".grad untouched", lambda: a.grad)
y = (a * a).sum()
torch.autograd.grad(y, a)
t("second pass", lambda: torch.autograd.grad(y, a))
y = (a * a).sum()
t("retain_graph", lambda: [torch.autograd.grad(y, a, retain_graph=True), torch.autograd.grad(y, a)])
m = a * 2
t("non-leaf input", lambda: torch.autograd.grad((m * m).sum(), m))
m = a * 2
t("both a non-leaf and its leaf", lambda: torch.autograd.grad((m * m).sum(), [m, a]))
m = a * 3
t("below a non-leaf input the graph is kept", lambda: (torch.autograd.grad((m * m).sum(), m), torch.autograd.grad(m.sum(), a)))
m = a * 2
m.retain_grad()
t("retained grads fill in autograd.grad", lambda: (torch.autograd.grad((m * m).sum(), a), m.grad))
t("backward", lambda: (torch.autograd.backward((a * 3).sum()), a.grad)[1])
a.grad = None
t("backward with grad_tensors", lambda: (torch.autograd.backward([a * 2], [torch.ones(3)]), a.grad)[1])
a.grad = None
t("backward of two", lambda: (torch.autograd.backward([(a * 2).sum(), (b * b).sum()]), a.grad, b.grad)[1:])
a.grad = None
b.grad = None
t("backward inputs=", lambda: ((a * b[0]).sum().backward(inputs=[a]), a.grad, b.grad)[1:])
a.grad = None
m = a * 3
t("backward into a non-leaf", lambda: (((m * m).sum()).backward(inputs=[m]), m.grad, a.grad)[1:])
t("backward inputs empty", lambda: (a * 2).sum().backward(inputs=[]))
t("backward inputs without grad", lambda: (a * 2).sum().backward(inputs=[torch.ones(2)]))
t("backward of one without grad", lambda: torch.autograd.backward([a.sum(), torch.ones(2).sum()]))
a.grad = None
t("set_grad_enabled", lambda: [torch.set_grad_enabled(False), (a * 2).requires_grad, torch.set_grad_enabled(True), (a * 2).requires_grad][1::2])
with torch.set_grad_enabled(False):
    print("inside", (a * 2).requires_grad, torch.is_grad_enabled())
print("after", torch.is_grad_enabled())
with torch.no_grad():
    with torch.set_grad_enabled(True):
        print("enabled inside no_grad", (a * 2).requires_grad)
    print("back in no_grad", torch.is_grad_enabled())


@torch.set_grad_enabled(False)
def doubled(x):
    return x * 2


print("decorated", doubled(a).requires_grad, torch.is_grad_enabled())
t("repr", lambda: torch.set_grad_enabled(False))
torch.set_grad_enabled(True)
t("not a bool", lambda: torch.set_grad_enabled(1))
t("retains_grad", lambda: (lambda y: (y.retain_grad(), y.retains_grad, a.retains_grad, (a * 2).retains_grad))(a * 2))
t("detach_", lambda: (lambda y: (y.detach_(), y.requires_grad, y.grad_fn, y.is_leaf)[1:])(a * 2))
t("detach_ of a leaf", lambda: (lambda y: (y.detach_(), y.requires_grad)[1])(torch.ones(2, requires_grad=True)))
t("detach_ of a detached tensor", lambda: a.detach().detach_().requires_grad)
t("detach_ of a view", lambda: a[:2].detach_())
t("detach_ of a view without grad", lambda: torch.ones(3)[:2].detach_())
