"""CPython's figures for the interpreter rows of `cargo xtask bench`: the same cell files run by
`exec` (compiled each time, as the lab parses each run), median after a warm-up, in
milliseconds; the tensor cell only when PyTorch is installed for this Python. One JSON object.
"""

import json
import pathlib
import time

HERE = pathlib.Path(__file__).parent / "cells"


def median_ms(source, repetitions=15):
    def run():
        start = time.perf_counter()
        exec(compile(source, "<bench>", "exec"), {})
        return (time.perf_counter() - start) * 1000

    run()
    times = sorted(run() for _ in range(repetitions))
    return times[len(times) // 2]


out = {
    "scalar_loop_10k_ms": round(median_ms((HERE / "scalar_loop.py").read_text()), 4),
    "call_heavy_2k_ms": round(median_ms((HERE / "call_heavy.py").read_text()), 4),
}
try:
    import torch  # noqa: F401

    torch.set_num_threads(1)
    out["tensor_ops_1k_ms"] = round(median_ms((HERE / "tensor_ops.py").read_text()), 4)
except ImportError:
    pass
print(json.dumps(out))
