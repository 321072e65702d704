# Classes deriving from int, float and str (and the `class Color(str, Enum)` idiom): objects
# are their values for arithmetic, comparison, hashing, indexing, str methods and formatting,
# keep their own methods and attributes, and the built-in results are plain values again.
from enum import Enum


class Count(int):
    def doubled(self):
        return Count(self * 2)


class Celsius(float):
    def __repr__(self):
        return f"{float(self):.1f}°C"

    def to_f(self):
        return self * 9 / 5 + 32


class Tag(str):
    def shout(self):
        return self.upper() + "!"


class Split(str, Enum):
    TRAIN = "train"
    TEST = "test"


class Level(int, Enum):
    LOW = 1
    HIGH = 2


c = Count(7)
print(c, repr(c), c + 1, type(c + 1).__name__, c.doubled(), type(c.doubled()).__name__)
print(c == 7, c < 10, hash(c) == hash(7), {7: "seven"}[c], ["a"] * 8 == ["a"] * c, list(range(c))[-1])
print(isinstance(c, int), isinstance(c, Count), issubclass(Count, int), int(c), float(c), f"{c:04d}", str(c))
print(Count("12"), Count(3.9), Count(), abs(Count(-3)), -c, divmod(c, 2), c // 2, c % 4, c ** 2, 7 in {c})
t = Celsius(21.5)
print(t, repr(t), t.to_f(), t + 0.5, round(t), f"{t:.2f}", t > 20, sorted([Celsius(3), Celsius(-1)]))
g = Tag("hello")
print(g, repr(g), g.shout(), g.upper(), g + " world", len(g), g[1:3], g == "hello", "ell" in g, g.split("l"))
print(f"[{g:>8}]", {"hello": 1}[g], sorted([Tag("b"), Tag("a")]), ",".join([g, Tag("x")]), g * 2)
g.note = "kept"
print(g.note, isinstance(g, str), type(g).__name__)
print(Split.TRAIN, repr(Split.TRAIN), Split.TRAIN == "train", Split("test"), Split.TRAIN.upper(), len(Split.TEST))
print({"train": 0.8}[Split.TRAIN], f"{Split.TRAIN.value}", isinstance(Split.TRAIN, str), Split.TRAIN + "_set")
print(Level.HIGH > Level.LOW, Level.HIGH + 1, ["x", "y", "z"][Level.HIGH], Level(1), repr(Level.LOW))
try:
    class Both(int, str):
        pass
except TypeError as e:
    print("TypeError:", e)
try:
    Count("seven")
except ValueError as e:
    print("ValueError:", e)
