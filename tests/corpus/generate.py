"""Writes the expected output of every corpus program, from real Python 3.11 with PyTorch 2.15
on a CPU-only machine (so `torch.cuda.is_available()` is False): stdout, then (when the program
fails) `--- error` and the last line of its traceback.

    ~/torch-venv/bin/python tests/corpus/generate.py

The corpus holds programs written the way the official tutorials and common courses write them
(Learn the Basics, Learning PyTorch with Examples, the 60-minute blitz, training scripts,
the Python and standard library around them), not the way the lab happens to support: they are
how what is missing is found. `PENDING` lists those the lab does not yet run as PyTorch does,
each with the reason; `cells/tests/corpus.rs` keeps that list true.
"""

import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).parent

for program in sorted(HERE.glob("*.py")):
    if program.name == "generate.py":
        continue
    # Each program runs in a scratch folder, so files it writes stay out of the tree.
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(program, scratch)
        run = subprocess.run([sys.executable, program.name], cwd=scratch, capture_output=True, text=True)
    expected = run.stdout
    # Programs that ask for it have their stderr compared too (cells/tests/common/mod.rs).
    if "# conformance: stderr" in program.read_text() and run.returncode == 0 and run.stderr:
        expected += "--- stderr\n" + run.stderr
    if run.returncode != 0:
        expected += "--- error\n" + run.stderr.strip().splitlines()[-1] + "\n"
    out = program.with_suffix(".out")
    mask = lambda text: re.sub(r"0x[0-9a-f]+", "0x", text)
    if out.exists() and mask(out.read_text()) == mask(expected):
        continue
    out.write_text(expected)
    print(f"wrote {out.name}")
