"""The expected printing of the lab's numpy, from real NumPy 2.4: `repr` and `str` of many
arrays and scalars (every dtype the lab has, magnitudes that switch NumPy to scientific
notation, wide rows that wrap at 75 characters, more than 1000 elements summarised with
`...`, empty and 0-d arrays, NumPy scalars), and the public names of NumPy, so that the lab
can tell "NumPy has it, the lab does not yet" from a typo.

    /work/venv-torch/bin/python tests/golden/numpy_generate.py

writes
  - tests/golden/numpy_format.json: each case's expression, `repr` and `str`;
  - cells/src/stdlib/numpy/names.txt: the public names of `numpy`, `numpy.random` and
    `numpy.ndarray`.

`cells/tests/numpy_format.rs` runs every expression in the lab and compares. The tests read the
committed files; they never import numpy.
"""

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

CASES = [
    # integers
    "np.array([1, 2, 3])",
    "np.array([-1, 20, 300])",
    "np.arange(15).reshape(3, 5)",
    "np.arange(24).reshape(2, 3, 4)",
    "np.arange(100)",
    "np.arange(-50, 50).reshape(10, 10)",
    "np.array([1, 2], dtype=np.int32)",
    "np.array([1, 2], dtype=np.int16)",
    "np.array([1, 255], dtype=np.uint8)",
    "np.zeros((2, 3), dtype=int)",
    "np.array([[1, 2], [3, 4]]) * 1000000",
    # floats, fixed notation
    "np.array([1.0, 2.0, 3.0])",
    "np.array([0.1, 0.25, 3.0])",
    "np.array([-1.5, 0.0, 2.25])",
    "np.linspace(0, 1, 5)",
    "np.linspace(0, 2, 9)",
    "np.linspace(-1, 1, 7)",
    "np.arange(0, 2, 0.3)",
    "np.array([1 / 3, 2 / 3])",
    "np.array([1 / 3, 2 / 3, 1.0, 100.0])",
    "np.array([0.5, 123.456, -7.0])",
    "np.array([[0.1, 0.2], [0.3, 0.4]])",
    "np.array([1.0, -0.0])",
    "np.array([999.0, 1000.0])",
    "np.array([0.001, 0.5])",
    "np.array([12345.678, 0.1])",
    "np.sin(np.arange(4.0))",
    "np.sqrt(np.arange(6.0)).reshape(2, 3)",
    "np.exp(np.linspace(-3, 3, 11))",
    "np.array([0.12345678912, 1.0])",
    "np.array([0.999999999, 1.0])",
    "np.array([1.00000001, 2.0])",
    "np.array([2.675, 1.005])",
    # floats, scientific notation
    "np.array([1e-10, 1.0])",
    "np.array([1.5, 2.25, 1e8])",
    "np.array([0.1, 2.5, 3.0, 1e-3, 1 / 3, 100.0])",
    "np.array([[0.1, 2.5, 3.0], [1e-3, 1 / 3, 100.0]])",
    "np.array([1e20, 1.0])",
    "np.array([1e-5, 1e5])",
    "np.array([-1e-5, 3.0])",
    "np.array([1.23456789e-7, 5.0])",
    "np.array([1e100, -1e-100])",
    "np.array([6.02214076e23])",
    "np.exp(np.arange(0, 40, 5.0))",
    # non-finite
    "np.array([np.nan, 1.0, -np.inf])",
    "np.array([np.inf, 1.5])",
    "np.array([np.nan])",
    "np.array([np.nan, 1e-7])",
    # float32 and float16
    "np.array([0.1, 0.2, 0.3], dtype=np.float32)",
    "np.arange(6, dtype=np.float32).reshape(2, 3)",
    "np.array([1 / 3, 1e-6], dtype=np.float32)",
    "np.linspace(0, 1, 7).astype(np.float32)",
    "np.array([0.1, 1000.5], dtype=np.float16)",
    "np.array([3.14159], dtype=np.float32)",
    "np.array([2.2050718e7, 1.0e7], dtype=np.float32)",
    "np.array([999999.0, 1.0], dtype=np.float32)",
    "np.array([999.0, 1000.0], dtype=np.float16)",
    "np.array(22050718.0, dtype=np.float32)",
    "np.array([162994.56, 78823.414, 32995.3125, 62717.47], dtype=np.float32)",
    "np.array([-12.886718375739282, 8.01]).astype(np.float16)",
    # bools
    "np.array([True, False, True])",
    "np.array([[True, False], [False, True]])",
    "np.arange(5) > 2",
    "np.array([True])",
    # wrapping and summarising
    "np.arange(40.0)",
    "np.linspace(0, 1, 30)",
    "np.arange(30).reshape(2, 15) * 1000",
    "np.arange(2000)",
    "np.arange(2000.0)",
    "np.arange(3000).reshape(30, 100)",
    "np.linspace(0, 1, 1001)",
    "np.arange(1500, dtype=np.float32)",
    "np.ones((20, 60))",
    "np.arange(1200).reshape(2, 3, 200)",
    # empty and 0-d
    "np.zeros(0)",
    "np.zeros((0, 3))",
    "np.array([], dtype=np.int64)",
    "np.zeros((2, 0), dtype=np.float32)",
    "np.array(1.5)",
    "np.array(3)",
    "np.array(True)",
    "np.array(2.5, dtype=np.float32)",
    # shapes with ones
    "np.zeros((1, 3))",
    "np.zeros((3, 1))",
    "np.arange(4).reshape(2, 1, 2)",
    "np.eye(3)",
    "np.eye(2, dtype=int)",
    # scalars
    "np.float64(1.5)",
    "np.float64(0.1) + np.float64(0.2)",
    "np.float64(1e-5)",
    "np.float64(1e16)",
    "np.float64(123456789.0)",
    "np.float32(0.1)",
    "np.float32(1 / 3)",
    "np.float32(1e20)",
    "np.float16(0.1)",
    "np.float16(1000.0)",
    "np.float32(999999.0)",
    "np.float32(1e6)",
    "np.float32(32995.3125)",
    "np.float64(1e15)",
    "np.int64(7)",
    "np.int32(-3)",
    "np.uint8(200)",
    "np.True_",
    "np.False_",
    "np.float64(np.nan)",
    "np.float64(-np.inf)",
    "np.arange(5).sum()",
    "np.arange(5.0).mean()",
    "np.float64(2.0)",
    "np.float64(-0.0)",
    # dtypes
    "np.arange(3).dtype",
    "np.zeros(2, dtype=np.float32).dtype",
    "np.float32",
]


def render(expr):
    value = eval(expr, {"np": np})
    return {"expr": expr, "repr": repr(value), "str": str(value)}


def public(obj):
    return " ".join(sorted(n for n in dir(obj) if not n.startswith("_")))


def main():
    cases = [render(e) for e in CASES]
    with open(os.path.join(HERE, "numpy_format.json"), "w") as f:
        json.dump({"numpy": np.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    names = os.path.join(ROOT, "cells", "src", "stdlib", "numpy", "names.txt")
    with open(names, "w") as f:
        f.write(f"numpy: {public(np)}\n")
        f.write(f"random: {public(np.random)}\n")
        f.write(f"ndarray: {public(np.ndarray)}\n")


main()
