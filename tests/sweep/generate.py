"""Writes tests/sweep/expected.txt: the outcome of every case of sweep.py in real PyTorch 2.15 on
the CPU (a value's repr, or the exception's type and message), one line per case.

    ~/torch-venv/bin/python tests/sweep/generate.py

The lab runs the same sweep.py (cells/tests/sweep.rs) and compares its lines with these.
"""

import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).parent

with tempfile.TemporaryDirectory() as scratch:
    run = subprocess.run(
        [sys.executable, str(HERE / "sweep.py")], cwd=scratch, capture_output=True, text=True
    )
if run.returncode != 0:
    sys.exit(run.stderr)
codes = [line.split("\t")[1] for line in run.stdout.splitlines()]
repeated = {c for c in codes if codes.count(c) > 1}
if repeated:
    sys.exit(f"cases must differ in their code: {sorted(repeated)}")
(HERE / "expected.txt").write_text(run.stdout)
print(f"{len(codes)} cases")
