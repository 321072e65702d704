# The notebook's defaults and the questions about dtypes: set_default_dtype (what floats
# become, what integers promote to, how reprs name dtypes), set_default_device and
# `with torch.device(...)` (which factories follow it and which do not), set_printoptions
# (precision, threshold, edgeitems, linewidth, sci_mode, the profiles), finfo/iinfo,
# promote_types/result_type/can_cast, and torch.Size as the tuple it is.
import torch


def tr(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


# ---- set_default_dtype
print(torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
i = torch.arange(4)
print(torch.tensor([1.5, 2.5]), torch.tensor(2.5).dtype, torch.zeros(2).dtype, torch.rand(2).dtype)
print(i / 2, i * 0.5, torch.sqrt(i), torch.arange(0.0, 2), torch.linspace(0, 1, 3))
print(torch.full((2,), 1.5).dtype, torch.empty(1).dtype, torch.ones(2, dtype=torch.float32))
print(torch.nn.Linear(2, 3).weight.dtype, torch.tensor([1, 2]).float().dtype, i.logit().dtype)
print(torch.where(i > 1, 1.5, 0).dtype, torch.finfo().eps, torch.result_type(i, 1.5))
print(repr(torch.zeros(0)), repr(torch.zeros(0, dtype=torch.float32)))
torch.set_default_dtype(torch.float16)
print(torch.tensor([1.5]) + 1, i / 3)
torch.set_default_dtype(torch.bfloat16)
print(torch.get_default_dtype(), torch.tensor([1.1]))
torch.set_default_dtype(torch.float32)
tr(lambda: torch.set_default_dtype(torch.int64))
tr(lambda: torch.set_default_dtype(torch.bool))
tr(lambda: torch.set_default_dtype("float64"))
tr(lambda: torch.set_default_dtype())
print(torch.get_default_dtype(), torch.tensor([1.5]))

# ---- set_default_device and torch.device as a context manager
print(torch.get_default_device())
torch.set_default_device("meta")
print(torch.zeros(2), torch.tensor([1.0]).device, torch.arange(3).device, torch.randn(2).device)
print(torch.nn.Linear(2, 2).weight.device, torch.get_default_device())
print(torch.zeros_like(torch.ones(1, device="cpu")).device, torch.normal(0.0, 1.0, (2,)).device)
print(torch.zeros(1, device="cpu").device, torch.as_tensor([1, 2]).device)
torch.set_default_device(None)
print(torch.get_default_device(), torch.zeros(1).device)
torch.set_default_device(torch.device("cpu"))
print(torch.get_default_device())
torch.set_default_device(3)
print(torch.get_default_device())
torch.set_default_device(None)
tr(lambda: torch.set_default_device("banana"))
tr(lambda: torch.set_default_device([1]))
tr(lambda: torch.set_default_device(1.5))
with torch.device("meta"):
    print(torch.ones(2, 2).device, torch.empty(3).is_meta)
print(torch.ones(1).device)
with torch.device("meta") as entered:
    print(entered)
try:
    with torch.device("meta"):
        raise ValueError("inside")
except ValueError as e:
    print("caught", e, torch.zeros(1).device)

# ---- set_printoptions
x = torch.tensor([1.123456, -20.5, 3.0])
torch.set_printoptions(precision=2)
print(x, torch.tensor(1 / 3))
torch.set_printoptions(threshold=5)
print(torch.arange(10), torch.arange(5))
torch.set_printoptions(edgeitems=1)
print(torch.arange(10), torch.arange(12.0).reshape(3, 4))
torch.set_printoptions(profile="default")
print(x, torch.arange(10))
torch.set_printoptions(sci_mode=True)
print(x, torch.tensor([1.0, 2.0]), torch.tensor(5))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 20.0]), torch.tensor([1e10, 1.0]))
torch.set_printoptions(sci_mode=None)
print(torch.tensor([1e-8, 20.0]))
torch.set_printoptions(linewidth=24)
print(torch.arange(12.0), torch.arange(6, dtype=torch.float64))
torch.set_printoptions(linewidth=-5)
print(torch.arange(3))
torch.set_printoptions(profile="short")
print(torch.arange(12.0).reshape(3, 4) / 3, torch.arange(2000))
torch.set_printoptions(edgeitems=0)
print(torch.arange(2000), torch.arange(2000.0).reshape(2, 1000))
torch.set_printoptions(profile="full")
print(len(repr(torch.arange(1200))), repr(torch.arange(1200))[-30:])
torch.set_printoptions(profile="nonsense", precision=6)
print(x)
torch.set_printoptions(threshold=0)
print(torch.tensor(2.5), torch.tensor([1, 2]))
torch.set_printoptions(threshold=2.5)
print(torch.arange(3))
torch.set_printoptions(profile="default")
print(x, torch.arange(3))

# ---- finfo and iinfo
for d in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    f = torch.finfo(d)
    print(f)
    print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
print(torch.finfo(), torch.finfo(type=torch.float64).bits)
for d in [torch.uint8, torch.int32, torch.int64]:
    n = torch.iinfo(d)
    print(n, n.bits, n.min, n.max, n.dtype)
tr(lambda: torch.iinfo(torch.bool))
tr(lambda: torch.iinfo(torch.float32))
tr(lambda: torch.finfo(torch.int32))
tr(lambda: torch.finfo(torch.bool))
tr(lambda: torch.iinfo())
tr(lambda: torch.finfo("float"))
tr(lambda: torch.finfo(torch.float32, 1))
tr(lambda: torch.finfo(torch.float32).foo)
print(torch.finfo(torch.float32) == torch.finfo(), isinstance(torch.finfo(), torch.finfo))
print(type(torch.finfo()), type(torch.iinfo(torch.int32)), isinstance(torch.iinfo(torch.int32), torch.finfo))
print(torch.float32.is_signed, torch.uint8.is_signed, torch.bool.is_signed, torch.int32.is_complex)
eps = torch.finfo(torch.float32).eps
print(torch.tensor(1.0) + eps > 1, torch.tensor(1.0) + eps / 2 > 1)
print(torch.tensor([300]).clamp(max=torch.iinfo(torch.uint8).max).to(torch.uint8))

# ---- promote_types, result_type, can_cast
print(torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.bool))
print(torch.promote_types(torch.float16, torch.bfloat16), torch.promote_types(torch.uint8, torch.int32))
tr(lambda: torch.promote_types(1, torch.int32))
print(torch.result_type(torch.tensor([1]), 2.5), torch.result_type(2, 2.5), torch.result_type(2, True))
print(torch.result_type(torch.tensor(1.0), torch.tensor([1], dtype=torch.int32)))
print(torch.result_type(torch.tensor([1.0], dtype=torch.float16), torch.tensor(1.0, dtype=torch.float64)))
print(torch.result_type(tensor=torch.tensor([1]), other=1.5))
tr(lambda: torch.result_type([1], 2))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int64, torch.float16))
print(torch.can_cast(torch.float32, torch.bool), torch.can_cast(torch.bool, torch.uint8))

# ---- torch.Size
s = torch.zeros(2, 3, 4).shape
print(s + (5,), (5,) + s, s * 2, 2 * s, s + s, s[1:], s[::-1], s[0:1] + s)
print(type(s + (1,)), type((1,) + s), type(s[1:]), type(s * 2))
print(s.count(3), s.index(4), s.numel(), torch.Size([0, 3]).numel(), torch.Size([]).numel())
print(torch.Size([2, 3]), torch.Size((2, 3)), torch.Size(), torch.Size(range(3)), torch.Size([True]))
print(torch.Size([torch.tensor(3)]), torch.Size([2, -1]))
print(s == (2, 3, 4), s == [2, 3, 4], hash(s) == hash((2, 3, 4)), s < (3,), sorted(s))
print(isinstance(s, tuple), tuple(s), list(s), len(s), max(s), sum(s), str(s))
print({s: "shape"}[(2, 3, 4)])
tr(lambda: torch.Size([2.5]))
tr(lambda: torch.Size("ab"))
tr(lambda: torch.Size(3))
tr(lambda: torch.Size([2**63]))
tr(lambda: s + (2.5,))
tr(lambda: s + [1])
tr(lambda: s * 2.0)
tr(lambda: s[5])
tr(lambda: s.index(7))
tr(lambda: s.index(3, 0, 1))
print((1, 2, 2).count(2), (1, 2, 2).index(2), (1, 2, 2).index(2, 2))
tr(lambda: (1, 2).index(5))
