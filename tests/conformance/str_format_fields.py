# str.format and format(): learners' __format__, __str__ and __repr__, positional, keyword,
# attribute and index fields, nested specs, conversions, format_map and CPython's errors.
from collections import defaultdict


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"

    def __str__(self):
        return f"({self.x}, {self.y})"


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __format__(self, spec):
        if spec == "short":
            return f"${self.cents // 100}"
        return format(self.cents / 100, spec or ".2f")


p = Point(1, 2)
print("{} {!r} {!s} {0.x}-{0.y}".format(p, p, p) if False else "{0} {0!r} {0!s} {0.x}-{0.y}".format(p))
print("{}|{:short}|{:>8.1f}|{:}".format(Money(1234), Money(1234), Money(1234), Money(5)))
print(f"{Money(250)} {Money(250):short} {format(Money(99), '.3f')} {p} {p!r:>12}")
print("{name:<6}|{score:6.2%}|{rank:03d}".format(name="ada", score=0.9731, rank=7))
print("{:{fill}{align}{width}}".format("x", fill="*", align="^", width=7), "{:>{}}".format(3.5, 6))
row = {"epoch": 3, "loss": 0.123456}
print("epoch {0[epoch]} loss {0[loss]:.3f}".format(row), "{d[epoch]}".format(d=row))
print("{0}{1}{0}".format("ab", "-"), "{{literal}} {}".format(1), "{!a}".format("café"))
print("{epoch}: {missing}".format_map(defaultdict(str, epoch=1)), "{x}".format_map({"x": [1, 2]}))
print(str.format("{}+{}", 1, 2), "{:,}".format(1234567), "{:_>10}".format([1, 2]) if False else format("ok", "_>6"))
for template, args in [("{", ()), ("}", ()), ("{0} {}", (1, 2)), ("{} {0}", (1, 2)), ("{2}", (1,)),
                       ("{x}", ()), ("{!q}", (1,)), ("{0.nope}", (1,)), ("{:>5}", (p,)), ("{:d}", ("s",))]:
    try:
        print(template.format(*args))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError) as e:
        print(type(e).__name__, e)
