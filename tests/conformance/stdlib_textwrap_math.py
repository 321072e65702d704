# textwrap, __future__ and the rest of math.
from __future__ import annotations

import textwrap
s = "The quick brown fox jumps over the lazy dog and keeps running through the forest until night falls."
print(textwrap.wrap(s, 20))
print(textwrap.fill(s, width=30, initial_indent="* ", subsequent_indent="  "))
print(textwrap.shorten(s, 40), "|", textwrap.shorten("short", 40))
print(repr(textwrap.dedent("    a\n      b\n\n    c\n")), repr(textwrap.indent("x\n\ny\n", "> ")))
print(textwrap.wrap("supercalifragilisticexpialidocious word", 10), textwrap.wrap("", 5))
print(textwrap.fill("a b c d e f g", 3, max_lines=2, placeholder="..."))
import math

print(math.dist((0, 0), (3, 4)), math.dist([1, 2, 3], [4, 6, 3]), math.frexp(8.0), math.frexp(-0.15625), math.frexp(0.0))
print(math.ldexp(0.5, 4), math.modf(3.25), math.modf(-2.5), math.exp2(10), math.cbrt(8.0), math.remainder(5, 2), math.remainder(7, 2))
