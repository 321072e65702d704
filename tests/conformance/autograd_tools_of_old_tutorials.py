# What older tutorials and debugging guides reach for: torch.autograd.Variable, anomaly detection
# naming the node that made a NaN, the Jacobian of a small function, a leaf found through its
# AccumulateGrad node, fork_rng, torch.cat growing a result from torch.tensor([]), out= on the
# products, and cholesky_solve with its gradient.
import torch
from torch.autograd import Variable
from torch.autograd.functional import jacobian

x = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
print(x, x.is_leaf, isinstance(torch.ones(1), Variable), type(x).__name__)
(x * x).sum().backward()
print(x.grad)

a = torch.tensor([0.0, 4.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    y = torch.sqrt(a)
    try:
        (y / y).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(True, check_nan=False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)

print(jacobian(lambda t: t ** 3, torch.tensor([1.0, 2.0])))
j = jacobian(lambda s, t: (s @ t, t.sum()), (torch.eye(2), torch.tensor([1.0, -1.0])))
print([tuple(p.shape) for pair in j for p in pair])
print(j[0][1], j[1][0])

w = torch.ones(2, 3, requires_grad=True)
leaf = (w * 2).grad_fn.next_functions[0][0].variable
print(leaf is w, (w * 2).grad_fn.next_functions[0][0].name())

torch.manual_seed(0)
with torch.random.fork_rng(devices=[]):
    inside = torch.rand(3)
print(torch.equal(inside, torch.rand(3)))

rows = torch.tensor([])
for step in range(3):
    rows = torch.cat([rows, torch.full((1, 2), float(step))])
print(rows, rows.shape)

out = torch.empty(2, 2)
print(torch.matmul(torch.ones(2, 3), torch.ones(3, 2), out=out) is out, out)
try:
    torch.mm(torch.ones(2, 3), torch.ones(3, 2), out=torch.empty(2, 2, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError:", e)

m = torch.tensor([[4.0, 1.0], [1.0, 3.0]])
b = torch.tensor([[1.0], [2.0]], requires_grad=True)
L = torch.linalg.cholesky(m)
sol = torch.cholesky_solve(b, L)
print(sol, sol.grad_fn.name())
print(torch.allclose(m @ sol, b))
sol.sum().backward()
print(b.grad)
