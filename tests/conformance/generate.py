"""Writes the expected output of every conformance program: stdout, then (when the program
fails) the last line of its traceback, from real Python with PyTorch 2.15 on the CPU.

    python3 tests/conformance/generate.py

Programs whose behaviour needs CUDA keep hand-written `.out` files, written from PyTorch's
documented behaviour; their first line says so (`# expected output written by hand`) and this
script leaves them alone.
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
    if program.read_text().startswith("# expected output written by hand"):
        continue
    # Each program runs in a scratch folder, so files it saves stay out of the tree.
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(program, scratch)
        run = subprocess.run([sys.executable, program.name], cwd=scratch, capture_output=True, text=True)
    expected = run.stdout
    # Programs that ask for it have their stderr compared too (cells/tests/common/mod.rs).
    if "# conformance: stderr" in program.read_text() and run.returncode == 0 and run.stderr:
        expected += "--- stderr\n" + run.stderr
    if run.returncode != 0:
        expected += "--- error\n" + run.stderr.strip().splitlines()[-1] + "\n"
    out = HERE / program.with_suffix(".out").name
    # Object addresses change from run to run (the test masks them): keep the file when only they did.
    mask = lambda text: re.sub(r"0x[0-9a-f]+", "0x", text)
    if out.exists() and mask(out.read_text()) == mask(expected):
        continue
    out.write_text(expected)
    print(f"wrote {out.name}")
