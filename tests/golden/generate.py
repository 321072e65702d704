"""Generates the golden files the engine's tests compare against, from real PyTorch on the CPU.

Run once with PyTorch 2.15 installed (`pip install torch==2.15.0`):

    python3 tests/golden/generate.py

and commit the JSON files it writes next to itself. The tests never import torch: they read these
files. CUDA-only behaviour cannot be generated on a machine without CUDA; the engine's tests write
those cases from PyTorch's documented behaviour and source, naming the source.
"""

import json
import math
import pathlib
import sys

import torch

HERE = pathlib.Path(__file__).parent
DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "bool"]


def write(name, data):
    path = HERE / name
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path} ({len(data)} cases)")


def outcome(fn):
    try:
        return {"ok": fn()}
    except Exception as e:  # noqa: BLE001 - the exception is the data
        return {"error": type(e).__name__, "message": str(e)}


def device_info(d):
    return {"type": d.type, "index": d.index, "str": str(d), "repr": repr(d)}


def devices():
    strings = [
        "cpu", "cpu:0", "cuda", "cuda:0", "cuda:1", "cuda:10", "mps", "mps:0", "meta",
        "CPU", "Cuda", "gpu", "GPU:0", " cuda:0", "cuda:0 ", "cuda: 0", "cuda:-1", "cuda:01",
        "cuda:", ":0", "", "cuda:0:1", "cuda:1.0", "cuda:a", "xla", "cuda_0", "cuda:99999999999", "cuda:127", "cuda:128", "cuda:300", "cuda:2147483648", "privateuseone", "hip:0",
    ]
    cases = [{"args": [s], **outcome(lambda s=s: device_info(torch.device(s)))} for s in strings]
    pairs = [("cuda", 0), ("cuda", 1), ("cpu", 0), ("cuda:1", 1), ("cuda", -1), ("mps", 0), ("cpu", None), ("cuda", 127), ("cuda", 128), ("gpu", 0), ("CPU", None)]
    cases += [{"args": [t, i], **outcome(lambda t=t, i=i: device_info(torch.device(t, i)))} for t, i in pairs]
    equal = [
        ("cuda", "cuda:0"), ("cuda:0", "cuda:0"), ("cpu", "cpu:0"), ("cpu", "cpu"), ("cuda:0", "cuda:1"),
    ]
    cases += [
        {"equal": [a, b], "ok": torch.device(a) == torch.device(b)} for a, b in equal
    ]
    write("devices.json", cases)


def promotion():
    cases = []
    samples = {
        "float32": torch.tensor([1.5], dtype=torch.float32),
        "float64": torch.tensor([1.5], dtype=torch.float64),
        "float16": torch.tensor([1.5], dtype=torch.float16),
        "bfloat16": torch.tensor([1.5], dtype=torch.bfloat16),
        "int64": torch.tensor([2], dtype=torch.int64),
        "int32": torch.tensor([2], dtype=torch.int32),
        "uint8": torch.tensor([2], dtype=torch.uint8),
        "bool": torch.tensor([True], dtype=torch.bool),
    }
    for a in DTYPES:
        for b in DTYPES:
            ta, tb = samples[a], samples[b]
            cases.append({"kind": "tensor-tensor", "a": a, "b": b, "result": str(torch.result_type(ta, tb)).removeprefix("torch.")})
            cases.append({"kind": "tensor-zerodim", "a": a, "b": b, "result": str(torch.result_type(ta, tb[0])).removeprefix("torch.")})
        for name, scalar in [("int", 2), ("float", 2.5), ("bool", True)]:
            cases.append({"kind": "tensor-scalar", "a": a, "b": name, "result": str(torch.result_type(samples[a], scalar)).removeprefix("torch.")})
            cases.append({"kind": "zerodim-scalar", "a": a, "b": name, "result": str(torch.result_type(samples[a][0], scalar)).removeprefix("torch.")})
    write("promotion.json", cases)


def layout_of(t):
    return {"shape": list(t.shape), "stride": list(t.stride()), "offset": t.storage_offset(), "contiguous": t.is_contiguous()}


def layouts():
    """Views: the shape, strides and storage offset each view op gives, or its error."""
    base = torch.arange(24.0)
    def src(shape, how=None):
        t = base[: torch.Size(shape).numel()].reshape(shape)
        if how == "t":
            t = t.t()
        elif how == "transpose01":
            t = t.transpose(0, 1)
        elif how == "step2":
            t = torch.arange(float(torch.Size(shape).numel() * 2)).reshape(*shape[:-1], shape[-1] * 2)[..., ::2]
        elif how == "expand":
            t = t.expand(2, *shape)
        return t
    cases = []
    def case(source, how, op, args, fn):
        t = src(source, how)
        cases.append({"source": source, "how": how, "source_layout": layout_of(t), "op": op, "args": args,
                      **outcome(lambda: layout_of(fn(t)))})
    for shape, how in [([2, 3, 4], None), ([4, 6], "t"), ([2, 3, 4], "transpose01"), ([3, 4], "step2"), ([3, 4], "expand"), ([6], None), ([1, 3, 1], None), ([], None)]:
        n = torch.Size(shape).numel() * (2 if how == "expand" else 1)
        for view in [[-1], [n], [2, -1], [-1, 2], [n, 1], [1, -1, 1], [5, -1], [-1, -1], [3, -2], [0, -1], [7]]:
            case(shape, how, "view", view, lambda t, v=view: t.view(*v))
            case(shape, how, "reshape", view, lambda t, v=view: t.reshape(*v))
        for d0, d1 in [(0, 1), (0, -1), (-1, -2), (0, 3), (-4, 0)]:
            case(shape, how, "transpose", [d0, d1], lambda t, a=d0, b=d1: t.transpose(a, b))
        case(shape, how, "t", [], lambda t: t.t())
        for dims in [[0, 1, 2], [2, 0, 1], [1, 0], [0, 0, 1], [0, 1, 3], [-1, 0, 1]]:
            case(shape, how, "permute", dims, lambda t, d=dims: t.permute(*d))
        for dim in [0, 1, -1, 3, 4, -5]:
            case(shape, how, "unsqueeze", [dim], lambda t, d=dim: t.unsqueeze(d))
        for dim in [None, 0, 1, -1, 5]:
            case(shape, how, "squeeze", [dim], lambda t, d=dim: t.squeeze() if d is None else t.squeeze(d))
        for sizes in [[2, 3, 4], [5, 2, 3, 4], [-1, 3, 4], [2, -1, 4], [1, 3, 4], [4, 6], [3, 4, 1], [1, 1]]:
            case(shape, how, "expand", sizes, lambda t, s=sizes: t.expand(*s))
        for dim, index in [(0, 1), (-1, 0), (0, -1), (1, 5), (3, 0)]:
            case(shape, how, "select", [dim, index], lambda t, d=dim, i=index: t.select(d, i))
        for dim, start, stop, step in [(0, 0, 1, 1), (-1, 1, None, 2), (0, -2, None, 1), (1, 0, 100, 3), (0, 5, 2, 1), (0, 0, 2, 0)]:
            def sl(t, d=dim, a=start, b=stop, c=step):
                index = [slice(None)] * d if d >= 0 else [Ellipsis] + [slice(None)] * (-d - 1)
                return t[tuple(index + [slice(a, b, c)])] if d >= 0 else t[tuple([Ellipsis, slice(a, b, c)] + [slice(None)] * (-d - 1))]
            case(shape, how, "slice", [dim, start, stop, step], sl)
        case(shape, how, "contiguous", [], lambda t: t.contiguous())
    write("layouts.json", cases)


def broadcasting():
    pairs = [([3], [3]), ([2, 3], [3]), ([2, 1], [1, 4]), ([], [2, 2]), ([2, 3], [4]), ([5, 1, 3], [4, 1]), ([2, 3], [3, 3]), ([0], [1]), ([0], [2])]
    cases = [{"a": a, "b": b, **outcome(lambda a=a, b=b: list(torch.broadcast_shapes(a, b)))} for a, b in pairs]
    cases += [{"a": a, "b": b, "op": "add", **outcome(lambda a=a, b=b: list((torch.zeros(a) + torch.zeros(b)).shape))} for a, b in pairs]
    write("broadcasting.json", cases)


def scalar_list(t):
    """Flat Python values (bool/int/float, with nan and inf as strings for JSON)."""
    out = []
    for v in t.reshape(-1).tolist():
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            out.append(str(v))
        else:
            out.append(v)
    return out


def reprs():
    """repr(tensor) for a spread of values, shapes and dtypes (printing options at their defaults)."""
    g = torch.Generator().manual_seed(0)
    floats = [
        ("ints as floats", torch.tensor([1.0, 2.0, -3.0])),
        ("decimals", torch.tensor([0.1, 2.5, -3.25])),
        ("0-dim", torch.tensor(3.5)),
        ("0-dim int-valued", torch.tensor(2.0)),
        ("matrix", torch.tensor([[1.0, 2.0], [3.0, 4.5]])),
        ("sci large ratio", torch.tensor([1.0e-5, 1.0, 100.0])),
        ("sci large", torch.tensor([1.5e9, 2.0])),
        ("int mode sci", torch.tensor([1.0, 100000.0])),
        ("nan inf", torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])),
        ("nan inf ints", torch.tensor([float("nan"), 1.0, float("inf")])),
        ("negative zero", torch.tensor([-0.0, 1.0])),
        ("all zero", torch.zeros(3)),
        ("randn 2x3", torch.randn(2, 3, generator=g)),
        ("randn 3-d", torch.randn(2, 2, 3, generator=g)),
        ("wrap 30", torch.linspace(-1, 1, 30)),
        ("summarized 2000", torch.arange(2000.0)),
        ("summarized 40x40", torch.arange(1600.0).reshape(40, 40) / 7),
        ("empty", torch.zeros(0)),
        ("empty 2x0", torch.zeros(2, 0)),
        ("tiny", torch.tensor([1e-8, 2e-8])),
        ("mixed width", torch.tensor([-100.5, 2.25, 3.125])),
    ]
    cases = []
    for name, t in floats:
        for dtype in ["float32", "float64", "float16", "bfloat16"]:
            x = t.to(getattr(torch, dtype))
            cases.append({"name": name, "values": scalar_list(x), "shape": list(x.shape), "dtype": dtype, "repr": repr(x)})
    ints = [
        ("ints", torch.tensor([1, -20, 300])),
        ("int matrix", torch.tensor([[1, 2, 3], [40, 50, 60]])),
        ("int 0-dim", torch.tensor(7)),
        ("arange 100", torch.arange(100)),
        ("summarized ints", torch.arange(3000).reshape(3, 1000)),
        ("empty ints", torch.zeros(0, dtype=torch.int64)),
    ]
    for name, t in ints:
        for dtype in ["int64", "int32", "uint8"]:
            x = t.abs().to(getattr(torch, dtype)) if dtype == "uint8" else t.to(getattr(torch, dtype))
            cases.append({"name": name, "values": scalar_list(x), "shape": list(x.shape), "dtype": dtype, "repr": repr(x)})
    for name, t in [("bools", torch.tensor([True, False, True])), ("bool 0-dim", torch.tensor(False)), ("bool matrix", torch.tensor([[True], [False]]))]:
        cases.append({"name": name, "values": scalar_list(t), "shape": list(t.shape), "dtype": "bool", "repr": repr(t)})
    for name, t in [("requires grad", torch.tensor([1.0, 2.0], requires_grad=True)), ("requires grad f64", torch.tensor([[1.5]], dtype=torch.float64, requires_grad=True))]:
        cases.append({"name": name, "values": scalar_list(t), "shape": list(t.shape), "dtype": str(t.dtype).removeprefix("torch."), "requires_grad": True, "repr": repr(t)})
    for name, shape, dtype in [("meta", [2, 3], torch.float32), ("meta f64", [4], torch.float64), ("meta int", [], torch.int64)]:
        t = torch.empty(shape, dtype=dtype, device="meta")
        cases.append({"name": name, "values": [], "shape": shape, "dtype": str(dtype).removeprefix("torch."), "device": "meta", "repr": repr(t)})
    write("reprs.json", cases)


def random_numbers():
    """Exact values of the CPU generator after manual_seed, op by op (sequences share the generator)."""
    def run(steps):
        torch.manual_seed(steps[0])
        out = []
        for op, args in steps[1]:
            if op == "rand":
                t = torch.rand(args[0], dtype=getattr(torch, args[1]))
            elif op == "randn":
                t = torch.randn(args[0], dtype=getattr(torch, args[1]))
            elif op == "randint":
                t = torch.randint(args[0], args[1], (args[2],), dtype=getattr(torch, args[3]))
            elif op == "randperm":
                t = torch.randperm(args[0])
            elif op == "uniform_":
                t = torch.empty(args[0]).uniform_(args[1], args[2])
            elif op == "normal_":
                t = torch.empty(args[0], dtype=getattr(torch, args[3])).normal_(args[1], args[2])
            elif op == "normal_t":
                t = torch.empty(args[0], args[1], dtype=getattr(torch, args[4])).t().normal_(args[2], args[3]).flatten()
            elif op == "uniform_step":
                t = torch.empty(args[0], args[1])[:, ::2].uniform_(args[2], args[3]).flatten()
            out.append({"op": op, "args": args, "values": t.tolist()})
        return out
    sequences = []
    for seed in [0, 42, 2**40 + 7]:
        for dtype in ["float32", "float64", "float16", "bfloat16"]:
            for n in [1, 3, 15, 16, 17, 40, 100]:
                sequences.append((seed, [("rand", [n, dtype])]))
                sequences.append((seed, [("randn", [n, dtype])]))
    sequences += [
        (0, [("randn", [3, "float32"]), ("randn", [3, "float32"]), ("randn", [1, "float64"])]),
        (1, [("rand", [5, "float32"]), ("randn", [20, "float32"]), ("rand", [2, "float64"])]),
        (3, [("randint", [0, 10, 20, "int64"]), ("randint", [-5, 5, 7, "int32"]), ("randint", [0, 2**40, 5, "int64"])]),
        (4, [("randperm", [10]), ("randperm", [1]), ("randperm", [0]), ("randperm", [100])]),
        (5, [("uniform_", [6, -2.0, 3.0]), ("normal_", [20, 1.5, 0.5, "float32"]), ("normal_", [4, -1.0, 2.0, "float64"]), ("normal_", [33, 0.5, 2.0, "float64"])]),
        (6, [("randint", [0, 3, 10, "float32"]), ("randint", [0, 100, 4, "uint8"])]),
        # A ragged 16-bit randn consumes its size rounded up to 16 draws.
        # Non-contiguous fills draw in memory order, normal_ through the scalar path at any size.
        (9, [("normal_t", [5, 4, 0.0, 1.0, "float32"]), ("normal_t", [3, 2, 1.0, 2.0, "float64"]), ("uniform_step", [4, 6, -1.0, 1.0]), ("normal_t", [8, 4, 0.0, 1.0, "float16"])]),
        (8, [("randn", [21, "float16"]), ("rand", [2, "float32"]), ("normal_", [37, 0.0, 1.0, "bfloat16"]), ("rand", [1, "float32"])]),
    ]
    write("random.json", [{"seed": seed, "steps": run((seed, steps))} for seed, steps in sequences])


def matmuls():
    """matmul over every rank pairing: values, the node it records, and gradients of sum(out)."""
    torch.manual_seed(7)
    shapes = [([3], [3]), ([2, 3], [3]), ([3], [3, 4]), ([2, 3], [3, 4]), ([5, 2, 3], [3, 4]), ([5, 2, 3], [5, 3, 4]),
              ([2, 1, 2, 3], [4, 3, 2]), ([3], [2, 3, 4]), ([2, 3, 4], [4]), ([2, 3], [4, 5]), ([3], [4]), ([2, 3], [4]),
              ([3], [4, 5]), ([5, 2, 3], [4, 3, 4]), ([2, 3], []), ([0, 3], [3, 2]), ([2, 0], [0, 3])]
    cases = []
    for a_shape, b_shape in shapes:
        a = torch.randn(a_shape, dtype=torch.float64, requires_grad=True)
        b = torch.randn(b_shape, dtype=torch.float64, requires_grad=True)
        case = {"a_shape": a_shape, "b_shape": b_shape, "a": a.reshape(-1).tolist(), "b": b.reshape(-1).tolist()}
        try:
            out = a @ b
            out.sum().backward()
            case.update({"out": out.reshape(-1).tolist(), "out_shape": list(out.shape), "grad_fn": out.grad_fn.name(),
                         "grad_a": a.grad.reshape(-1).tolist(), "grad_b": b.grad.reshape(-1).tolist()})
        except RuntimeError as e:
            case["error"] = str(e)
        cases.append(case)
    write("matmul.json", cases)


def creations():
    """arange, linspace and eye: values and reprs."""
    cases = []
    for args in [(0, 1, 0.1), (5,), (1, 10, 3), (0, -3, -1), (0.5, 3.0, 0.25), (-1.0, 1.0, 0.3)]:
        t = torch.arange(*args)
        cases.append({"op": "arange", "args": list(args), "dtype": str(t.dtype).removeprefix("torch."), "values": t.tolist(), "repr": repr(t)})
    for start, end, steps, dtype in [(0, 1, 5, "float32"), (-1, 1, 30, "float32"), (0, 1, 1, "float32"), (0, 10, 7, "float64"), (3, -2, 11, "float32"), (0, 1, 0, "float32")]:
        t = torch.linspace(start, end, steps, dtype=getattr(torch, dtype))
        cases.append({"op": "linspace", "args": [start, end, steps], "dtype": dtype, "values": t.tolist(), "repr": repr(t)})
    for n, m in [(2, 3), (3, None), (0, 2)]:
        t = torch.eye(n, m) if m is not None else torch.eye(n)
        cases.append({"op": "eye", "args": [n, m], "dtype": "float32", "values": t.reshape(-1).tolist(), "repr": repr(t)})
    write("creation.json", cases)


UNARY_MATH = """
    neg abs exp exp2 expm1 log log2 log10 log1p sqrt rsqrt reciprocal relu sigmoid sin cos tan asin
    acos atan sinh cosh tanh asinh acosh atanh erf erfc erfinv sign sgn floor ceil trunc round frac
    square clamp
""".split()


def encoded(values):
    """Floats as JSON numbers, and the ones JSON has no numbers for as strings."""
    return [v if isinstance(v, (bool, int)) or math.isfinite(v) else str(v) for v in values]


def unary_math():
    """Every unary op of the lab on every dtype, as a function and in place: values, dtype, repr,
    node and the gradient of out.sum(), or PyTorch's error."""
    inputs = {
        "float": [-2.5, -1.0, -0.5, -0.0, 0.0, 0.3, 0.5, 0.99, 1.0, 1.5, 2.5, 7.25],
        "special": [float("nan"), float("inf"), float("-inf"), 1e-8, -1e-8, 88.5, 1e30],
        "int": [-3, -1, 0, 1, 2, 5],
        "uint8": [0, 1, 2, 5, 200],
        "bool": [True, False],
    }
    cases = []
    for op in UNARY_MATH:
        for dtype in DTYPES:
            kind = "bool" if dtype == "bool" else "uint8" if dtype == "uint8" else "int" if dtype.startswith("int") else "float"
            for values_name in (["float", "special"] if kind == "float" else [kind]):
                values = inputs[values_name]
                for inplace in (False, True):
                    def run():
                        differentiable = dtype in ("float32", "float64") and not inplace
                        x = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=differentiable)
                        source = x.clone() if inplace else x
                        bounds = (-0.5, 1.0) if op == "clamp" else ()
                        out = getattr(source, op + "_")(*bounds) if inplace else getattr(torch, op)(source, *bounds)
                        # detach(): `sgn`'s output refuses tolist() while it has a grad_fn (torch 2.15).
                        result = {"values": encoded(out.detach().tolist()), "dtype": str(out.dtype), "repr": repr(out)}
                        if differentiable:
                            result["grad_fn"] = out.grad_fn.name()
                            out.sum().backward()
                            # `+ 0`: the gradient of sgn is a ZeroTensor, which has no storage to list.
                            result["grad"] = encoded((x.grad + 0).tolist())
                        return result
                    cases.append({"op": op, "dtype": dtype, "inplace": inplace, "x": encoded(values), **outcome(run)})
    for decimals in (2, -1):
        for dtype in ("float32", "float64", "int64"):
            def run():
                x = torch.tensor(inputs["float"] if dtype != "int64" else [123, -456], dtype=getattr(torch, dtype), requires_grad=dtype != "int64")
                out = torch.round(x, decimals=decimals)
                return {"values": encoded(out.tolist()), "dtype": str(out.dtype), "repr": repr(out), "grad_fn": out.grad_fn.name() if out.grad_fn else None}
            cases.append({"op": "round", "decimals": decimals, "dtype": dtype, **outcome(run)})
    write("unary_math.json", cases)

BINARY_MATH = "atan2 hypot fmod remainder fmax fmin maximum minimum copysign float_power pow true_divide floor_divide div_trunc div_floor xlogy".split()


def binary_math():
    """Binary math on pairs of dtypes and with a Python number: values, dtype, repr, node and
    both gradients of out.sum(), or PyTorch's error."""
    floats_a = [-2.5, -1.0, -0.0, 0.0, 0.5, 3.0, 7.25, float("inf"), float("nan"), 1e-30]
    floats_b = [1.5, -2.0, 2.0, -0.0, 0.25, 2.0, -3.0, 1.0, 1.0, 1e-30]
    ints_a = [-7, -1, 0, 3, 7, 5, 2, 9, -4, 6]
    ints_b = [2, -3, 5, 2, -2, 1, 3, 4, 3, -5]
    pairs = [("float32", "float32"), ("float64", "float64"), ("float16", "float16"), ("bfloat16", "bfloat16"),
             ("int64", "int64"), ("int32", "int64"), ("uint8", "uint8"), ("bool", "bool"),
             ("float32", "int64"), ("int64", "float32"), ("float32", "float64")]
    def make(values, dtype, grad):
        if dtype == "bool":
            values = [v != 0 and v == v for v in values]
        elif dtype == "uint8":
            values = [abs(int(v)) for v in values]
        return torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=grad)

    def call(op, a, b):
        if op == "div_trunc":
            return torch.div(a, b, rounding_mode="trunc")
        if op == "div_floor":
            return torch.div(a, b, rounding_mode="floor")
        return getattr(torch, op)(a, b)

    cases = []
    for op in BINARY_MATH:
        for da, db in pairs:
            floating = lambda d: "float" in d
            integral = not (floating(da) or floating(db))
            va = floats_a if floating(da) else ints_a
            vb = floats_b if floating(db) else ints_b
            for other in ("tensor", "scalar"):
                if other == "scalar" and db != da:
                    continue
                def run():
                    grad = da in ("float32", "float64") and db in ("float32", "float64")
                    a = make(va, da, grad)
                    b = make(vb, db, grad and other == "tensor") if other == "tensor" else (2 if integral else 1.5)
                    out = call(op, a, b)
                    result = {"values": encoded(out.detach().tolist()), "dtype": str(out.dtype), "repr": repr(out)}
                    if grad and out.grad_fn is not None:
                        result["grad_fn"] = out.grad_fn.name()
                        try:
                            out.sum().backward()
                            result["grad_a"] = encoded((a.grad + 0).tolist())
                            if other == "tensor":
                                result["grad_b"] = encoded((b.grad + 0).tolist()) if b.grad is not None else None
                        except Exception as e:  # noqa: BLE001
                            result["backward_error"] = f"{type(e).__name__}: {e}"
                    return result
                a_values = va
                b_values = vb if other == "tensor" else None
                cases.append({"op": op, "a": [da, encoded(a_values)], "b": [db, encoded(b_values)] if b_values is not None else ["scalar", 2 if integral else 1.5], **outcome(run)})
    write("binary_math.json", cases)



def device_checks():
    """The CUDA kernels that check their tensor arguments' devices one by one, as torchgen
    (shipped in the wheel) generates them from native_functions.yaml: each op's wrapper name, which
    the error names, and the arguments it checks, in order (aten/src/ATen/core/adaption.cpp raises
    "but got <argument> is on <device>, different from other tensors on <common>")."""
    import os
    import torchgen
    from torchgen.api.types import DispatcherSignature, NativeSignature
    from torchgen.gen import parse_native_yaml
    from torchgen.model import DeviceCheckType

    native = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    parsed = parse_native_yaml(os.path.join(native, "native_functions.yaml"), os.path.join(native, "tags.yaml"))
    functions = {str(f.func.name): f for f in parsed.native_functions}
    cases = []
    for name in ["mm", "addmm", "bmm", "mv", "dot", "index_select", "gather", "nll_loss_forward", "nll_loss2d_forward", "cat", "mse_loss", "where.self", "masked_fill_.Scalar", "index.Tensor"]:
        f = functions[name]
        if f.structured or f.structured_delegate is not None:
            method = NativeSignature(f.func, prefix="wrapper_CUDA_", symint=False).name()
        else:
            method = DispatcherSignature.from_schema(f.func, prefix=f"wrapper_CUDA_{f.func.name.overload_name}_").name()
        arguments = [a.name for a in [*f.func.arguments.out, *f.func.arguments.flat_positional] if a.type.is_tensor_like()]
        cases.append({"op": name, "checks": f.device_check == DeviceCheckType.ExactSame, "method": method, "arguments": arguments})
    write("device_checks.json", cases)



def reductions():
    """softmax, log_softmax, max/min (all and by dim), argmax and prod: values, nodes, gradients."""
    x = [[1.0, 3.0, 3.0], [-2.0, 0.5, 4.0]]
    weights = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    cases = []
    for op in ["softmax0", "softmax1", "log_softmax1", "max", "min", "max_dim1", "min_dim0", "max_dim1_keep", "prod", "argmax", "argmax_dim1"]:
        t = torch.tensor(x, requires_grad=True)
        w = torch.tensor(weights)
        out = {
            "softmax0": lambda: t.softmax(0), "softmax1": lambda: t.softmax(1), "log_softmax1": lambda: t.log_softmax(1),
            "max": lambda: t.max(), "min": lambda: t.min(), "max_dim1": lambda: t.max(1)[0], "min_dim0": lambda: t.min(0)[0],
            "max_dim1_keep": lambda: t.max(1, keepdim=True)[0], "prod": lambda: t.prod(), "argmax": lambda: t.argmax(),
            "argmax_dim1": lambda: t.argmax(1),
        }[op]()
        case = {"op": op, "x": x, "out": out.tolist(), "shape": list(out.shape), "grad_fn": out.grad_fn.name() if out.grad_fn else None}
        if op == "max_dim1":
            case["indices"] = t.max(1)[1].tolist()
        if out.requires_grad:
            (out * w[: out.shape[0]] if out.dim() == 2 and out.shape[1] == 3 else out).sum().backward()
            case["grad"] = t.grad.tolist()
        cases.append(case)
    write("reductions.json", cases)


def order_statistics():
    """sort, topk, kthvalue, median, nanmedian and mode on rows full of ties (and NaNs), from 1
    to 300 long: the indices show the order PyTorch's CPU algorithms leave equal values in."""
    gen = torch.Generator().manual_seed(0)
    cases = []
    for n in [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 18, 31, 33, 64, 65, 100, 129, 200, 300]:
        ints = torch.randint(0, 4, (n,), generator=gen)
        floats = torch.randint(0, 5, (n,), generator=gen).float()
        floats[torch.rand(n, generator=gen) < 0.15] = float("nan")
        for name, t in (("ints", ints), ("floats", floats)):
            case = {"n": n, "kind": name, "input": encoded(t.tolist()), "ops": {}}
            ops = case["ops"]
            for descending in (False, True):
                for stable in (False, True):
                    r = torch.sort(t, descending=descending, stable=stable)
                    ops[f"sort descending={descending} stable={stable}"] = r.indices.tolist()
            for k in sorted({1, 2, max(1, n // 64), max(1, n // 3), n}):
                if k > n:
                    continue
                for largest in (True, False):
                    for sorted_ in (True, False):
                        r = torch.topk(t, k, largest=largest, sorted=sorted_)
                        ops[f"topk k={k} largest={largest} sorted={sorted_}"] = r.indices.tolist()
                r = torch.kthvalue(t, k)
                ops[f"kthvalue k={k}"] = [encoded([r.values.item()])[0], r.indices.item()]
            for fn in ("median", "nanmedian", "mode"):
                r = getattr(torch, fn)(t, 0)
                ops[fn] = [encoded([r.values.item()])[0], r.indices.item()]
            cases.append(case)
    write("order_statistics.json", cases)


def indexing():
    """cat, stack, where, gather, index_select, masked_fill: values, nodes, gradients and errors."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = torch.tensor([[7.0, 8.0, 9.0]], requires_grad=True)
    cases = []
    def case(name, fn, grads=True):
        x.grad = None
        y.grad = None
        try:
            out = fn()
            entry = {"name": name, "out": out.tolist(), "shape": list(out.shape), "grad_fn": out.grad_fn.name() if out.grad_fn else None}
            if grads:
                (out * torch.arange(1.0, out.numel() + 1).reshape(out.shape)).sum().backward()
                entry["grad_x"] = x.grad.tolist() if x.grad is not None else None
                entry["grad_y"] = y.grad.tolist() if y.grad is not None else None
        except Exception as e:  # noqa: BLE001
            entry = {"name": name, "error": type(e).__name__, "message": str(e)}
        cases.append(entry)
    case("cat0", lambda: torch.cat([x, y], 0))
    case("cat1", lambda: torch.cat([x, x], 1))
    case("stack0", lambda: torch.stack([x, x * 2], 0))
    case("stack2", lambda: torch.stack([x, x], 2))
    case("where", lambda: torch.where(x > 2.5, x, y))
    case("gather1", lambda: x.gather(1, torch.tensor([[2, 0], [1, 1]])))
    case("gather0", lambda: x.gather(0, torch.tensor([[1, 0, 1]])))
    case("index_select0", lambda: x.index_select(0, torch.tensor([1, 1, 0])))
    case("index_select1", lambda: x.index_select(1, torch.tensor([2])))
    case("masked_fill", lambda: x.masked_fill(x > 3.5, -1.0))
    case("gather_oob", lambda: x.gather(1, torch.tensor([[0, 5], [1, 2]])))
    case("index_select_oob", lambda: x.index_select(0, torch.tensor([3])))
    case("cat_sizes", lambda: torch.cat([x, torch.ones(2, 2)]))
    case("cat_dims", lambda: torch.cat([x, torch.ones(3)]))
    case("stack_sizes", lambda: torch.stack([x, y]))
    case("where_cond", lambda: torch.where(torch.ones(2, 3), x, y))
    case("masked_fill_mask", lambda: x.masked_fill(torch.ones(2, 3, dtype=torch.long), 0.0))
    write("indexing.json", cases)


def values(t):
    return t.detach().flatten().tolist()


def grad_name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def nn_library():
    """torch.nn and torch.optim: default initialisation, reprs, graph names, loss values and
    gradients, dropout masks, PyTorch's errors and warnings, and whole training runs."""
    import warnings
    import torch.nn as nn
    import torch.nn.functional as F
    out = {}

    torch.manual_seed(0)
    lin = nn.Linear(3, 2)
    torch.manual_seed(1)
    seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 3, bias=False))
    out["init"] = {
        "linear_seed0": {"weight": values(lin.weight), "bias": values(lin.bias)},
        "sequential_seed1": {k: values(v) for k, v in seq.state_dict().items()},
    }
    nested = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)), nn.Flatten(), nn.Sigmoid(), nn.Tanh())
    out["reprs"] = {
        "sequential": repr(seq),
        "nested": repr(nested),
        "losses": [repr(m) for m in [nn.MSELoss(), nn.CrossEntropyLoss(), nn.NLLLoss(), nn.BCEWithLogitsLoss()]],
        "parameter": repr(lin.bias),
        "nested_state_keys": list(nested.state_dict().keys()),
        "nested_module_names": [n for n, _ in nested.named_modules()],
        "nested_parameter_names": [n for n, _ in nested.named_parameters()],
        "sgd": repr(torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)),
        "adam": repr(torch.optim.Adam(lin.parameters())),
        "adamw": repr(torch.optim.AdamW(lin.parameters(), lr=0.01)),
        "load_ok": repr(lin.load_state_dict(lin.state_dict())),
        "load_not_strict": repr(lin.load_state_dict({"weight": lin.weight.detach()}, strict=False)),
    }

    x2 = torch.randn(4, 3)
    names = {
        "linear_2d": grad_name(lin(x2)),
        "linear_1d": grad_name(lin(torch.randn(3))),
        "linear_3d": grad_name(lin(torch.randn(2, 4, 3))),
        "linear_no_bias": grad_name(nn.Linear(3, 2, bias=False)(x2)),
        "linear_2d_next": [None if f is None else type(f).__name__ for f, _ in lin(x2).grad_fn.next_functions],
        "mse": grad_name(F.mse_loss(lin(x2), torch.zeros(4, 2))),
        "cross_entropy": grad_name(F.cross_entropy(lin(x2), torch.tensor([0, 1, 1, 0]))),
        "cross_entropy_next": type(F.cross_entropy(lin(x2), torch.tensor([0, 1, 1, 0])).grad_fn.next_functions[0][0]).__name__,
        "bce": grad_name(F.binary_cross_entropy_with_logits(lin(x2), torch.zeros(4, 2))),
        "dropout": grad_name(F.dropout(lin(x2), 0.5)),
        "relu": grad_name(F.relu(lin(x2))),
    }
    out["names"] = names

    torch.manual_seed(3)
    logits = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    target = torch.tensor([0, 3, 1, 2, 3])
    regress = torch.randn(5, 4, dtype=torch.float64)
    probs_target = torch.rand(5, 4, dtype=torch.float64)
    losses = []
    for name, fn in [
        ("cross_entropy_mean", lambda: F.cross_entropy(logits, target)),
        ("cross_entropy_sum", lambda: F.cross_entropy(logits, target, reduction="sum")),
        ("cross_entropy_ignore", lambda: F.cross_entropy(logits, torch.tensor([0, -100, 1, 2, -100]))),
        ("nll_mean", lambda: F.nll_loss(logits, target)),
        ("mse_mean", lambda: F.mse_loss(logits, regress)),
        ("mse_sum", lambda: F.mse_loss(logits, regress, reduction="sum")),
        ("bce_mean", lambda: F.binary_cross_entropy_with_logits(logits, probs_target)),
        ("bce_sum", lambda: F.binary_cross_entropy_with_logits(logits, probs_target, reduction="sum")),
    ]:
        logits.grad = None
        loss = fn()
        loss.backward()
        losses.append({"name": name, "value": loss.item(), "grad": values(logits.grad)})
    none_loss = F.cross_entropy(logits, target, reduction="none")
    losses.append({"name": "cross_entropy_none", "values": values(none_loss)})
    out["losses"] = {"logits": values(logits), "target": target.tolist(), "regress": values(regress), "probs_target": values(probs_target), "cases": losses}

    masks = []
    for seed, n, p in [(0, 10, 0.5), (42, 37, 0.2), (7, 100, 0.9)]:
        torch.manual_seed(seed)
        masks.append({"seed": seed, "n": n, "p": p, "values": values(F.dropout(torch.ones(n), p)), "next_rand": torch.rand(1).item()})
    out["dropout"] = masks

    def errors_and_warnings():
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("b", torch.zeros(1))
        m = M()
        l = nn.Linear(3, 2)
        cases = {
            "missing": lambda: l.load_state_dict({"weight": torch.zeros(2, 3)}),
            "unexpected": lambda: l.load_state_dict({"weight": torch.zeros(2, 3), "bias": torch.zeros(2), "extra": torch.zeros(1), "more": torch.zeros(1)}),
            "size_mismatch": lambda: l.load_state_dict({"weight": torch.zeros(3, 3), "bias": torch.zeros(2)}),
            "missing_and_size": lambda: l.load_state_dict({"weight": torch.zeros(3, 3)}),
            "nested_missing": lambda: nn.Sequential(nn.Linear(3, 2), nn.ReLU()).load_state_dict({"0.weight": torch.zeros(2, 3)}),
            "to_int": lambda: l.to(torch.int64),
            "assign_tensor_to_parameter": lambda: setattr(l, "weight", torch.zeros(2, 3)),
            "assign_int_to_buffer": lambda: setattr(m, "b", 3),
            "missing_forward": lambda: m(torch.zeros(1)),
            "non_leaf": lambda: torch.optim.SGD([torch.randn(3, requires_grad=True) * 2], lr=0.1),
            "empty": lambda: torch.optim.SGD([], lr=0.1),
            "negative_lr": lambda: torch.optim.SGD(l.parameters(), lr=-1),
            "nesterov": lambda: torch.optim.SGD(l.parameters(), lr=0.1, nesterov=True),
            "beta": lambda: torch.optim.Adam(l.parameters(), betas=(1.0, 0.9)),
            "linear_shapes": lambda: l(torch.zeros(4, 4)),
            "linear_shapes_1d": lambda: l(torch.zeros(4)),
            "linear_dtype": lambda: l(torch.zeros(4, 3, dtype=torch.float64)),
            "target_bounds": lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 5])),
            "target_negative": lambda: F.nll_loss(torch.zeros(2, 3), torch.tensor([0, -3])),
            "target_dtype": lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([0.0, 1.0])),
            "batch_sizes": lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1, 2])),
            "bce_sizes": lambda: F.binary_cross_entropy_with_logits(torch.zeros(4, 2), torch.zeros(4)),
            "dropout_p": lambda: nn.Dropout(1.5),
            "loss_arity": lambda: nn.MSELoss()(torch.zeros(2)),
            "layer_arity": lambda: nn.Linear(3, 2)(torch.zeros(3), torch.zeros(3)),
            "nll_1d_target": lambda: F.nll_loss(torch.zeros(3), torch.tensor([0, 1, 2])),
            "nll_multi_target": lambda: F.nll_loss(torch.zeros(2, 3), torch.zeros(2, 2, dtype=torch.long)),
        }
        result = {name: outcome(fn) for name, fn in cases.items()}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            F.mse_loss(torch.zeros(4, 1), torch.zeros(4))
        result["mse_broadcast_warning"] = [str(w.message) for w in caught]
        return result
    out["errors"] = errors_and_warnings()

    # Training runs: a 4-8-3 MLP from committed weights on a fixed dataset, 200 full-batch steps.
    torch.manual_seed(11)
    data = torch.randn(32, 4)
    labels = (data[:, 0] + 2 * data[:, 1] > 0).long() + (data[:, 2] > 0.5).long()
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    start = {k: v.clone() for k, v in model.state_dict().items()}
    runs = []
    for name, make, loss_name in [
        ("sgd_momentum", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), "cross_entropy"),
        ("sgd_nesterov_decay", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3), "cross_entropy"),
        ("adam", lambda p: torch.optim.Adam(p, lr=0.01), "cross_entropy"),
        ("adamw_mse", lambda p: torch.optim.AdamW(p, lr=0.01), "mse"),
    ]:
        model.load_state_dict(start)
        opt = make(model.parameters())
        history = []
        for _ in range(200):
            opt.zero_grad()
            scores = model(data)
            if loss_name == "mse":
                loss = F.mse_loss(scores, F.one_hot(labels, 3).float())
            else:
                loss = F.cross_entropy(scores, labels)
            loss.backward()
            opt.step()
            history.append(loss.item())
        runs.append({"name": name, "losses": history})
    out["training"] = {
        "data": values(data),
        "labels": labels.tolist(),
        "start": {k: values(v) for k, v in start.items()},
        "runs": runs,
    }
    write("nn.json", out)


class Net(torch.nn.Module):
    """A learner's model, saved whole (pickled by its name, `__main__.Net`)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 1)


class _RandomRows(torch.utils.data.Dataset):
    """Each item draws from the generator of whichever process fetches it."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return torch.rand(2)


def data_loading():
    """DataLoader batches in PyTorch's order: shuffles with and without a generator, drop_last,
    collation of tensors and numbers, worker seeding, and what each epoch leaves in the global
    generator."""
    import warnings
    from torch.utils.data import DataLoader, TensorDataset
    out = {}
    features = torch.arange(10, dtype=torch.float32)
    labels = torch.arange(10) * 10
    dataset = TensorDataset(features, labels)

    def epochs(loader, n=2):
        result = []
        for _ in range(n):
            result.append([[values(x), y.tolist()] for x, y in loader])
        return result

    torch.manual_seed(0)
    out["shuffle_global"] = {"epochs": epochs(DataLoader(dataset, batch_size=3, shuffle=True)), "next_rand": torch.rand(1).item()}
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(5)
    out["shuffle_generator_drop_last"] = {"epochs": epochs(DataLoader(dataset, batch_size=4, shuffle=True, drop_last=True, generator=g)), "next_rand": torch.rand(1).item()}
    torch.manual_seed(0)
    out["sequential"] = {"epochs": epochs(DataLoader(dataset, batch_size=4), 1), "next_rand": torch.rand(1).item(), "len": len(DataLoader(dataset, batch_size=4)), "len_drop_last": len(DataLoader(dataset, batch_size=4, drop_last=True))}

    pairs = [(0.5 * i, i) for i in range(5)]
    batch = next(iter(DataLoader(pairs, batch_size=5)))
    out["numbers"] = {"types": [str(t.dtype).removeprefix("torch.") for t in batch], "values": [t.tolist() for t in batch]}

    torch.manual_seed(0)
    rows = [values(b) for b in DataLoader(_RandomRows(), batch_size=2, num_workers=2)]
    out["workers"] = {"batches": rows, "next_rand": torch.rand(1).item()}

    errors = {
        "tensor_dataset_sizes": outcome(lambda: TensorDataset(torch.zeros(3), torch.zeros(4))),
        "batch_size_zero": outcome(lambda: DataLoader(dataset, batch_size=0)),
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        iter(DataLoader(dataset, pin_memory=True))
        errors["pin_memory_warning"] = [str(w.message) for w in caught]
    out["errors"] = errors
    from torch.utils.data import DistributedSampler
    samplers = []
    for n, replicas, shuffle, drop_last in [(10, 3, True, False), (10, 3, False, False), (10, 3, True, True), (2, 3, True, False)]:
        for epoch in [0, 1]:
            for rank in range(replicas):
                sampler = DistributedSampler(range(n), num_replicas=replicas, rank=rank, shuffle=shuffle, seed=7, drop_last=drop_last)
                sampler.set_epoch(epoch)
                samplers.append({"n": n, "replicas": replicas, "rank": rank, "shuffle": shuffle, "drop_last": drop_last, "epoch": epoch, "indices": list(sampler), "len": len(sampler)})
    out["distributed_sampler"] = samplers
    out["errors"]["sampler_with_shuffle"] = outcome(lambda: DataLoader(dataset, shuffle=True, sampler=DistributedSampler(dataset, num_replicas=2, rank=0)))
    write("data.json", out)


def mixed_precision():
    """torch.autocast on the CPU (the dtype each op returns inside a region, the graph of a cast
    linear layer) and GradScaler's scale over steps, one of which overflows."""
    import warnings
    import torch.nn.functional as F
    out = {}
    a, b = torch.randn(4, 4), torch.randn(4, 4)
    t = torch.tensor([0, 1, 2, 3])
    cases = {}
    for dtype in [torch.bfloat16, torch.float16]:
        h = a.to(dtype)
        with torch.autocast("cpu", dtype=dtype):
            cases[str(dtype).removeprefix("torch.")] = {
                "mm": str(torch.mm(a, b).dtype), "matmul": str((a @ b).dtype), "addmm": str(torch.addmm(a[0], a, b).dtype),
                "bmm": str(torch.bmm(a[None], b[None]).dtype), "mv": str(torch.mv(a, b[0]).dtype),
                "linear": str(F.linear(a, b, b[0]).dtype), "mm_float64": str(torch.mm(a.double(), b.double()).dtype),
                "sum": str(h.sum().dtype), "prod": str(h.prod().dtype), "softmax": str(h.softmax(0).dtype),
                "exp": str(h.exp().dtype), "add_mixed": str((h + a).dtype), "relu": str(h.relu().dtype),
                "mse_loss": str(F.mse_loss(h, h).dtype), "cross_entropy": str(F.cross_entropy(h, t).dtype),
                "nll_loss": str(F.nll_loss(h, t).dtype), "bce_with_logits": str(F.binary_cross_entropy_with_logits(h, h).dtype),
            }
    out["dtypes"] = cases
    lin = torch.nn.Linear(4, 2)
    x = torch.randn(3, 4, requires_grad=True)
    with torch.autocast("cpu"):
        z = lin(x)
    nodes = []
    for f, _ in z.grad_fn.next_functions:
        nodes.append([type(f).__name__, [type(g).__name__ if g is not None else None for g, _ in f.next_functions]])
    out["linear_graph"] = {"root": type(z.grad_fn).__name__, "inputs": nodes}
    z.float().sum().backward()
    out["linear_graph"]["weight_grad_dtype"] = str(lin.weight.grad.dtype)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autocast("cpu", dtype=torch.float32):
            pass
        out["unsupported_dtype_warning"] = [str(w.message) for w in caught]
    out["bad_device"] = outcome(lambda: torch.autocast("gpu"))

    torch.manual_seed(2)
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
    data = torch.randn(8, 3)
    steps = []
    for i in range(6):
        opt.zero_grad()
        loss = model(data).pow(2).mean()
        if i == 2:
            loss = loss * float("inf")
        before = model.weight.detach().clone()
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.step(opt)
        scaler.update()
        steps.append({"scaled_loss_is_finite": bool(torch.isfinite(scaled).item()), "stepped": not torch.equal(before, model.weight.detach()), "scale": scaler.get_scale(), "weight": values(model.weight)})
    out["scaler"] = {"start": {k: values(v) for k, v in torch.nn.Linear(3, 1).state_dict().items()}, "steps": steps}
    torch.manual_seed(2)
    fresh = torch.nn.Linear(3, 1)
    out["scaler"]["start"] = {k: values(v) for k, v in fresh.state_dict().items()}
    out["scaler"]["data"] = values(data)
    def errors():
        m = torch.nn.Linear(2, 1)
        o = torch.optim.SGD(m.parameters(), lr=0.1)
        sc = torch.amp.GradScaler("cpu")
        sc.scale(m(torch.ones(1, 2)).sum()).backward()
        sc.unscale_(o)
        twice = outcome(lambda: sc.unscale_(o))
        sc.step(o)
        step_twice = outcome(lambda: sc.step(o))
        after_step = outcome(lambda: sc.unscale_(o))
        sc.update()
        no_checks = outcome(lambda: sc.update())
        return {"unscale_twice": twice, "step_twice": step_twice, "unscale_after_step": after_step, "update_without_checks": no_checks}
    out["scaler_errors"] = errors()
    write("amp.json", out)


def layers():
    """Conv2d, Embedding and LayerNorm: default initialisation, reprs, values and gradients in
    float64, the nodes they record, and their errors."""
    import torch.nn as nn
    import torch.nn.functional as F
    out = {}
    torch.manual_seed(0)
    conv = nn.Conv2d(3, 4, 3)
    emb = nn.Embedding(6, 3, padding_idx=1)
    out["init"] = {"conv_weight": values(conv.weight), "conv_bias": values(conv.bias), "embedding": values(emb.weight)}
    out["reprs"] = [repr(m) for m in [
        nn.Conv2d(3, 8, 3), nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, dilation=2, bias=False),
        nn.Conv2d(4, 8, 3, groups=2, padding="same"), nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=-1),
        nn.LayerNorm(4), nn.LayerNorm([2, 4], elementwise_affine=False), nn.LayerNorm(4, bias=False),
    ]]
    torch.manual_seed(4)
    convs = []
    for name, shape, wshape, kwargs in [
        ("plain", (2, 3, 6, 5), (4, 3, 3, 3), {}),
        ("strided_padded", (1, 2, 7, 7), (3, 2, 3, 2), {"stride": 2, "padding": 1}),
        ("dilated_grouped", (2, 4, 8, 8), (6, 2, 3, 3), {"dilation": 2, "groups": 2}),
        ("same_even_kernel", (1, 2, 5, 6), (2, 2, 2, 4), {"padding": "same"}),
        ("unbatched", (3, 5, 5), (2, 3, 3, 3), {"padding": 1}),
    ]:
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        w = torch.randn(wshape, dtype=torch.float64, requires_grad=True)
        b = torch.randn(wshape[0], dtype=torch.float64, requires_grad=True)
        y = F.conv2d(x, w, b, **kwargs)
        weights = torch.randn(y.shape, dtype=torch.float64)
        (y * weights).sum().backward()
        kw = dict(kwargs)
        convs.append({"name": name, "x": values(x), "x_shape": list(shape), "w": values(w), "w_shape": list(wshape), "b": values(b),
                      "kwargs": kw, "y": values(y), "y_shape": list(y.shape), "weights": values(weights), "grad_fn": type(y.grad_fn).__name__,
                      "dx": values(x.grad), "dw": values(w.grad), "db": values(b.grad)})
    out["conv"] = convs
    w = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
    idx = torch.tensor([[0, 2], [4, 2]])
    e = F.embedding(idx, w, padding_idx=2)
    ew = torch.randn(e.shape, dtype=torch.float64)
    (e * ew).sum().backward()
    out["embedding"] = {"w": values(w), "indices": idx.tolist(), "y": values(e), "weights": values(ew), "dw": values(w.grad), "grad_fn": type(e.grad_fn).__name__}
    x = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
    lw = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
    lb = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
    y = F.layer_norm(x, (2, 4), lw, lb, eps=1e-5)
    yw = torch.randn(y.shape, dtype=torch.float64)
    (y * yw).sum().backward()
    out["layer_norm"] = {"x": values(x), "w": values(lw), "b": values(lb), "y": values(y), "weights": values(yw), "dx": values(x.grad), "dw": values(lw.grad), "db": values(lb.grad), "grad_fn": type(y.grad_fn).__name__}
    wt = torch.zeros(8, 3, 3, 3)
    out["errors"] = {
        "channels": outcome(lambda: F.conv2d(torch.zeros(1, 4, 5, 5), wt)),
        "too_small": outcome(lambda: F.conv2d(torch.zeros(1, 3, 2, 2), wt)),
        "bias": outcome(lambda: F.conv2d(torch.zeros(1, 3, 5, 5), wt, torch.zeros(7))),
        "input_dims": outcome(lambda: F.conv2d(torch.zeros(5, 5), wt)),
        "groups": outcome(lambda: F.conv2d(torch.zeros(1, 4, 5, 5), torch.zeros(8, 2, 3, 3), groups=3)),
        "same_strided": outcome(lambda: F.conv2d(torch.zeros(1, 3, 5, 5), wt, stride=2, padding="same")),
        "embedding_range": outcome(lambda: F.embedding(torch.tensor([11]), torch.zeros(10, 3))),
        "embedding_dtype": outcome(lambda: F.embedding(torch.tensor([1.0]), torch.zeros(10, 3))),
        "layer_norm_shape": outcome(lambda: F.layer_norm(torch.zeros(2, 3), (4,))),
        "layer_norm_weight": outcome(lambda: F.layer_norm(torch.zeros(2, 4), (4,), torch.zeros(3))),
        "layer_norm_bias": outcome(lambda: F.layer_norm(torch.zeros(2, 4), (4,), None, torch.zeros(3))),
        "embedding_weight": outcome(lambda: F.embedding(torch.tensor([1]), torch.zeros(3))),
    }
    dp = nn.DataParallel(nn.Linear(3, 2))
    out["data_parallel"] = {
        "repr": repr(dp),
        "state_keys": list(dp.state_dict().keys()),
        "load_into_plain": outcome(lambda: nn.Linear(3, 2).load_state_dict(dp.state_dict())),
    }
    import tempfile
    weights_only = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, model in [("sequential", nn.Sequential(nn.Linear(3, 2), nn.ReLU())), ("custom", Net())]:
            path = f"{tmp}/{name}.pt"
            torch.save(model, path)
            weights_only[name] = outcome(lambda: torch.load(path))
    out["weights_only"] = weights_only
    init = {}
    torch.manual_seed(5)
    for name, fill in [
        ("kaiming_uniform_relu_fan_out", lambda w: nn.init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu")),
        ("kaiming_normal", lambda w: nn.init.kaiming_normal_(w)),
        ("xavier_uniform_tanh", lambda w: nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("tanh"))),
        ("xavier_normal", lambda w: nn.init.xavier_normal_(w)),
        ("zeros", nn.init.zeros_),
        ("ones", nn.init.ones_),
    ]:
        w = torch.empty(5, 4)
        fill(w)
        init[name] = values(w)
    big = torch.empty(8, 3, 3, 3)
    nn.init.kaiming_normal_(big, nonlinearity="relu")
    init["kaiming_normal_conv"] = values(big)
    init["gains"] = {n: nn.init.calculate_gain(n) for n in ["linear", "sigmoid", "tanh", "relu", "leaky_relu", "selu"]}
    init["errors"] = {
        "vector": outcome(lambda: nn.init.kaiming_uniform_(torch.empty(3))),
        "mode": outcome(lambda: nn.init.kaiming_normal_(torch.empty(3, 3), mode="fan_mid")),
        "nonlinearity": outcome(lambda: nn.init.calculate_gain("swish")),
    }
    out["init_functions"] = init
    write("layers.json", out)


if __name__ == "__main__":
    assert torch.__version__.startswith("2.15"), torch.__version__
    # `generate.py NAME ...` writes only those files (each function writes one).
    if sys.argv[1:]:
        for name in sys.argv[1:]:
            globals()[name]()
        sys.exit()
    devices()
    promotion()
    layouts()
    broadcasting()
    reprs()
    random_numbers()
    matmuls()
    creations()
    unary_math()
    binary_math()
    device_checks()
    reductions()
    order_statistics()
    indexing()
    nn_library()
    data_loading()
    mixed_precision()
    layers()
