# int8 and int16 next to uint8 and the wider integers: promotion, casts as x86 gives them, the
# checked conversions of torch.tensor / full / fill_, an op's operands cast to the dtype it
# computes in, the bit shifts with their out-of-range rules, in-place operators that write into
# the tensor every name sees, explicit operator methods, and logspace, heaviside, asarray.
import numpy as np
import torch


def tr(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


# ---- the dtypes
for d in [torch.int8, torch.int16, torch.uint8]:
    print(d, d.is_signed, d.itemsize, torch.iinfo(d), torch.zeros(2, dtype=d).type())
c = torch.tensor([1, -2, 127], dtype=torch.int8)
s = torch.tensor([1, -2, 300], dtype=torch.int16)
u = torch.tensor([3, 200, 255], dtype=torch.uint8)
print(c, s, u)
print(c + u, (c + u).dtype, c + s, c * 2, c * 1.5, c / 2, c.sum(), c.max(), c.cumsum(0))
print(torch.promote_types(torch.int8, torch.uint8), torch.result_type(c, 1000))
print(c.float(), s.double(), u.char(), s.byte(), c.short(), c.long().char())
print(torch.CharTensor([1, -2]), torch.ShortTensor([3]), torch.cuda.CharTensor, isinstance(c, torch.CharTensor))
print(c.numpy(), torch.from_numpy(np.array([5, -6], dtype=np.int8)), np.array([1, 2], dtype=np.int16) + np.int8(3))
print(c.sort(), s.abs(), -torch.tensor([-128], dtype=torch.int8), c.argmax(), c.bincount() if False else c.clamp(0, 5))
tr(lambda: c.mean())
tr(lambda: torch.ones(0, dtype=torch.int8).median())

# ---- float to integer casts as x86 gives them
x = torch.tensor([300.5, -1.5, float("nan"), float("inf"), 3e9, 70000.7, -1e20], dtype=torch.float64)
for d in [torch.int8, torch.int16, torch.uint8, torch.int32, torch.int64]:
    print(d, x.to(d).tolist())

# ---- checked conversions
for f in [lambda: torch.tensor([1, -2, 300], dtype=torch.int8),
          lambda: torch.tensor([-200, 255], dtype=torch.uint8),
          lambda: torch.tensor([-256], dtype=torch.uint8),
          lambda: torch.tensor([127.5, -128.0], dtype=torch.int8),
          lambda: torch.tensor([128.0], dtype=torch.int8),
          lambda: torch.tensor([2 ** 40], dtype=torch.int32),
          lambda: torch.full((2,), 300, dtype=torch.int8),
          lambda: torch.full((2,), 2 ** 40, dtype=torch.int32),
          lambda: torch.full((1,), 255.5, dtype=torch.uint8),
          lambda: torch.zeros(2, dtype=torch.int16).fill_(-40000),
          lambda: torch.zeros(2, dtype=torch.int64).fill_(float("nan")),
          lambda: u.masked_fill(u > 100, 256),
          lambda: torch.full_like(c, 1e300)]:
    tr(f)

# ---- operands cast to the dtype an op computes in
print(torch.tensor([1, 3], dtype=torch.int8) << torch.tensor(257), u // torch.tensor(260))
print(torch.tensor([1], dtype=torch.int8) < 300, torch.tensor([100], dtype=torch.int8).eq(356))
print(torch.tensor([1], dtype=torch.int8).add(300), torch.tensor([1], dtype=torch.int8).add(1, alpha=3))
tr(lambda: torch.tensor([1], dtype=torch.int8).add(1, alpha=300))
tr(lambda: u // torch.tensor(256))

# ---- shifts
i = torch.tensor([3, -2, 7, 0])
print(i << 2, i >> 1, 2 << i.clamp(0, 5), 256 >> i.clamp(0, 8), i << -1, i >> 70, i << 64)
print(torch.tensor([-8, 100, -128], dtype=torch.int8) >> torch.tensor([1, 9, 3], dtype=torch.int8))
print(torch.tensor([100], dtype=torch.int8) << 1, u << 3, u >> 9, torch.tensor([True]) << 1)
print(torch.bitwise_left_shift(i, 3), torch.bitwise_left_shift(3, i.clamp(0, 5)), torch.bitwise_right_shift(i, 1))
print(i.clone().bitwise_left_shift_(1), u.clone().bitwise_right_shift_(1))
tr(lambda: torch.tensor([1.5]) << 1)
tr(lambda: torch.tensor([True]) << torch.tensor([True]))
tr(lambda: i << 1.5)

# ---- in-place operators write into the tensor every name sees
a = torch.tensor([12, 7]); b = a
a <<= 1; a >>= 2; a //= 2; a %= 5; a &= 3; a |= 4; a ^= 1; a **= 2
print(a, b, a is b)
tr(lambda: exec("z = torch.tensor([3]); z //= 1.5", {"torch": torch}))
m = torch.ones(2, 2); n = m; m @= m
print(m is n, m, n)
f = torch.ones(2, requires_grad=True) * 3; f //= 2
print(f.grad_fn.name() if hasattr(f.grad_fn, "name") else f.grad_fn)
g = torch.ones(2, requires_grad=True) * 3; g **= 2
print(type(g.grad_fn).__name__)

# ---- operator methods called by name
print(i.__add__(1), i.__radd__(1), i.__rsub__(10), i.__rlshift__(3), i.__rpow__(2), i.clamp(1, 9).__rmod__(7), i.__lt__(2), i.__neg__(), i.__invert__())
print(i.clone().__ilshift__(1), hasattr(i, "__imatmul__"), m.__matmul__(m), m.__rmatmul__(m))

# ---- logspace, heaviside, asarray
print(torch.logspace(0, 2, 3), torch.logspace(0, 3, 4, base=2), torch.logspace(-1, 1, 5, dtype=torch.float64))
print(torch.logspace(0.5, 2.5, 4, base=3.0), torch.logspace(0, 2, 1), torch.logspace(0, 2, 0), torch.logspace(0, 10, 11, dtype=torch.int32))
print(torch.logspace(1, 40, 4, dtype=torch.float16), torch.logspace(0, 1, 3, requires_grad=True))
tr(lambda: torch.logspace(0, 2, -1))
tr(lambda: torch.logspace(0, 1, 3, dtype=torch.bool))
print(torch.heaviside(torch.tensor([-1.5, 0, 2.0, float("nan")]), torch.tensor([0.5])), torch.heaviside(i, torch.tensor([7])))
print(torch.tensor([-1.0, 0]).heaviside(torch.tensor([0.5])), torch.heaviside(torch.tensor([-1.0, 0], requires_grad=True), torch.tensor([0.5])))
tr(lambda: torch.heaviside(torch.tensor([-1.0, 0]), torch.tensor([7])))
tr(lambda: torch.heaviside(torch.tensor([-1.0, 0]), 0.5))
tr(lambda: torch.heaviside(torch.tensor([-1.0, 0], requires_grad=True), torch.tensor([0.5])).sum().backward())
t = torch.arange(3.0)
print(torch.asarray([1.5, 2.5]), torch.asarray([1, 2]), torch.asarray(3), torch.asarray(t) is t, torch.asarray(t, copy=True) is t)
print(torch.asarray(t, dtype=torch.float64), torch.asarray([[1, 2.5]], dtype=torch.float16))
tr(lambda: torch.asarray(t, dtype=torch.float64, copy=False))
tr(lambda: torch.asarray([1, 2], copy=False))
tr(lambda: torch.asarray([1, 2], requires_grad=True))
arr = np.arange(3.0)
view = torch.asarray(arr)
arr[0] = 7
print(view)
r = torch.ones(2, requires_grad=True)
print(torch.asarray(r, requires_grad=False) is r, r.requires_grad)
w = torch.ones(2, requires_grad=True)
print(torch.asarray(w, dtype=torch.float64).grad_fn.name())
