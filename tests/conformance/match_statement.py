from dataclasses import dataclass

@dataclass
class Point:
    x: int
    y: int

class Cmd:
    __match_args__ = ("name", "arg")
    def __init__(self, name, arg=None):
        self.name = name
        self.arg = arg

def describe(v):
    match v:
        case 0:
            return "zero"
        case None:
            return "none"
        case True:
            return "true"
        case int(n) if n < 0:
            return f"negative {n}"
        case int() | float():
            return f"number {v}"
        case "cpu" | "cuda":
            return f"device {v}"
        case str(s):
            return f"string {s!r}"
        case []:
            return "empty list"
        case [x]:
            return f"one {x}"
        case [first, *rest]:
            return f"first {first} rest {rest}"
        case {"lr": lr, **others}:
            return f"lr {lr} others {others}"
        case Point(x=0, y=yy):
            return f"on y axis at {yy}"
        case Point(x, y):
            return f"point {x},{y}"
        case Cmd("go", arg):
            return f"go {arg}"
        case Cmd(name):
            return f"cmd {name}"
        case _:
            return "other"

for v in [0, None, True, -3, 5, 2.5, "cpu", "hello", [], [1], (1, 2, 3), {"lr": 0.1, "m": 0.9},
          Point(0, 4), Point(1, 2), Cmd("go", 3), Cmd("stop"), {1, 2}, range(2)]:
    print(describe(v))

match (1, (2, 3)):
    case (a, (b, c)) as whole:
        print(a, b, c, whole)

def device_of(spec):
    match spec.split(":"):
        case ["cuda", idx]:
            return ("cuda", int(idx))
        case ["cuda"]:
            return ("cuda", 0)
        case [kind]:
            return (kind, None)
print(device_of("cuda:1"), device_of("cuda"), device_of("cpu"))

try:
    match 3:
        case Point(1, 2, 3):
            pass
except TypeError as e:
    print("TypeError:", e)
try:
    match 3:
        case len():
            pass
except TypeError as e:
    print("TypeError:", e)
try:
    match 3:
        case int(1, 2):
            pass
except TypeError as e:
    print("TypeError:", e)

@dataclass(kw_only=True)
class Opt:
    lr: float = 0.1
    momentum: float = 0.0
print(Opt(lr=0.5), Opt.__match_args__)
try:
    Opt(0.5)
except TypeError as e:
    print("TypeError:", e)

@dataclass(unsafe_hash=True)
class Key:
    name: str
print(hash(Key("a")) == hash(Key("a")), Key.__match_args__)

match {"device": "cuda", "ids": [0, 1]}:
    case {"device": "cuda" as d, "ids": [*ids]}:
        print(d, ids)
