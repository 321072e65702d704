"""Generates `syntax_errors.json`: what CPython reports for the syntax errors learners make, as its
`compile` raises them and its traceback module prints them (the lab's cells must print the same).

    python3 tests/golden/syntax_errors.py

needs only CPython (3.11, the version these were generated with; later versions reword a few).
The cells' test `cells/tests/syntax_errors.rs` reads the JSON; it never runs Python.
"""

import json
import pathlib
import sys
import traceback

HERE = pathlib.Path(__file__).parent

# Written the way learners get them wrong: brackets, strings, indentation, colons, Python 2.
SOURCES = [
    "print(1",
    "x = [1, 2,\n     3",
    "x = (1, 2]",
    "x = )",
    "print(1))",
    "x = {1: 2",
    "t.to('cuda'",
    "x = [1, 2\ny = 3",
    "x = (1,\n  2",
    "model = nn.Sequential(\n    nn.Linear(2, 2),\n    nn.ReLU()\n\nprint(model)",
    "if True:\nprint(1)",
    "for i in range(3):\nprint(i)",
    "def f():\nreturn 1",
    "class A:\nx = 1",
    "with open(f) as g:\npass",
    "if x:\n    pass\nelse:\nprint(1)",
    "if True:",
    "def f():",
    "x = 1\n  y = 2",
    "if x:\n        a = 1\n    b = 2",
    "def f():\n\tx = 1\n        y = 2",
    "for i in range(3) print(i)",
    "if x == 1\n    pass",
    "def f()\n    pass",
    "class A\n    pass",
    "while True\n    pass",
    "print 'hi'",
    "x = 'abc",
    "x = f'abc",
    'x = """abc\nmore',
    "else:\n    pass",
    "x = = 1",
    "x === 1",
    "x = 1 +",
    "import",
    "def f(:\n    pass",
    "f(a b)",
    "print('a' 'b' c)",
    "1 = x",
    "f() = 1",
    "a + b = 1",
    "try:\n    x = 1\nprint(2)",
]


def main():
    cases = []
    for source in SOURCES:
        try:
            compile(source, "<cell 1>", "exec")
            raise SystemExit(f"{source!r} compiles: not a syntax error")
        except SyntaxError as e:
            text = "".join(traceback.format_exception_only(type(e), e)).rstrip("\n")
            cases.append({"source": source, "error": text})
    path = HERE / "syntax_errors.json"
    data = {"python": sys.version.split()[0], "cases": cases}
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {path} ({len(cases)} cases)")


main()
