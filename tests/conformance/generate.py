"""Writes the expected output of every conformance program: stdout, then (when the program
fails) the last line of its traceback, from real Python with PyTorch 2.15 on the CPU.

    python3 tests/conformance/generate.py

Programs whose behaviour needs CUDA keep hand-written `.out` files (named in their first line).
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent

for program in sorted(HERE.glob("*.py")):
    if program.name == "generate.py":
        continue
    run = subprocess.run([sys.executable, program.name], cwd=HERE, capture_output=True, text=True)
    expected = run.stdout
    if run.returncode != 0:
        expected += "--- error\n" + run.stderr.strip().splitlines()[-1] + "\n"
    (HERE / program.with_suffix(".out").name).write_text(expected)
    print(f"wrote {program.with_suffix('.out').name}")
