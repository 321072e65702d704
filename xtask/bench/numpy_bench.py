"""numpy's figures for `cargo xtask bench`, measured like the engine's (median after a warm-up).

Run single-threaded by xtask (OPENBLAS_NUM_THREADS=1 and friends); prints one JSON object.
"""

import json
import time

import numpy as np


def median_seconds(repetitions, run):
    run()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


rng = np.random.default_rng(0)
out = {}
for n in (64, 256, 1024):
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    seconds = median_seconds(5 if n >= 1024 else 20, lambda: a @ b)
    out[f"matmul_{n}_gflops"] = round(2 * n**3 / seconds / 1e9, 3)
for n in (1 << 20, 1 << 24):
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    seconds = median_seconds(5 if n > 1 << 20 else 20, lambda: a + b)
    out[f"add_{n}_gbs"] = round(3 * 4 * n / seconds / 1e9, 3)
a = rng.random(4, dtype=np.float32)
b = rng.random(4, dtype=np.float32)
calls = 10_000


def many():
    for _ in range(calls):
        a + b


out["small_op_us"] = round(median_seconds(5, many) / calls * 1e6, 3)
print(json.dumps(out))
