# The sweep: every public name of torch, Tensor, torch.linalg and torch.cuda that a tutorial could
# plausibly use, called with ordinary arguments (and a few wrong ones), each outcome described as
# one line. Real PyTorch 2.15 runs this file to write expected.txt (generate.py); the lab runs the
# same file (cells/tests/sweep.rs) and the outcomes are compared line by line, on the CPU and, with
# DEVICE set to "cuda", on the lab's GPU backend. PENDING lists the cases the lab does not match
# yet, each with the reason; NAMES.txt says which names are in scope and which are not, and why.
import math

import torch

DEVICE = "cpu"

# The tensors every case may use, made afresh for each case (in-place ops change them). They are
# made on the CPU and moved, so that a GPU run sees the very same values.
FIXTURES = """
a = torch.tensor([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]]).to(DEVICE)
b = torch.tensor([[1.5, 0.25, -2.0], [0.5, 4.0, -3.0]]).to(DEVICE)
v = torch.tensor([3.0, -1.0, 0.5, 2.0, -2.5]).to(DEVICE)
w = torch.tensor([1.0, 2.0, -0.5, 0.25, 1.5]).to(DEVICE)
p = torch.tensor([0.25, 0.5, 0.75, 0.125]).to(DEVICE)
m = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]]).to(DEVICE)
n = torch.tensor([[2.0, -1.0], [0.5, 3.0], [1.0, 1.0]]).to(DEVICE)
d = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]], dtype=torch.float64).to(DEVICE)
x = torch.arange(24.0).reshape(2, 3, 4).to(DEVICE)
bm = torch.arange(12.0).reshape(2, 3, 2).to(DEVICE) / 4
i = torch.tensor([[3, -2, 7], [0, 5, -9]]).to(DEVICE)
j = torch.tensor([2, 0, 1, 2, 5, 1]).to(DEVICE)
u = torch.tensor([[3, 200, 7], [0, 5, 255]], dtype=torch.uint8).to(DEVICE)
i32 = torch.tensor([[3, -2, 7], [0, 5, -9]], dtype=torch.int32).to(DEVICE)
h = torch.tensor([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]], dtype=torch.float16).to(DEVICE)
f64 = torch.tensor([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]], dtype=torch.float64).to(DEVICE)
mask = torch.tensor([[True, False, True], [False, False, True]]).to(DEVICE)
idx = torch.tensor([2, 0]).to(DEVICE)
s = torch.tensor(2.5).to(DEVICE)
e = torch.tensor([]).to(DEVICE)
nanv = torch.tensor([1.0, float("nan"), -float("inf"), float("inf"), -2.0]).to(DEVICE)
dup = torch.tensor([3, 1, 3, 2, 1, 1, 5]).to(DEVICE)
srt = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0]).to(DEVICE)
"""


def T(data, **options):
    """A new tensor on the sweep's device, as torch.tensor(data) would make it on the CPU."""
    return torch.tensor(data, **options).to(DEVICE)


def Z(*shape):
    return torch.zeros(*shape).to(DEVICE)


def O(*shape):
    return torch.ones(*shape).to(DEVICE)


def F(shape, value):
    return torch.full(shape, value).to(DEVICE)


class Index:
    """`S[...]` is the index written inside the brackets (slices and all)."""

    def __getitem__(self, index):
        return index


S = Index()


def put(t, index, value):
    """`t[index] = value`, then `t`."""
    t[index] = value
    return t


def grad(f, *inputs):
    """The result of f on copies of inputs that require grad, then each input's gradient after
    backward() of the result's sum (of its first element, for a tuple)."""
    leaves = [t.detach().clone().requires_grad_() for t in inputs]
    out = f(*leaves)
    first = out[0] if isinstance(out, tuple) else out
    first.sum().backward()
    return (out, *[t.grad for t in leaves])


def node(t):
    """The name of a tensor's grad_fn, and of the nodes it points to."""
    fn = t.grad_fn
    if fn is None:
        return None
    return (type(fn).__name__, [type(f).__name__ if f is not None else None for f, _ in fn.next_functions])


def describe(value):
    if isinstance(value, torch.Tensor):
        return repr(value)
    if isinstance(value, torch.Size):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(describe(v) for v in value)
        kind = type(value).__name__
        return f"{kind}({inner})" if kind not in ("tuple", "list") else f"{kind}[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return repr(value)
    # The text itself, not its repr: a repr's quotes change with the quotes inside (a GPU
    # tensor's repr holds device='cuda:0'), which would set the two devices' lines apart.
    if isinstance(value, str):
        return f"str {value}"
    if type(value).__name__ in ("dtype", "device"):
        return repr(value)
    return f"{type(value).__name__} {value!r}"


# Each case: the name it exercises, and an expression over the fixtures and torch (T, Z, O and F
# make new tensors on the sweep's device). A case marked `~` runs on the CPU only: it asks about
# the machine, or indexes out of range (on a GPU a device-side assert, which, as in CUDA, leaves
# the device unusable for every case after it).
CASES = r"""
# ---- arithmetic and math
torch.add | torch.add(a, b)
torch.add | torch.add(a, 2, alpha=3)
torch.add | torch.add(i, 2.5)
Tensor.add | a.add(b, alpha=-0.5)
Tensor.add_ | a.add_(b)
Tensor.add_ | i.add_(0.5)
torch.sub | torch.sub(a, b, alpha=2)
Tensor.sub_ | a.sub_(1)
Tensor.__rsub__ | 1 - a
Tensor.__rsub__ | 2 - i
Tensor.__rtruediv__ | 1 / (i + 10)
Tensor.__rtruediv__ | grad(lambda t: 2 / t, a)
Tensor.__rfloordiv__ | 7 // a
Tensor.__rmod__ | 7.5 % a
Tensor.__rmod__ | grad(lambda t: 7.5 % t, a)
Tensor.div_ | a.div_(2, rounding_mode="floor")
Tensor.div_ | a.div_(2, rounding_mode="round")
Tensor.div_ | i.div_(2, rounding_mode="trunc")
Tensor.div_ | node((a.clone().requires_grad_() * 1).div_(b, rounding_mode="trunc"))
torch.mul | torch.mul(a, i)
torch.multiply | torch.multiply(a, 3)
Tensor.mul_ | a.mul_(b)
Tensor.__rmul__ | 2 * i
torch.div | torch.div(a, b)
torch.div | torch.div(i, 2)
torch.div | torch.div(i, 2, rounding_mode="floor")
torch.div | torch.div(a, b, rounding_mode="trunc")
torch.divide | torch.divide(i, i32)
torch.true_divide | torch.true_divide(i, 4)
Tensor.div_ | a.div_(2)
Tensor.div_ | i.div_(2)
Tensor.div_ | i.div_(2, rounding_mode="floor")
Tensor.div_ | a.div_(b, rounding_mode="trunc")
Tensor.__rtruediv__ | 1 / a
Tensor.__rtruediv__ | 6 / i
torch.floor_divide | torch.floor_divide(i, 4)
Tensor.floor_divide_ | i.floor_divide_(3)
Tensor.__floordiv__ | a // 0.5
Tensor.__rfloordiv__ | 7 // i
torch.remainder | torch.remainder(i, 4)
torch.remainder | torch.remainder(5, i)
Tensor.remainder_ | i.remainder_(4)
Tensor.__rmod__ | 7 % i
torch.fmod | torch.fmod(a, 1.5)
Tensor.fmod_ | a.fmod_(1.5)
torch.pow | torch.pow(a, 2)
torch.pow | torch.pow(2, a)
torch.pow | torch.pow(i, 2)
torch.pow | torch.pow(a, b)
torch.pow | torch.pow(i, -1)
Tensor.pow_ | a.pow_(3)
Tensor.__rpow__ | 2 ** a
Tensor.__rpow__ | 2 ** i
Tensor.__rpow__ | 0.5 ** i.abs()
torch.pow | grad(lambda t: t ** 3, a)
torch.pow | grad(lambda t, o: t.abs() ** o, a, b)
torch.float_power | torch.float_power(a, 2)
torch.float_power | torch.float_power(i, 2)
torch.float_power | torch.float_power(2, i)
Tensor.float_power_ | f64.float_power_(2)
Tensor.float_power_ | a.float_power_(2)
torch.square | torch.square(i)
torch.sqrt | torch.sqrt(a)
torch.rsqrt | torch.rsqrt(a.abs())
torch.exp | torch.exp(a)
torch.exp2 | torch.exp2(i)
torch.expm1 | torch.expm1(a)
torch.log | torch.log(a)
torch.log2 | torch.log2(a.abs())
torch.log10 | torch.log10(a.abs())
torch.log1p | torch.log1p(a)
torch.sin | grad(torch.sin, a)
torch.cos | torch.cos(a)
torch.tan | torch.tan(a)
torch.asin | torch.asin(p)
torch.acos | torch.acos(p)
torch.atan | torch.atan(a)
torch.atan2 | torch.atan2(a, b)
Tensor.atan2_ | a.atan2_(b)
torch.sinh | torch.sinh(a)
torch.cosh | torch.cosh(a)
torch.tanh | grad(torch.tanh, a)
torch.erf | torch.erf(a)
torch.erfinv | torch.erfinv(p)
torch.sigmoid | grad(torch.sigmoid, a)
torch.logit | torch.logit(p)
torch.logit | torch.logit(a, eps=0.25)
torch.logit | grad(torch.logit, p)
Tensor.logit_ | p.logit_()
torch.xlogy | torch.xlogy(a, b.abs())
torch.xlogy | torch.xlogy(Z(3), T([0.0, 1.0, float("nan")]))
torch.sign | torch.sign(a)
torch.sgn | torch.sgn(i)
torch.abs | torch.abs(i)
Tensor.abs_ | i.abs_()
torch.neg | torch.neg(a)
Tensor.__neg__ | -i
Tensor.__abs__ | abs(a)
torch.reciprocal | torch.reciprocal(i)
torch.floor | torch.floor(a)
torch.ceil | torch.ceil(a)
torch.round | torch.round(a)
torch.round | torch.round(a * 10, decimals=-1)
torch.round | torch.round(T([1.2345, -2.5678]), decimals=2)
torch.trunc | torch.trunc(a)
torch.frac | torch.frac(a)
torch.clamp | torch.clamp(a, min=0)
torch.clamp | torch.clamp(a, -1, 1)
torch.clamp | torch.clamp(a, max=b)
torch.clamp | torch.clamp(a, min=b, max=O(3))
torch.clamp | torch.clamp(i, 0, 4)
torch.clamp | torch.clamp(a)
torch.clamp | grad(lambda t, lo: torch.clamp(t, min=lo), a, b)
Tensor.clamp_ | a.clamp_(min=b)
Tensor.clamp_ | a.clamp_(0.0, 1.0)
torch.clip | torch.clip(a, -1, 1)
torch.clip | torch.clip(a, min=b)
Tensor.clip_ | a.clip_(max=0)
torch.clamp_min | torch.clamp_min(a, 0.5)
torch.clamp_max | torch.clamp_max(a, 0.5)
torch.lerp | torch.lerp(a, b, 0.25)
torch.lerp | torch.lerp(a, b, F((2, 3), 0.75))
torch.lerp | grad(lambda s, e: torch.lerp(s, e, 0.25), a, b)
Tensor.lerp_ | a.lerp_(b, 0.5)
torch.addcmul | torch.addcmul(a, a, b, value=0.5)
torch.addcmul | grad(lambda t, t1, t2: torch.addcmul(t, t1, t2, value=2), v, w, v)
Tensor.addcmul_ | a.addcmul_(b, b, value=-1)
torch.addcdiv | torch.addcdiv(a, a, b, value=2)
torch.addcdiv | torch.addcdiv(i, i, i)
Tensor.addcdiv_ | a.addcdiv_(b, b.abs() + 1)
torch.hypot | torch.hypot(a, b)
torch.nan_to_num | torch.nan_to_num(nanv)
torch.nan_to_num | torch.nan_to_num(nanv, nan=0.0, posinf=1.0, neginf=-1.0)
torch.nan_to_num | torch.nan_to_num(i)
Tensor.nan_to_num_ | nanv.nan_to_num_(nan=7.0)
torch.fmax | torch.fmax(nanv, v)
torch.fmin | torch.fmin(nanv, v)
torch.maximum | torch.maximum(a, b)
torch.maximum | torch.maximum(nanv, v)
torch.maximum | grad(torch.maximum, a, b)
torch.minimum | torch.minimum(i, i32)
torch.minimum | grad(torch.minimum, v, T([3.0, 0.0, 0.5, 1.0, 1.0]))
torch.maximum | torch.maximum(a, 2)
torch.copysign | torch.copysign(a, -1)
Tensor.__radd__ | 1.5 + i
Tensor.__and__ | mask & mask.logical_not()
Tensor.__or__ | i | 1
Tensor.__xor__ | u ^ 255
Tensor.__invert__ | ~mask
Tensor.__invert__ | ~i
Tensor.__lshift__ | i << 2
Tensor.__rshift__ | i >> 1
Tensor.__rlshift__ | 2 << i.clamp(0, 5)
Tensor.__rrshift__ | 256 >> u.clamp(0, 8)
Tensor.__lshift__ | u << 3
Tensor.__rshift__ | torch.tensor([-8, 100, -128], dtype=torch.int8) >> torch.tensor([1, 9, 3], dtype=torch.int8)
Tensor.__lshift__ | torch.tensor([1, 3], dtype=torch.int8) << torch.tensor(257)
Tensor.__lshift__ | i << -1
Tensor.__lshift__ | a << 1
Tensor.__lshift__ | mask << mask
Tensor.__ilshift__ | (lambda t: (t.__ilshift__(2), t)[1])(i.clone())
Tensor.__ifloordiv__ | (lambda t: (t.__ifloordiv__(2), t)[1])(i.clone())
torch.bitwise_left_shift | torch.bitwise_left_shift(i, i32.abs() % 8)
torch.bitwise_left_shift | torch.bitwise_left_shift(3, i.clamp(0, 5))
torch.bitwise_right_shift | torch.bitwise_right_shift(i, 2)
Tensor.bitwise_left_shift_ | i.clone().bitwise_left_shift_(1)
Tensor.bitwise_right_shift_ | u.clone().bitwise_right_shift_(1)
Tensor.__floordiv__ | u // torch.tensor(260)
Tensor.__lt__ | torch.tensor([1, 50], dtype=torch.int8) < 300
torch.bitwise_and | torch.bitwise_and(i, 6)
torch.bitwise_or | torch.bitwise_or(u, 8)
torch.bitwise_xor | torch.bitwise_xor(i, i32)
torch.bitwise_not | torch.bitwise_not(u)
torch.logical_and | torch.logical_and(a, i)
torch.logical_or | torch.logical_or(mask, a)
torch.logical_xor | torch.logical_xor(mask, mask.t().reshape(2, 3))
torch.logical_not | torch.logical_not(i)
torch.eq | torch.eq(a, b)
torch.ne | torch.ne(i, 0)
torch.lt | torch.lt(a, 1)
torch.le | torch.le(a, b)
torch.gt | torch.gt(i, i32)
torch.ge | torch.ge(a, 0.5)
torch.greater | torch.greater(a, b)
torch.less_equal | torch.less_equal(a, b)
torch.not_equal | torch.not_equal(a, 0.5)
torch.isclose | torch.isclose(a, a + 1e-9)
torch.isclose | torch.isclose(nanv, nanv, equal_nan=True)
torch.allclose | torch.allclose(a, a + 1e-7)
torch.equal | torch.equal(a, a.clone())
torch.isnan | torch.isnan(nanv)
torch.isinf | torch.isinf(nanv)
torch.isposinf | torch.isposinf(nanv)
torch.isneginf | torch.isneginf(nanv)
torch.isfinite | torch.isfinite(nanv)
torch.isreal | torch.isreal(a)
torch.signbit | torch.signbit(T([-0.0, 0.0, -1.0, 2.0]))
torch.heaviside | torch.heaviside(v, T([0.5]))
torch.heaviside | torch.heaviside(i, T([7]))
torch.heaviside | torch.heaviside(nanv, T(0.5))
torch.heaviside | torch.heaviside(v, T([7]))
torch.heaviside | torch.heaviside(v, 0.5)
Tensor.heaviside | grad(lambda t: t.heaviside(T([0.5])), v)
Tensor.heaviside_ | v.clone().heaviside_(T([2.0]))
torch.deg2rad | torch.deg2rad(T([180.0, 90.0]))
torch.rad2deg | torch.rad2deg(T([3.141592653589793]))

# ---- reductions
torch.sum | torch.sum(x)
torch.sum | torch.sum(x, 1)
torch.sum | torch.sum(x, (0, 2), keepdim=True)
torch.sum | torch.sum(i, dtype=torch.float32)
torch.sum | torch.sum(u)
torch.sum | torch.sum(mask)
torch.sum | torch.sum(x, dim=-1, dtype=torch.float64)
torch.sum | grad(lambda t: t.sum(1), a)
torch.mean | torch.mean(x, (1, 2))
torch.mean | torch.mean(i)
torch.mean | torch.mean(i, dtype=torch.float32)
torch.mean | torch.mean(x, dim=0, keepdim=True)
torch.prod | torch.prod(a)
torch.prod | torch.prod(a, 1)
torch.prod | torch.prod(i, 0, keepdim=True)
torch.prod | torch.prod(i, dtype=torch.float32)
torch.prod | grad(lambda t: t.prod(1), a)
torch.std | torch.std(x, 1)
torch.std | torch.std(x, dim=(0, 2), correction=0)
torch.std | torch.std(a, unbiased=False)
torch.var | torch.var(x, 2, keepdim=True)
torch.std_mean | torch.std_mean(x, 1)
torch.var_mean | torch.var_mean(a, dim=0, correction=0)
torch.var_mean | torch.var_mean(a)
torch.amax | torch.amax(x, (0, 1))
torch.amin | torch.amin(a, 1)
torch.amax | grad(lambda t: t.amax(1), T([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]]))
torch.max | torch.max(a)
torch.max | torch.max(a, 1)
torch.max | torch.max(a, dim=0, keepdim=True)
torch.max | torch.max(i, 1)
torch.max | torch.max(a, b)
torch.max | grad(lambda t: t.max(1)[0], a)
torch.min | torch.min(x, 2)
torch.min | torch.min(nanv)
torch.max | torch.max(e)
torch.argmax | torch.argmax(a)
torch.argmax | torch.argmax(a, 1)
torch.argmax | torch.argmax(x, dim=1, keepdim=True)
torch.argmin | torch.argmin(a)
torch.argmin | torch.argmin(i, 0)
torch.argmin | torch.argmin(x, dim=2, keepdim=True)
torch.median | torch.median(v)
torch.median | torch.median(a, 1)
torch.median | torch.median(i)
torch.median | grad(lambda t: t.median(), v)
torch.nanmedian | torch.nanmedian(nanv)
torch.mode | torch.mode(dup)
torch.mode | torch.mode(T([[1, 2, 2], [3, 3, 1]]), 1)
torch.logsumexp | torch.logsumexp(a, 1)
torch.logsumexp | torch.logsumexp(x, (0, 2), keepdim=True)
torch.logsumexp | grad(lambda t: torch.logsumexp(t, 0), a)
torch.norm | torch.norm(a)
torch.norm | torch.norm(a, dim=1)
torch.norm | torch.norm(a, p=1)
torch.norm | torch.norm(a, p="fro")
torch.norm | torch.norm(a, float("inf"), dim=0)
torch.norm | grad(lambda t: t.norm(), a)
Tensor.norm | a.norm(2, 1, keepdim=True)
torch.dist | torch.dist(a, b)
torch.dist | torch.dist(a, b, p=1)
torch.cumsum | torch.cumsum(a, 1)
torch.cumsum | torch.cumsum(i, 0)
torch.cumsum | torch.cumsum(mask, 1)
torch.cumsum | torch.cumsum(i, 1, dtype=torch.float32)
torch.cumsum | grad(lambda t: t.cumsum(1), a)
Tensor.cumsum_ | a.cumsum_(0)
torch.cumprod | torch.cumprod(a, 1)
torch.cumprod | grad(lambda t: t.cumprod(1), a)
torch.cummax | torch.cummax(v, 0)
torch.cummin | torch.cummin(i, 1)
torch.nansum | torch.nansum(nanv[:2])
torch.nanmean | torch.nanmean(T([1.0, float("nan"), 3.0]))
torch.count_nonzero | torch.count_nonzero(i)
torch.count_nonzero | torch.count_nonzero(mask, dim=1)
torch.all | torch.all(mask)
torch.all | torch.all(i, 1)
torch.all | torch.all(a > -2, dim=(0, 1))
torch.any | torch.any(mask, 0)
torch.any | torch.any(a > 3, dim=1, keepdim=True)
Tensor.sum | a.sum(axis=1, keepdims=True)
Tensor.sum | x.sum((0, 1))
Tensor.mean | a.mean(-1)
Tensor.max | a.max(dim=1).values
Tensor.max | a.max(1).indices

# ---- sorting and searching
torch.sort | torch.sort(v)
torch.sort | torch.sort(a, 1, descending=True)
torch.sort | torch.sort(dup, stable=True)
torch.sort | torch.sort(i, dim=0)
torch.sort | grad(lambda t: t.sort(1)[0], a)
torch.argsort | torch.argsort(v)
torch.argsort | torch.argsort(a, dim=0, descending=True)
torch.argsort | torch.argsort(dup, stable=True)
torch.topk | torch.topk(v, 2)
torch.topk | torch.topk(a, 2, dim=1, largest=False)
torch.topk | torch.topk(v, 6)
torch.topk | grad(lambda t: t.topk(2)[0], v)
torch.kthvalue | torch.kthvalue(v, 2)
torch.kthvalue | torch.kthvalue(a, 1, 1)
torch.unique | torch.unique(dup)
torch.unique | torch.unique(dup, return_inverse=True)
torch.unique | torch.unique(dup, return_counts=True)
torch.unique | torch.unique(dup, sorted=True, return_inverse=True, return_counts=True)
torch.unique | torch.unique(T([[1, 2], [1, 2], [0, 3]]), dim=0)
torch.unique | torch.unique(v > 0)
Tensor.unique | dup.unique()
torch.unique_consecutive | torch.unique_consecutive(T([1, 1, 2, 2, 3, 1, 1]))
torch.unique_consecutive | torch.unique_consecutive(T([1, 1, 2, 3, 3]), return_counts=True, return_inverse=True)
torch.searchsorted | torch.searchsorted(srt, T([3.0, 6.0, 9.0]))
torch.searchsorted | torch.searchsorted(srt, T([3.0, 6.0, 9.0]), right=True)
torch.searchsorted | torch.searchsorted(srt, 4.0)
torch.bucketize | torch.bucketize(v, srt)
torch.bucketize | torch.bucketize(v, srt, right=True)
torch.histc | torch.histc(v, bins=4, min=-3, max=3)
torch.histc | torch.histc(v, bins=3)
torch.bincount | torch.bincount(j)
torch.bincount | torch.bincount(j, minlength=8)
torch.bincount | torch.bincount(j, weights=T([0.5, 1.0, 1.5, 2.0, 2.5, 3.0]))
torch.bincount | torch.bincount(T([1, -1]))
torch.unique | torch.unique(nanv.repeat(2))
torch.unique | torch.unique(T([[1, 2], [1, 2], [0, 3]]), dim=1, return_inverse=True, return_counts=True)
torch.unique | torch.unique(i, return_inverse=True)
torch.unique | torch.unique(Z(0, 3), dim=1)
torch.unique | grad(lambda t: torch.unique(t), v)
Tensor.unique | a.unique(return_counts=True)
torch.unique_consecutive | torch.unique_consecutive(T([[1, 2], [1, 2], [0, 3]]), dim=0, return_counts=True)
Tensor.unique_consecutive | dup.unique_consecutive(return_inverse=True)
torch.searchsorted | torch.searchsorted(srt, T([[3.0, 6.0], [10.0, 0.0]]), out_int32=True)
torch.searchsorted | torch.searchsorted(T([[1, 3, 5], [2, 4, 6]]), T([[3, 4], [3, 4]]), side="right")
torch.searchsorted | torch.searchsorted(T([5.0, 1.0, 3.0]), T([2.0, 4.0]), sorter=T([1, 2, 0]))
torch.searchsorted | torch.searchsorted(srt, T([3, 6]))
torch.searchsorted | torch.searchsorted(srt, nanv)
torch.searchsorted | torch.searchsorted(T([[1, 3, 5], [2, 4, 6]]), T([3, 4]))
torch.searchsorted | torch.searchsorted(srt, v, side="middle")
torch.searchsorted | torch.searchsorted(srt, v, right=True, side="left")
torch.searchsorted | torch.searchsorted(srt, v, sorter=T([0, 1, 2, 3, 9]))
torch.searchsorted | torch.searchsorted(srt, v, out=torch.empty(5, dtype=torch.int32, device=DEVICE))
torch.bucketize | torch.bucketize(3, srt)
torch.bucketize | torch.bucketize(a, srt, out_int32=True)
torch.bucketize | torch.bucketize(v, m)
torch.histc | torch.histc(a, bins=5, min=0, max=2)
torch.histc | torch.histc(f64, bins=4)
torch.histc | torch.histc(nanv, bins=3, min=-2, max=2)
torch.histc | torch.histc(T([2.0, 2.0]), bins=4)
torch.histc | torch.histc(v, bins=0)
torch.histc | torch.histc(v, bins=4, min=3, max=1)
torch.histc | torch.histc(nanv, bins=4)
Tensor.histc | v.histc(5, -3, 3)
torch.bincount | torch.bincount(j, weights=T([1, 2, 3, 4, 5, 6]))
torch.bincount | torch.bincount(j, weights=T([0.5, 1.0, 1.5, 2.0, 2.5, 3.0], dtype=torch.float64))
torch.bincount | torch.bincount(T([], dtype=torch.long), minlength=3)
torch.bincount | torch.bincount(v)
torch.bincount | torch.bincount(i)
torch.bincount | torch.bincount(j, minlength=-1)
torch.bincount | torch.bincount(j, weights=v)
Tensor.bincount | j.bincount(minlength=7)
torch.msort | torch.msort(a)

# ---- shape and joining
torch.cat | torch.cat([a, b])
torch.cat | torch.cat((a, b), dim=1)
torch.cat | torch.cat([a, i])
torch.cat | torch.cat([a, e])
torch.concat | torch.concat([a, b], 1)
torch.concatenate | torch.concatenate([a, b], axis=0)
torch.hstack | torch.hstack([a, b])
torch.hstack | torch.hstack([v, w])
torch.vstack | torch.vstack([v, w])
torch.vstack | torch.vstack([a, b])
torch.dstack | torch.dstack([a, b])
torch.column_stack | torch.column_stack([v, w])
torch.row_stack | torch.row_stack([v, w])
torch.stack | torch.stack([a, b], dim=2)
torch.chunk | torch.chunk(v, 2)
torch.chunk | torch.chunk(x, 3, dim=2)
Tensor.chunk | a.chunk(3, 1)
torch.split | torch.split(v, 2)
torch.split | torch.split(x, [1, 3], dim=2)
Tensor.split | a.split([2, 1], 1)
torch.tensor_split | torch.tensor_split(v, 3)
torch.tensor_split | torch.tensor_split(x, [1, 3], dim=2)
torch.unbind | torch.unbind(a)
torch.unbind | torch.unbind(a, dim=1)
torch.unbind | grad(lambda t: t.unbind(1)[2], a)
torch.movedim | torch.movedim(x, 0, -1)
torch.movedim | torch.movedim(x, (0, 1), (2, 0))
torch.moveaxis | torch.moveaxis(x, 1, 0)
torch.swapaxes | torch.swapaxes(x, 0, 2)
torch.swapdims | torch.swapdims(x, 1, 2)
torch.narrow | torch.narrow(x, 2, 1, 2)
torch.narrow | torch.narrow(v, 0, -2, 2)
Tensor.narrow | a.narrow(1, 0, 2)
torch.narrow | torch.narrow(v, 0, 4, 2)
torch.flip | torch.flip(x, [0, 2])
torch.flip | grad(lambda t: t.flip(1), a)
torch.fliplr | torch.fliplr(a)
torch.flipud | torch.flipud(a)
torch.roll | torch.roll(v, 2)
torch.roll | torch.roll(a, 1, 1)
torch.roll | torch.roll(x, (1, -1), (0, 2))
torch.roll | torch.roll(a, -1)
torch.rot90 | torch.rot90(a)
torch.rot90 | torch.rot90(a, 2)
torch.rot90 | torch.rot90(x, -1, [1, 2])
Tensor.repeat | a.repeat(2, 1)
Tensor.repeat | v.repeat(2, 2)
Tensor.repeat | grad(lambda t: t.repeat(2, 2), a)
torch.repeat_interleave | torch.repeat_interleave(v, 2)
torch.repeat_interleave | torch.repeat_interleave(a, T([1, 2]), dim=0)
torch.repeat_interleave | torch.repeat_interleave(T([2, 1, 3]))
torch.repeat_interleave | torch.repeat_interleave(a, 2, dim=1)
torch.tile | torch.tile(a, (2,))
torch.tile | torch.tile(v, (2, 2))
Tensor.expand_as | v[:3].expand_as(a)
Tensor.view_as | x.view_as(Z(6, 4))
Tensor.reshape_as | a.reshape_as(Z(3, 2))
torch.broadcast_to | torch.broadcast_to(v, (2, 5))
torch.broadcast_tensors | torch.broadcast_tensors(a, v[:3])
torch.broadcast_shapes | torch.broadcast_shapes((2, 1), (3,))
torch.meshgrid | torch.meshgrid(v[:2], w[:3], indexing="ij")
torch.meshgrid | torch.meshgrid(v[:2], w[:3], indexing="xy")
torch.unflatten | torch.unflatten(x, 2, (2, 2))
Tensor.unflatten | v.unflatten(0, (5, 1))
Tensor.unfold | v.unfold(0, 2, 1)
Tensor.unfold | x.unfold(2, 2, 2)
torch.diag | torch.diag(v)
torch.diag | torch.diag(m)
torch.diag | torch.diag(v, 1)
torch.diag | torch.diag(m, -1)
torch.diagonal | torch.diagonal(m)
torch.diagonal | torch.diagonal(x, 0, 1, 2)
torch.diagonal | torch.diagonal(m, offset=1)
torch.diag_embed | torch.diag_embed(a)
torch.triu | torch.triu(m)
torch.triu | torch.triu(m, 1)
torch.tril | torch.tril(m)
torch.tril | torch.tril(x, -1)
Tensor.triu_ | m.triu_()
Tensor.tril_ | m.tril_(-1)
torch.trace | torch.trace(m)
torch.trace | torch.trace(i[:, :2])
Tensor.t_ | a.t_()
Tensor.transpose_ | x.transpose_(0, 2)
Tensor.squeeze_ | x[:1].squeeze_()
Tensor.unsqueeze_ | a.unsqueeze_(1)
Tensor.view | a.view(torch.int32)
Tensor.view | a.view(torch.uint8)
Tensor.view | a.view(3, -1)
Tensor.view | x.transpose(0, 1).view(-1)
Tensor.flatten | x.flatten(1)
Tensor.flatten | x.flatten(0, 1)
torch.ravel | torch.ravel(x)
torch.atleast_1d | torch.atleast_1d(s)
torch.atleast_2d | torch.atleast_2d(v)
torch.atleast_3d | torch.atleast_3d(a)
Tensor.squeeze | Z(1, 3, 1).squeeze((0, 2))
Tensor.T | x.T
Tensor.mT | x.mT
Tensor.H | m.H
Tensor.narrow | v.narrow(0, -7, 1)
Tensor.narrow | v.narrow(0, 1, -1)
Tensor.chunk | v.chunk(0)
Tensor.split | v.split(0)
Tensor.split | a.split([2, 2], 1)
Tensor.split | a.split([-1, 4], 1)
Tensor.split | s.split(1)
Tensor.tensor_split | v.tensor_split(0)
Tensor.movedim | x.movedim((0, 1), (2,))
Tensor.movedim | x.movedim((0, 0), (1, 2))
Tensor.movedim | x.movedim(0, 5)
Tensor.flip | v.flip((0, 0))
Tensor.roll | a.roll((1, 2), (0,))
Tensor.rot90 | v.rot90()
Tensor.rot90 | a.rot90(1, [0, 0])
Tensor.rot90 | a.rot90(1, [0])
Tensor.repeat | a.repeat(2)
Tensor.repeat | a.repeat(-1, 2)
Tensor.unfold | v.unfold(0, 6, 1)
Tensor.unfold | v.unfold(0, 2, 0)
torch.diag | torch.diag(x)
torch.diagonal | torch.diagonal(a, 0, 1, 1)
torch.trace | torch.trace(x)
torch.trace | torch.trace(mask[:, :2])
torch.triu | torch.triu(v)
Tensor.unflatten | x.unflatten(2, (2, 3))
torch.unbind | torch.unbind(s)
torch.meshgrid | torch.meshgrid(a, v, indexing="ij")
torch.hstack | torch.hstack([])
torch.vstack | torch.vstack([a, v])
Tensor.tile | a.tile((-1,))
Tensor.repeat_interleave | v.repeat_interleave(-1)
Tensor.repeat_interleave | v.repeat_interleave(T([1, 2]))
Tensor.H | x.H
Tensor.mT | v.mT
Tensor.unfold | grad(lambda t: t.unfold(0, 3, 1), v)
torch.diag_embed | grad(lambda t: torch.diag_embed(t, 1), a)
torch.diagonal | grad(lambda t: t.diagonal(), m)
torch.tril | grad(lambda t: t.tril(), m)
torch.trace | grad(torch.trace, m)
torch.roll | grad(lambda t: t.roll(1, 0), v)
torch.rot90 | grad(lambda t: t.rot90(), a)
torch.movedim | grad(lambda t: t.movedim(0, 1), a)
torch.tile | grad(lambda t: t.tile((2,)), v)
torch.repeat_interleave | grad(lambda t: t.repeat_interleave(2), v)
torch.split | grad(lambda t: t.split([1, 4])[1], v)
torch.narrow | grad(lambda t: t.narrow(0, 1, 2), v)
torch.hstack | grad(lambda t, o: torch.hstack([t, o]), v, w)

# ---- indexing
Tensor.__getitem__ | a[[0, 1, 1]]
Tensor.__getitem__ | a[:, [0, 0, 2]]
Tensor.__getitem__ | x[:, [0, 2], 1:3]
Tensor.__getitem__ | x[[0, 1], [1, 2]]
Tensor.__getitem__ | x[[0, 1], :, [1, 2]]
Tensor.__getitem__ | x[:, idx, None]
Tensor.__getitem__ | x[..., idx]
Tensor.__getitem__ | a[mask]
Tensor.__getitem__ | a[a > 0]
Tensor.__getitem__ | a[:, T([True, False, True])]
Tensor.__getitem__ | x[T([True, False]), 1:]
Tensor.__getitem__ | a[None, 1, ::2]
Tensor.__getitem__ | v[T([[0, 1], [4, 3]])]
Tensor.__getitem__ | a[1, [2, 0]]
Tensor.__getitem__ | a[[1, 0], [2, 0]]
~Tensor.__getitem__ | a[idx.unsqueeze(1), idx]
~Tensor.__getitem__ | a[[0, 3]]
~Tensor.__getitem__ | a[:, [3]]
Tensor.__getitem__ | a[[-1, -2]]
Tensor.__getitem__ | grad(lambda t: t[:, [0, 0, 2]], a)
Tensor.__getitem__ | grad(lambda t: t[[0, 1], [1, 2]], a)
Tensor.__getitem__ | a[1.5]
Tensor.__setitem__ | put(a, a > 10, 1.0)
Tensor.__setitem__ | put(a, S[:, [0, 2]], T([[9.0], [8.0]]))
Tensor.__setitem__ | put(a, a > 2, T([1.0, 2.0]))
Tensor.__setitem__ | put(a, S[[0, 1]], T([1.0, 2.0]))
Tensor.__setitem__ | put(a, S[1], T([1.0, 2.0]))
Tensor.__setitem__ | put(i, mask, 1.5)
Tensor.__setitem__ | put(a, S[None, 0], T([4.0, 5.0, 6.0]))
Tensor.__setitem__ | grad(lambda t, val: put(t * 1, S[:, [0, 2]], val), a, T([[9.0], [8.0]]))
Tensor.__setitem__ | grad(lambda t: put(t * 2, t > 1, 0.0), a)
Tensor.__getitem__ | x[0, [1, 2], None]
Tensor.__getitem__ | x[[0, 1], None, [1, 2]]
Tensor.__getitem__ | a[T(1)]
Tensor.__getitem__ | a[True]
Tensor.__getitem__ | a[False]
Tensor.__getitem__ | a[[True, False]]
Tensor.__getitem__ | a[..., None, [0, 2]]
Tensor.__getitem__ | a[[0, 1], [0, 1], [0]]
Tensor.__getitem__ | x[:, [0, 2], [1, 2, 3]]
Tensor.__getitem__ | a[T([True, False, True])]
Tensor.__getitem__ | a[T([1.0])]
Tensor.__getitem__ | a[5]
Tensor.__getitem__ | x[1:, [2]]
~Tensor.__getitem__ | x[idx, 1:, idx]
Tensor.__getitem__ | grad(lambda t: t[t > 0], a)
Tensor.__getitem__ | grad(lambda t: t[..., [0, 0]], x)
~Tensor.__getitem__ | x[:, [0, 2], [5]]
Tensor.__setitem__ | put(a, S[:, [0, 2]], 7.0)
Tensor.__setitem__ | put(a, S[[0, 1], [1, 2]], T([8.0, 9.0]))
Tensor.__setitem__ | put(a, mask, 0.0)
Tensor.__setitem__ | put(a, a < 0, T([10.0, 20.0]))
Tensor.__setitem__ | put(x, S[:, idx, 0], -1.0)
Tensor.__setitem__ | put(a, S[..., 1], b[:, 0])
Tensor.__setitem__ | put(v, S[1:3], T([7.0, 8.0]))
Tensor.__setitem__ | put(i, S[0, :], 2.7)
Tensor.__setitem__ | put(v, T([0, 0, 1]), T([1.0, 2.0, 3.0]))[:2]
Tensor.index_put_ | v.index_put_((T([0, 0, 1]),), T([1.0, 2.0, 3.0]), accumulate=True)
torch.index_put | torch.index_put(a, (T([1]), T([2])), T(5.0))
Tensor.index_put | grad(lambda t, val: t.index_put((T([0, 1]),), val), a, O(2, 3))
torch.scatter | torch.scatter(Z(2, 4), 1, T([[0, 1], [3, 2]]), a[:, :2])
torch.scatter | torch.scatter(Z(2, 4), 1, T([[0, 1], [3, 2]]), 1.5)
torch.scatter | torch.scatter(Z(2, 4), 1, T([[0, 0], [3, 3]]), a[:, :2], reduce="add")
Tensor.scatter_ | Z(3, 5).scatter_(0, T([[0, 1, 2, 0, 0]]), 1.0)
Tensor.scatter_ | Z(2, 10).scatter_(1, T([[3], [7]]), 1)
Tensor.scatter_ | Z(2, 4).scatter_(1, T([[0, 0], [1, 1]]), a[:, :2], reduce="multiply")
Tensor.scatter_add_ | Z(5).scatter_add_(0, j[:5] % 5, v)
torch.scatter_add | torch.scatter_add(Z(2, 3), 1, T([[0, 0, 2], [1, 1, 1]]), a)
torch.scatter_add | grad(lambda t, src: torch.scatter_add(t, 1, T([[0, 0, 2], [1, 1, 1]]), src), b, a)
torch.scatter_reduce | torch.scatter_reduce(Z(3), 0, T([0, 1, 0, 2, 2]), v, reduce="amax")
torch.scatter_reduce | torch.scatter_reduce(O(3), 0, T([0, 1, 0, 2, 2]), v, reduce="sum", include_self=False)
torch.scatter_reduce | torch.scatter_reduce(Z(3), 0, T([0, 1, 0, 2, 2]), v, reduce="mean")
torch.scatter_reduce | torch.scatter_reduce(Z(3), 0, T([0, 1, 0, 2, 2]), v, reduce="prod", include_self=False)
~torch.scatter | torch.scatter(Z(2, 4), 1, T([[0, 5]]), 1.0)
torch.index_add | torch.index_add(Z(3, 3), 0, T([0, 2, 0]), m)
Tensor.index_add_ | O(3, 3).index_add_(1, T([1, 1]), n, alpha=2)
Tensor.index_fill_ | a.index_fill_(1, idx, -1.0)
torch.index_fill | torch.index_fill(a, 0, T([1]), 9)
Tensor.index_copy_ | Z(3, 3).index_copy_(0, T([2, 0]), m[:2])
torch.index_copy | torch.index_copy(Z(3, 2), 0, T([1, 0, 2]), n)
torch.index_select | torch.index_select(x, 2, idx)
torch.index_select | grad(lambda t: t.index_select(1, T([0, 0, 2])), a)
torch.gather | torch.gather(a, 1, T([[0, 0], [2, 1]]))
torch.masked_select | torch.masked_select(a, mask)
torch.masked_select | torch.masked_select(a, T([True, False, True]))
torch.masked_select | grad(lambda t: t.masked_select(mask), a)
Tensor.masked_fill_ | a.masked_fill_(mask, 0.0)
Tensor.masked_fill_ | a.masked_fill_(T([False, True, False]), float("-inf"))
torch.masked_fill | torch.masked_fill(i, mask, T(-1))
Tensor.masked_scatter_ | a.masked_scatter_(mask, T([10.0, 20.0, 30.0, 40.0]))
torch.masked_scatter | torch.masked_scatter(a, mask, b)
torch.take | torch.take(a, T([0, 5, 2]))
torch.take | torch.take(a, T([[0, -1]]))
torch.take_along_dim | torch.take_along_dim(a, T([[0, 2], [1, 0]]), dim=1)
torch.take_along_dim | torch.take_along_dim(a, torch.argsort(a, dim=1), dim=1)
torch.take_along_dim | torch.take_along_dim(a, T([5, 0]))
torch.nonzero | torch.nonzero(i)
torch.nonzero | torch.nonzero(mask, as_tuple=True)
torch.nonzero | torch.nonzero(v > 0)
Tensor.nonzero | a.nonzero()
torch.argwhere | torch.argwhere(mask)
torch.where | torch.where(mask)
torch.where | torch.where(v > 0)
torch.where | torch.where(mask, a, 0.0)
torch.where | torch.where(mask, 1, 0)
torch.where | torch.where(a > 0, a, b)
torch.select | torch.select(x, 1, -1)
~torch.index_select | torch.index_select(a, 1, T([3]))
torch.scatter | a.scatter(1, T([[0, 1]]), a, reduce="max")
torch.scatter_reduce | a.scatter_reduce(0, T([[0, 1, 0]]), a, reduce="max2")
torch.scatter | a.scatter(1, T([[0.0, 1]]), a)
torch.scatter | a.scatter(1, T([0, 1]), a)
torch.scatter | a.scatter(1, T([[0, 1, 2, 0]]), a)
torch.scatter | a.scatter(1, T([[0, 1]]), f64)
torch.scatter | a.scatter(1, T([[0, 1]], dtype=torch.int32), a)
torch.scatter | a.scatter(1, T([[0, 1]]), 1.5, reduce="add")
torch.scatter | grad(lambda t, src: t.scatter(1, T([[0, 1], [2, 2]]), src), a, b)
torch.scatter_reduce | grad(lambda t, src: t.scatter_reduce(0, T([[0, 1, 0], [0, 0, 1]]), src, "mean", include_self=False), a, b)
torch.scatter_reduce | grad(lambda t, src: t.scatter_reduce(1, T([[0, 0, 2], [1, 1, 1]]), src, "amax"), a, b)
torch.scatter_reduce | torch.scatter_reduce(Z(3).long(), 0, T([0, 1, 0]), T([1, 2, 4]), "mean")
torch.index_add | a.index_add(0, T([0]), f64[:1])
torch.index_add | a.index_add(0, T([[0]]), a)
torch.index_add | grad(lambda t, src: t.index_add(0, T([1, 1]), src, alpha=2), a, b)
torch.index_copy | a.index_copy(0, T([0]), Z(1, 2))
torch.index_copy | a.index_copy(0, T([0, 1]), Z(1, 3))
torch.index_fill | a.index_fill(0, T([[0]]), 1)
torch.index_fill | grad(lambda t: t.index_fill(1, T([0, -1]), 5.0), a)
torch.index_copy | grad(lambda t, src: t.index_copy(1, T([2, 0]), src), a, b[:, :2])
torch.masked_select | a.masked_select(T([1, 0, 1]))
torch.masked_scatter | a.masked_scatter(T([True, False, True]), Z(2))
torch.masked_scatter | grad(lambda t, src: t.masked_scatter(mask, src), a, b)
~torch.take | torch.take(a, T([6]))
~torch.take | torch.take(a, T([-7]))
torch.take | grad(lambda t: torch.take(t, T([0, 0, 5])), a)
torch.take_along_dim | torch.take_along_dim(a, T([0]), 1)
torch.take_along_dim | torch.take_along_dim(a, T([[0.0]]), 1)
torch.index_put | a.index_put_((T([0]),), T([1, 2, 3]))
torch.nonzero | torch.nonzero(s)
torch.nonzero | torch.nonzero(e)
Tensor.masked_fill_ | grad(lambda t: (t * 1).masked_fill_(mask, 2.0), a)

# ---- linear algebra
torch.mm | torch.mm(a, n)
torch.mm | torch.mm(a, b)
torch.bmm | torch.bmm(x[:, :, :2], bm.transpose(1, 2))
torch.bmm | torch.bmm(x[:, :, :2], bm)
torch.mv | torch.mv(m, v[:3])
torch.dot | torch.dot(v, w)
torch.dot | torch.dot(v, i[0].float())
torch.vdot | torch.vdot(v, w)
torch.inner | torch.inner(v, w)
torch.inner | torch.inner(a, b)
torch.outer | torch.outer(v[:2], w)
torch.addmm | torch.addmm(v[:2], a, n)
torch.addmm | torch.addmm(O(2, 2), a, n, beta=0.5, alpha=2)
torch.addmv | torch.addmv(v[:3], m, w[:3])
torch.addmv | torch.addmv(v[:3], m, w[:3], beta=2, alpha=-1)
torch.addbmm | torch.addbmm(Z(3, 3), x[:, :, :2], bm.transpose(1, 2))
torch.baddbmm | torch.baddbmm(O(2, 3, 3), x[:, :, :2], bm.transpose(1, 2))
torch.baddbmm | torch.baddbmm(O(2, 3, 3), x[:, :, :2], bm.transpose(1, 2), beta=0, alpha=0.5)
torch.addr | torch.addr(Z(2, 3), v[:2], w[:3])
torch.matmul | torch.matmul(x, O(4))
torch.matmul | torch.matmul(a, n, out=torch.empty(2, 2))
torch.einsum | torch.einsum("ij,jk->ik", a, n)
torch.einsum | torch.einsum("ii", m)
torch.einsum | torch.einsum("ii->i", m)
torch.einsum | torch.einsum("bij,bkj->bik", x[:, :, :2], bm)
torch.einsum | torch.einsum("i,j->ij", v, w)
torch.einsum | torch.einsum("...j,j", a, w[:3])
torch.einsum | torch.einsum("ij->j", a)
torch.einsum | torch.einsum("i,i", v, w)
torch.einsum | torch.einsum("ij,kj->ik", [a, b])
torch.einsum | grad(lambda t, o: torch.einsum("ij,jk->ik", t, o), a, n)
torch.tensordot | torch.tensordot(a, n, dims=1)
torch.tensordot | torch.tensordot(x, O(3, 4), dims=([1, 2], [0, 1]))
torch.tensordot | torch.tensordot(a, b, dims=2)
torch.kron | torch.kron(n, T([[1.0, -1.0]]))
torch.cross | torch.cross(m, n.repeat(1, 2)[:, :3], dim=1)
torch.linalg.cross | torch.linalg.cross(v[:3], w[:3])
torch.matrix_power | torch.matrix_power(m, 3)
torch.matrix_power | torch.matrix_power(m, 0)
torch.linalg.matrix_power | torch.linalg.matrix_power(m, -1)
torch.linalg.norm | torch.linalg.norm(a)
torch.linalg.norm | torch.linalg.norm(v, ord=1)
torch.linalg.norm | torch.linalg.norm(m, ord="fro")
torch.linalg.norm | torch.linalg.norm(m, ord=float("inf"))
torch.linalg.norm | torch.linalg.norm(a, dim=1)
torch.linalg.norm | torch.linalg.norm(m, ord=2)
torch.linalg.vector_norm | torch.linalg.vector_norm(a)
torch.linalg.vector_norm | torch.linalg.vector_norm(a, ord=3, dim=1, keepdim=True)
torch.linalg.vector_norm | torch.linalg.vector_norm(v, ord=0)
torch.linalg.vector_norm | torch.linalg.vector_norm(v, ord=float("-inf"))
torch.linalg.vector_norm | grad(lambda t: torch.linalg.vector_norm(t, dim=1), a)
torch.linalg.matrix_norm | torch.linalg.matrix_norm(m)
torch.linalg.matrix_norm | torch.linalg.matrix_norm(m, ord=1)
torch.linalg.matrix_norm | torch.linalg.matrix_norm(m, ord="nuc")
torch.linalg.inv | torch.linalg.inv(m)
torch.linalg.inv | torch.linalg.inv(d)
torch.linalg.inv | torch.linalg.inv(Z(2, 2))
torch.linalg.inv | grad(torch.linalg.inv, m)
torch.inverse | torch.inverse(m)
torch.linalg.det | torch.linalg.det(m)
torch.linalg.det | torch.linalg.det(torch.stack([m, m.t()]))
torch.linalg.det | grad(torch.linalg.det, m)
torch.det | torch.det(m)
torch.logdet | torch.logdet(m)
torch.linalg.slogdet | torch.linalg.slogdet(m)
torch.linalg.solve | torch.linalg.solve(m, v[:3])
torch.linalg.solve | torch.linalg.solve(m, n)
torch.linalg.solve | grad(torch.linalg.solve, m, n)
torch.linalg.qr | torch.linalg.qr(n)
torch.linalg.qr | torch.linalg.qr(m, mode="r")
torch.linalg.svd | torch.linalg.svd(n, full_matrices=False)
torch.linalg.svdvals | torch.linalg.svdvals(m)
torch.svd | torch.svd(n)
torch.linalg.eigh | torch.linalg.eigh(m)
torch.linalg.eigvalsh | torch.linalg.eigvalsh(d)
torch.linalg.cholesky | torch.linalg.cholesky(m)
torch.linalg.cholesky | torch.linalg.cholesky(-m)
torch.linalg.cholesky | grad(torch.linalg.cholesky, m)
torch.cholesky_solve | torch.cholesky_solve(n, torch.linalg.cholesky(m))
torch.linalg.lstsq | torch.linalg.lstsq(n, v[:3].unsqueeze(1)).solution
torch.linalg.pinv | torch.linalg.pinv(n)
torch.linalg.matrix_rank | torch.linalg.matrix_rank(m)
torch.linalg.eigvals | torch.linalg.eigvals(m)
torch.linalg.multi_dot | torch.linalg.multi_dot([a, m, n])
torch.linalg.matmul | torch.linalg.matmul(a, n)
torch.linalg.diagonal | torch.linalg.diagonal(m)
torch.linalg.vecdot | torch.linalg.vecdot(a, b)

# ---- creation and random
torch.zeros | torch.zeros(2, 3, dtype=torch.int32)
torch.zeros | torch.zeros((2,), device=DEVICE)
torch.ones | torch.ones(2, 2, requires_grad=True)
torch.full | torch.full((2, 2), 7)
torch.full | torch.full((2,), 1.5, dtype=torch.float64)
torch.full | torch.full((2,), True)
torch.empty | torch.empty(2, 3).shape
torch.zeros_like | torch.zeros_like(i, dtype=torch.float32)
torch.ones_like | torch.ones_like(a)
torch.full_like | torch.full_like(i, 2.7)
torch.empty_like | torch.empty_like(a).dtype
torch.rand_like | torch.rand_like(a).shape
torch.randn_like | torch.randn_like(f64).dtype
torch.randint_like | torch.randint_like(a, 10).dtype
torch.randint_like | torch.randint_like(i, 3, 5).shape
Tensor.new_zeros | i.new_zeros(2)
Tensor.new_ones | a.new_ones((1, 2), dtype=torch.int64)
Tensor.new_full | a.new_full((2,), 3)
Tensor.new_empty | a.new_empty(3).shape
Tensor.new_tensor | a.new_tensor([1, 2])
torch.arange | torch.arange(5)
torch.arange | torch.arange(1, 2.5, 0.5)
torch.arange | torch.arange(0, 10, 3, dtype=torch.float32)
torch.arange | torch.arange(5, 0, -2)
torch.arange | torch.arange(0, 1, 0)
torch.linspace | torch.linspace(0, 1, 5)
torch.linspace | torch.linspace(-1, 1, steps=4, dtype=torch.float64)
torch.logspace | torch.logspace(0, 2, 3)
torch.logspace | torch.logspace(0, 3, 4, base=2)
torch.logspace | torch.logspace(-1, 1, 5, dtype=torch.float64)
torch.logspace | torch.logspace(0.5, 2.5, 4, base=3.0)
torch.logspace | torch.logspace(0, 10, 11, dtype=torch.int32)
torch.logspace | torch.logspace(1, 40, 4, dtype=torch.float16)
torch.logspace | torch.logspace(0, 2, 1)
torch.logspace | torch.logspace(0, 2, -1)
torch.logspace | torch.logspace(0, 1, 3, requires_grad=True)
torch.logspace | torch.logspace(0, 1, 3, dtype=torch.bool)
torch.eye | torch.eye(3)
torch.eye | torch.eye(2, 3, dtype=torch.int64)
torch.tensor | torch.tensor([[1, 2], [3, 4]], dtype=torch.float16)
torch.tensor | torch.tensor(3.5)
torch.tensor | torch.tensor([1, 2.5, True])
torch.tensor | torch.tensor([[1, 2], [3]])
torch.as_tensor | torch.as_tensor([1, 2, 3], dtype=torch.float32)
torch.as_tensor | torch.as_tensor(a) is a
torch.asarray | torch.asarray([1.5, 2.5])
torch.asarray | torch.asarray(a, dtype=torch.float64)
torch.asarray | torch.asarray(a) is a
torch.asarray | torch.asarray(a, copy=True) is a
torch.asarray | torch.asarray(a, dtype=torch.float64, copy=False)
torch.asarray | torch.asarray([1, 2], copy=False)
torch.asarray | torch.asarray([1, 2], requires_grad=True)
torch.asarray | torch.asarray(3)
torch.asarray | torch.asarray(a.cpu().numpy(), dtype=torch.float64)
torch.asarray | torch.asarray(a.clone().requires_grad_(), requires_grad=False).requires_grad
torch.normal | (torch.manual_seed(0), torch.normal(0.0, 1.0, (2, 3)))[1]
torch.normal | (torch.manual_seed(0), torch.normal(torch.zeros(4), torch.ones(4)))[1]
torch.normal | (torch.manual_seed(0), torch.normal(torch.arange(4.0), 0.5))[1]
torch.normal | (torch.manual_seed(0), torch.normal(2.0, torch.full((3,), 0.25)))[1]
torch.normal | (torch.manual_seed(0), torch.normal(0.0, 1.0, size=(2,), generator=torch.Generator().manual_seed(3)))[1]
torch.normal | torch.normal(0.0, -1.0, (2,))
Tensor.normal_ | (torch.manual_seed(0), torch.empty(4).normal_(1.0, 2.0))[1]
Tensor.uniform_ | (torch.manual_seed(0), torch.empty(4).uniform_(-1, 1))[1]
Tensor.exponential_ | (torch.manual_seed(0), torch.empty(3).exponential_())[1]
Tensor.random_ | (torch.manual_seed(0), torch.empty(4).random_(0, 10))[1]
Tensor.bernoulli_ | (torch.manual_seed(0), torch.empty(6).bernoulli_(0.5))[1]
torch.bernoulli | (torch.manual_seed(0), torch.bernoulli(torch.full((2, 4), 0.5)))[1]
torch.bernoulli | (torch.manual_seed(0), torch.bernoulli(p))[1]
torch.multinomial | (torch.manual_seed(0), torch.multinomial(p, 2))[1]
torch.multinomial | (torch.manual_seed(0), torch.multinomial(p, 6, replacement=True))[1]
torch.multinomial | (torch.manual_seed(0), torch.multinomial(torch.tensor([[0.0, 1.0], [1.0, 0.0]]), 1))[1]
torch.multinomial | torch.multinomial(p, 6)
torch.poisson | (torch.manual_seed(0), torch.poisson(torch.tensor([1.0, 4.0, 0.0])))[1]
torch.rand | (torch.manual_seed(0), torch.rand(3, generator=torch.Generator().manual_seed(7)))[1]
torch.randn | torch.randn(2, generator=torch.Generator().manual_seed(1))
torch.randint | torch.randint(0, 10, (4,), generator=torch.Generator().manual_seed(2))
torch.randperm | torch.randperm(5, generator=torch.Generator().manual_seed(4))
torch.Generator | torch.Generator().manual_seed(5).initial_seed()
torch.Generator | torch.Generator().device
torch.Generator | torch.Generator().get_state().shape
torch.seed | type(torch.seed()).__name__
torch.initial_seed | (torch.manual_seed(11), torch.initial_seed())[1]
torch.get_rng_state | (torch.manual_seed(0), torch.get_rng_state().shape, torch.get_rng_state()[:8])[1:]
torch.set_rng_state | (torch.manual_seed(0), torch.rand(1), torch.set_rng_state(torch.manual_seed(0).get_state()), torch.rand(2))[3]
torch.random.manual_seed | (torch.random.manual_seed(3), torch.rand(2))[1]
torch.random.fork_rng | torch.random.fork_rng is not None

# ---- dtypes and defaults
torch.tensor | torch.tensor([1, -2, 127], dtype=torch.int8)
torch.tensor | torch.tensor([1, -2, 300], dtype=torch.int16)
torch.tensor | torch.tensor([1, -2], dtype=torch.int8) + torch.tensor([1], dtype=torch.uint8)
torch.tensor | torch.tensor([100], dtype=torch.int8) * 2
torch.tensor | torch.tensor([1, 2], dtype=torch.int16).float()
Tensor.char | i.char()
Tensor.short | i.short()
Tensor.byte | i.byte()
Tensor.to | a.to(torch.int8)
Tensor.to | (a * 100).to(torch.int16)
Tensor.char | (a * 100).char()
Tensor.bfloat16 | a.bfloat16()
Tensor.max | i.short().max()
Tensor.max | i32.max(0)
Tensor.sum | i.char().sum()
Tensor.cumsum | i.short().cumsum(1)
Tensor.sort | i.char().sort()
Tensor.abs | torch.tensor([-128, 5], dtype=torch.int8).abs()
Tensor.mean | i.char().mean()
Tensor.random_ | torch.empty(3, dtype=torch.int8).random_(generator=torch.Generator().manual_seed(0))
Tensor.random_ | torch.empty(3, dtype=torch.int16).random_(generator=torch.Generator().manual_seed(0))
torch.randint | torch.randint(-5, 5, (4,), dtype=torch.int8, generator=torch.Generator().manual_seed(0))
torch.tensor | torch.tensor([-200, 255], dtype=torch.uint8)
torch.tensor | torch.tensor([-256], dtype=torch.uint8)
torch.tensor | torch.tensor([2 ** 40], dtype=torch.int32)
torch.tensor | torch.tensor([127.5], dtype=torch.int8)
torch.full | torch.full((2,), 300, dtype=torch.int8)
torch.full | torch.full((2,), 2 ** 40, dtype=torch.int32)
torch.full_like | torch.full_like(i, 1e300)
Tensor.fill_ | torch.zeros(2, dtype=torch.int16).fill_(-40000)
Tensor.masked_fill | u.masked_fill(u > 100, 256)
torch.iinfo | torch.iinfo(torch.int8)
torch.iinfo | torch.iinfo(torch.int16).min
Tensor.type | i.char().type()
torch.CharTensor | torch.CharTensor([1, -2])
torch.ShortTensor | torch.ShortTensor(2).shape
torch.from_numpy | torch.from_numpy(i.char().cpu().numpy())
Tensor.numpy | i.short().cpu().numpy()
torch.complex | torch.complex(v, w)
torch.tensor | torch.tensor([1 + 2j, 3j])
torch.finfo | torch.finfo(torch.float32)
torch.finfo | torch.finfo(torch.float16).eps
torch.finfo | torch.finfo().max
torch.finfo | torch.finfo(torch.bfloat16).tiny
torch.finfo | torch.finfo(torch.float64).resolution
torch.iinfo | torch.iinfo(torch.int32)
torch.iinfo | torch.iinfo(torch.uint8).max
torch.iinfo | torch.iinfo(torch.int64).min
torch.iinfo | torch.iinfo(torch.float32)
torch.Size | isinstance(a.size(), tuple)
torch.Size | a.size() + (4,)
torch.Size | torch.Size([2, 3])
torch.Size | a.shape == (2, 3)
torch.Size | a.shape.numel()
torch.Size | x.shape[1:]
torch.Size | list(a.shape)
torch.Size | tuple(x.size())
torch.Size | torch.zeros(a.shape[::-1]).shape
torch.Size | a.size(-1)
torch.Size | a.shape.count(3)
torch.Size | a.shape.index(3)
~Tensor.type | a.type()
Tensor.type | a.type(torch.int64)
Tensor.type | a.type("torch.DoubleTensor")
Tensor.type | i.type(torch.float16)
torch.FloatTensor | isinstance(a, torch.FloatTensor)
torch.LongTensor | isinstance(i, torch.LongTensor)
torch.FloatTensor | torch.FloatTensor([1, 2])
torch.LongTensor | torch.LongTensor([1.7, 2])
torch.FloatTensor | torch.FloatTensor(2, 3).shape
torch.Tensor | torch.Tensor([1, 2])
torch.Tensor | torch.Tensor(2, 3).shape
torch.cuda.FloatTensor | isinstance(a, torch.cuda.FloatTensor)
torch.set_default_dtype | (torch.set_default_dtype(torch.float64), torch.tensor([1.5]), torch.zeros(1).dtype, torch.set_default_dtype(torch.float32))[1:3]
torch.get_default_dtype | torch.get_default_dtype()
torch.set_default_dtype | torch.set_default_dtype(torch.int64)
torch.set_default_device | (torch.set_default_device("meta"), torch.zeros(2).device, torch.set_default_device(None), torch.zeros(1).device)[1::2]
torch.get_default_device | torch.get_default_device()
torch.set_printoptions | (torch.set_printoptions(precision=2), repr(a / 3), torch.set_printoptions(profile="default"))[1]
torch.set_printoptions | (torch.set_printoptions(sci_mode=True), repr(a), torch.set_printoptions(profile="default"))[1]
torch.set_printoptions | (torch.set_printoptions(threshold=5, edgeitems=1), repr(torch.arange(10)), torch.set_printoptions(profile="default"))[1]
torch.set_printoptions | (torch.set_printoptions(linewidth=20), repr(torch.arange(12.0)), torch.set_printoptions(profile="default"))[1]
torch.set_printoptions | (torch.set_printoptions(profile="short"), repr(a / 3), torch.set_printoptions(profile="default"))[1]
torch.is_floating_point | torch.is_floating_point(i)
torch.is_complex | torch.is_complex(a)
torch.is_nonzero | torch.is_nonzero(torch.tensor([0.5]))
torch.numel | torch.numel(x)
torch.result_type | torch.result_type(i, 2.5)
torch.promote_types | torch.promote_types(torch.int32, torch.float16)
torch.can_cast | torch.can_cast(torch.float32, torch.int32)
torch.can_cast | torch.can_cast(torch.bool, torch.uint8)
torch.result_type | torch.result_type(2, 2.5)
torch.result_type | torch.result_type(s, i)
torch.result_type | torch.result_type(True, u)
torch.promote_types | torch.promote_types(torch.uint8, torch.bool)
torch.promote_types | torch.promote_types(torch.float16, torch.bfloat16)
torch.set_default_dtype | (torch.set_default_dtype(torch.float64), i / 2, i * 2.5, torch.sqrt(i).dtype, torch.arange(0.0, 2).dtype, torch.set_default_dtype(torch.float32))[1:5]
torch.set_default_dtype | (torch.set_default_dtype(torch.float64), repr(a), repr(a.double()), repr(torch.zeros(0)), torch.set_default_dtype(torch.float32))[1:4]
torch.set_default_dtype | (torch.set_default_dtype(torch.float16), torch.tensor([1.5, 2.0]) + 1, torch.set_default_dtype(torch.float32))[1]
torch.set_default_dtype | torch.set_default_dtype("float64")
torch.set_default_device | (torch.set_default_device("meta"), torch.nn.Linear(2, 2).weight.device, torch.zeros_like(torch.ones(1, device="cpu")).device, torch.normal(0.0, 1.0, (2,)).device, torch.tensor([1.0]).device)[1:]
torch.get_default_device | (torch.set_default_device(1), torch.get_default_device())[1]
torch.set_default_device | torch.set_default_device([1])
torch.finfo | torch.finfo(torch.int32)
torch.finfo | (torch.set_default_dtype(torch.float64), torch.finfo(), torch.set_default_dtype(torch.float32))[1]
torch.iinfo | torch.iinfo(torch.bool)
torch.Size | torch.Size([2.5])
torch.Size | (2,) + a.shape
torch.Size | a.shape * 2
torch.Size | a.shape[5]
torch.Size | a.shape + [1]
torch.Size | hash(a.shape) == hash((2, 3))
torch.Size | a.shape < (3,)
torch.set_printoptions | (torch.set_printoptions(edgeitems=0, threshold=3), repr(x), torch.set_printoptions(profile="default"))[1]
torch.set_printoptions | (torch.set_printoptions(profile="full"), len(repr(torch.arange(1200))), torch.set_printoptions(profile="default"))[1]
torch.set_printoptions | (torch.set_printoptions(sci_mode=False), repr(torch.tensor([1e-8, 20.0])), torch.set_printoptions(profile="default"))[1]
Tensor.is_floating_point | a.is_floating_point()
Tensor.element_size | h.element_size()
Tensor.nbytes | a.nbytes
Tensor.itemsize | f64.itemsize
Tensor.ndim | x.ndim
Tensor.ndimension | x.ndimension()
Tensor.nelement | x.nelement()
Tensor.dtype | u.dtype.is_signed
Tensor.dtype | torch.float16.itemsize
Tensor.dtype | torch.float32.is_floating_point

# ---- autograd
torch.autograd.grad | (lambda t: torch.autograd.grad((t ** 3).sum(), t))(a.requires_grad_())
torch.autograd.grad | (lambda t: torch.autograd.grad((t * t).sum(), [t], create_graph=True)[0].grad_fn is not None)(a.requires_grad_())
torch.autograd.grad | (lambda t, o: torch.autograd.grad((t * 2).sum(), [t, o], allow_unused=True))(a.requires_grad_(), b.requires_grad_())
torch.autograd.grad | (lambda t, o: torch.autograd.grad((t * 2).sum(), [t, o]))(a.requires_grad_(), b.requires_grad_())
torch.autograd.grad | (lambda t: torch.autograd.grad(t * 2, t, grad_outputs=torch.ones_like(t)))(a.requires_grad_())
torch.autograd.grad | (lambda t: torch.autograd.grad(t * 2, t))(a.requires_grad_())
torch.autograd.grad | (lambda t: (lambda g: torch.autograd.grad(g.sum(), t))(torch.autograd.grad((t ** 3).sum(), t, create_graph=True)[0]))(a.requires_grad_())
torch.autograd.backward | (lambda t: (torch.autograd.backward((t * 3).sum()), t.grad)[1])(a.requires_grad_())
torch.autograd.backward | (lambda t: (torch.autograd.backward([t * 2], [O(2, 3)]), t.grad)[1])(a.requires_grad_())
Tensor.register_hook | (lambda t: (t.register_hook(lambda g: g * 10), (t * 2).sum().backward(), t.grad)[2])(a.requires_grad_())
Tensor.register_hook | (lambda t: (lambda y: (y.register_hook(lambda g: None), y.sum().backward(), t.grad)[2])(t * 3))(a.requires_grad_())
Tensor.retains_grad | (lambda t: (lambda y: (y.retain_grad(), y.retains_grad, t.retains_grad))(t * 2))(a.requires_grad_())
Tensor.requires_grad_ | a.requires_grad_().requires_grad
Tensor.requires_grad_ | i.requires_grad_()
torch.set_grad_enabled | (torch.set_grad_enabled(False), (a.requires_grad_() * 2).requires_grad, torch.set_grad_enabled(True))[1]
torch.set_grad_enabled | (lambda t: [torch.set_grad_enabled(False), (t * 2).requires_grad, torch.set_grad_enabled(True), (t * 2).requires_grad][1::2])(a.requires_grad_())
torch.is_grad_enabled | torch.is_grad_enabled()
torch.autograd.Variable | torch.autograd.Variable(a, requires_grad=True)
torch.autograd.functional.jacobian | torch.autograd.functional.jacobian(lambda t: t ** 2, v[:3])
torch.autograd.functional.jacobian | torch.autograd.functional.jacobian(lambda s, t: s * t, (v[:2], w[:2]))
torch.autograd.functional.hessian | torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), v[:3])
torch.autograd.set_detect_anomaly | torch.autograd.set_detect_anomaly(False) is not None
torch.autograd.detect_anomaly | torch.autograd.detect_anomaly is not None
torch.autograd.Function | (lambda F: (lambda t: (F.apply(t), F.apply(t).sum().backward(), t.grad)[::2])(a.requires_grad_()))(type("Square", (torch.autograd.Function,), {"forward": staticmethod(lambda ctx, t: (ctx.save_for_backward(t), t * t)[1]), "backward": staticmethod(lambda ctx, g: 2 * ctx.saved_tensors[0] * g)}))
Tensor.detach_ | (lambda y: (y.detach_(), y.requires_grad)[1])(a.requires_grad_() * 2)
Tensor.grad_fn | node(grad(torch.sin, a)[0])
Tensor.grad_fn | grad(torch.sin, a)[0].grad_fn.next_functions[0][0].variable.shape
Tensor.is_leaf | (a.is_leaf, (a.requires_grad_() * 2).is_leaf)
Tensor.data | (lambda t: (t.data.requires_grad, t.data.is_leaf))(a.requires_grad_())
Tensor.backward | (lambda t: ((t * 2).backward(), t.grad))(a.requires_grad_())
Tensor.backward | (lambda t: ((t * 2).backward(O(2, 3)), t.grad)[1])(a.requires_grad_())
Tensor.backward | (lambda t: (lambda y: (y.backward(retain_graph=True), y.backward(), t.grad)[2])((t * 2).sum()))(a.requires_grad_())
Tensor.backward | (lambda t: (lambda y: (y.backward(), y.backward()))((t.exp()).sum()))(a.requires_grad_())
Tensor.backward | (lambda t: (t * 2).sum().backward(inputs=[t]))(a.requires_grad_())

# ---- the cuda and accelerator namespaces (on a machine without GPUs)
~torch.cuda.is_available | torch.cuda.is_available()
~torch.cuda.device_count | torch.cuda.device_count()
~torch.cuda.is_initialized | torch.cuda.is_initialized()
~torch.cuda.is_bf16_supported | torch.cuda.is_bf16_supported()
~torch.cuda.is_tf32_supported | torch.cuda.is_tf32_supported()
~torch.cuda.memory_stats | torch.cuda.memory_stats()
~torch.cuda.memory_stats_as_nested_dict | torch.cuda.memory_stats_as_nested_dict()
~torch.cuda.memory_allocated | torch.cuda.memory_allocated()
~torch.cuda.memory_reserved | torch.cuda.memory_reserved()
~torch.cuda.max_memory_allocated | torch.cuda.max_memory_allocated()
~torch.cuda.memory_summary | torch.cuda.memory_summary()
~torch.cuda.empty_cache | torch.cuda.empty_cache()
~torch.cuda.reset_peak_memory_stats | torch.cuda.reset_peak_memory_stats()
~torch.accelerator.is_available | torch.accelerator.is_available()
~torch.accelerator.current_accelerator | torch.accelerator.current_accelerator()
~torch.accelerator.device_count | torch.accelerator.device_count()
torch.backends.mps.is_available | torch.backends.mps.is_available()
~Tensor.is_cuda | a.is_cuda
~Tensor.device | a.device
~Tensor.get_device | a.get_device()
"""


def cases():
    for line in CASES.strip().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, code = (part.strip() for part in line.split(" | ", 1))
        yield name.lstrip("~"), code, name.startswith("~")


def outcome(code):
    scope = {"torch": torch, "math": math, "DEVICE": DEVICE, "grad": grad, "node": node, "T": T, "Z": Z, "O": O, "F": F, "S": S, "put": put}
    exec(FIXTURES, scope)
    try:
        return describe(eval(code, scope))
    except Exception as error:  # noqa: BLE001 - every outcome is compared, errors included
        return f"{type(error).__name__}: {error}"


# What a case may have changed for the ones after it. (Each reset is tried on its own: the lab
# may not have them all yet.)
RESETS = [
    lambda: torch.set_default_dtype(torch.float32),
    lambda: torch.set_grad_enabled(True),
    lambda: torch.set_default_device(None),
    lambda: torch.set_printoptions(profile="default"),
]

for name, code, cpu_only in cases():
    if cpu_only and DEVICE != "cpu":
        print(f"{name}\t{code}\t(cpu only)")
        continue
    # One line per case: newlines (and the backslashes before them) escaped.
    text = outcome(code).replace("\\", "\\\\").replace("\n", "\\n")
    print(f"{name}\t{code}\t{text}")
    for reset in RESETS:
        try:
            reset()
        except Exception:  # noqa: BLE001
            pass
