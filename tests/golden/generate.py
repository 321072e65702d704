"""Generates the golden files the engine's tests compare against, from real PyTorch on the CPU.

Run once with PyTorch 2.15 installed (`pip install torch==2.15.0`):

    python3 tests/golden/generate.py

and commit the JSON files it writes next to itself. The tests never import torch: they read these
files. CUDA-only behaviour cannot be generated on a machine without CUDA; the engine's tests write
those cases from PyTorch's documented behaviour and source, naming the source.
"""

import json
import pathlib

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


if __name__ == "__main__":
    assert torch.__version__.startswith("2.15"), torch.__version__
    devices()
    promotion()
