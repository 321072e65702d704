# pickle: plain values and learners' objects, the bytes CPython writes and the values it reads.
import pickle
from dataclasses import dataclass


@dataclass
class Point:
    x: int
    y: float


class Config:
    def __init__(self, lr, layers):
        self.lr = lr
        self.layers = layers

    def __repr__(self):
        return f"Config(lr={self.lr}, layers={self.layers})"


class Counter:
    def __init__(self):
        self.count = 0
        self.cache = {"big": list(range(3))}

    def __getstate__(self):
        return {"count": self.count}

    def __setstate__(self, state):
        self.count = state["count"]
        self.cache = {}


def square(x):
    return x * x


values = [
    None, True, False, 0, 1, 255, 256, 65535, 65536, -1, -129, 2**31 - 1, 2**31, -2**31,
    -2**31 - 1, 2**64, -2**100, 10**50, 0.5, -1.25, 1e300, float("inf"), "", "hi", "héllo ✓",
    "x" * 300, b"", b"\x00\xff", bytes(300), (), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), [],
    [1], [1, 2], {}, {"a": 1}, {"a": 1, "b": [2, 3]}, {1, 2, 3}, set(),
    [[1, 2], [3, 4]], {"k": ("v", None)}, list(range(1001)), square, Point,
]

for value in values:
    data = pickle.dumps(value)
    back = pickle.loads(data)
    shown = getattr(value, "__name__", None) or (repr(value) if len(repr(value)) < 40 else repr(value)[:37] + "...")
    print(shown, len(data), data if len(data) < 60 else data[:60], back == value)

for protocol in (2, 3, 4, 5):
    data = pickle.dumps({"loss": [0.5, 0.25], "epoch": 3, "name": "run"}, protocol=protocol)
    print(protocol, data, pickle.loads(data))

for protocol in (2, 3):
    data = pickle.dumps({3, 1, 2}, protocol=protocol)
    print(protocol, data, pickle.loads(data))

shared = [1, 2]
nested = [shared, shared, "name", "name"]
data = pickle.dumps(nested)
print(data)
back = pickle.loads(data)
print(back, back[0] is back[1])

p = Point(1, 2.5)
data = pickle.dumps(p)
print(data)
print(pickle.loads(data), pickle.loads(data) == p)
cfg = pickle.loads(pickle.dumps(Config(0.01, [64, 32])))
print(cfg, type(cfg).__name__)
points = [Point(i, i / 2) for i in range(3)]
data = pickle.dumps(points)
print(len(data), pickle.loads(data))

c = Counter()
c.count = 7
restored = pickle.loads(pickle.dumps(c))
print(restored.count, restored.cache)

print(pickle.loads(pickle.dumps(square))(7))

with open("state.pkl", "wb") as f:
    pickle.dump({"epoch": 3, "best": 0.91}, f)
    pickle.dump([1, 2, 3], f)
with open("state.pkl", "rb") as f:
    print(pickle.load(f), pickle.load(f))
    try:
        pickle.load(f)
    except EOFError as e:
        print("EOFError:", e)

print(pickle.HIGHEST_PROTOCOL, pickle.DEFAULT_PROTOCOL)

for bad in [b"", b"\x80\x04\x95", b"garbage"]:
    try:
        pickle.loads(bad)
    except Exception as e:
        print(type(e).__name__, e)

try:
    pickle.dumps(lambda x: x)
except Exception as e:
    print(type(e).__name__, str(e).split(" at ")[0])

try:
    pickle.loads("text")
except TypeError as e:
    print("TypeError:", e)
