# Theme: structural pattern matching (match/case) - literals, sequences,
# mappings, class patterns with dataclasses, guards, captures, wildcards,
# or-patterns, as-patterns and star captures.
from dataclasses import dataclass
from enum import Enum


class Color(Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


@dataclass
class Point:
    x: float
    y: float


@dataclass
class Circle:
    center: Point
    radius: float


@dataclass
class Rect:
    corner: Point
    width: float
    height: float


@dataclass
class Layer:
    kind: str
    units: int
    activation: str = "relu"


def http_status(code):
    match code:
        case 200:
            return "OK"
        case 301 | 302:
            return "Redirect"
        case 404:
            return "Not Found"
        case 500 | 502 | 503:
            return "Server Error"
        case int(c) if 400 <= c < 500:
            return f"Client Error ({c})"
        case _:
            return "Unknown"


def describe_literal(value):
    match value:
        case None:
            return "None"
        case True:
            return "True literal"
        case False:
            return "False literal"
        case 0:
            return "zero"
        case "":
            return "empty string"
        case str() as s:
            return f"string of length {len(s)}"
        case float(f):
            return f"float {f}"
        case int(i):
            return f"int {i}"
        case _:
            return f"other: {type(value).__name__}"


def command(cmd):
    match cmd.split():
        case []:
            return "empty command"
        case ["quit" | "exit"]:
            return "bye"
        case ["go", direction]:
            return f"going {direction}"
        case ["go", *_]:
            return "go where? too many words"
        case ["pick", "up", item]:
            return f"picked up {item}"
        case ["drop", *items] if items:
            return f"dropped {', '.join(items)}"
        case [verb, *rest]:
            return f"unknown verb {verb!r} with {len(rest)} args"


def sequence_shape(seq):
    match seq:
        case (x, y):
            return f"pair {x},{y}"
        case (x, y, z):
            return f"triple {x},{y},{z}"
        case [first, *middle, last]:
            return f"first={first} middle={middle} last={last}"
        case _:
            return "short"


def handle_event(event):
    match event:
        case {"type": "click", "pos": (x, y)}:
            return f"click at ({x}, {y})"
        case {"type": "key", "key": str(k)} if len(k) == 1:
            return f"key press {k!r}"
        case {"type": "key", "key": k}:
            return f"special key {k}"
        case {"type": "resize", "size": {"w": w, "h": h}}:
            return f"resize to {w}x{h}"
        case {"type": "log", **rest}:
            return f"log with extra keys {sorted(rest)}"
        case {"type": t}:
            return f"unhandled event type {t}"
        case _:
            return "not an event"


def area(shape):
    match shape:
        case Circle(center=Point(x=0, y=0), radius=r):
            return f"circle at origin, area {3.14159 * r * r:.2f}"
        case Circle(radius=r):
            return f"circle, area {3.14159 * r * r:.2f}"
        case Rect(width=w, height=h) if w == h:
            return f"square, area {w * h}"
        case Rect(corner=Point(x, y), width=w, height=h):
            return f"rect at ({x}, {y}), area {w * h}"
        case Point(x, y):
            return f"just a point ({x}, {y})"
        case _:
            return "unknown shape"


def layer_summary(layer):
    match layer:
        case Layer("dense", units, "softmax"):
            return f"output layer with {units} classes"
        case Layer(kind="dense", units=u) if u > 256:
            return f"wide dense layer ({u})"
        case Layer(kind="dense" | "linear", units=u, activation=act):
            return f"dense {u} -> {act}"
        case Layer(kind="dropout"):
            return "dropout layer"
        case Layer(kind=k):
            return f"other layer {k}"


def color_name(c):
    match c:
        case Color.RED:
            return "warm"
        case Color.GREEN | Color.BLUE:
            return "cool"


def nested(data):
    match data:
        case {"model": {"layers": [first, *_] as layers}, "lr": float() as lr}:
            return f"{len(layers)} layers, first={first}, lr={lr}"
        case {"model": {"layers": []}}:
            return "model without layers"
        case [("a" | "b") as tag, int() | float() as num]:
            return f"tag {tag} with number {num}"
        case _:
            return "no match"


def main():
    for code in [200, 302, 404, 418, 503, 999]:
        print(f"{code}: {http_status(code)}")
    for v in [None, True, False, 0, "", "hello", 2.5, 7, [1]]:
        print(f"{v!r:>8} -> {describe_literal(v)}")
    for c in ["", "quit", "go north", "go north fast", "pick up lamp",
              "drop key coin", "drop", "dance wildly now"]:
        print(f"{c!r:>20} -> {command(c)}")
    for s in [(1, 2), [1, 2, 3], [1, 2, 3, 4, 5], [9], "ab"]:
        print(f"{s!r} -> {sequence_shape(s)}")
    events = [
        {"type": "click", "pos": (10, 20)},
        {"type": "key", "key": "a"},
        {"type": "key", "key": "Enter"},
        {"type": "resize", "size": {"w": 800, "h": 600}},
        {"type": "log", "level": "info", "msg": "hi"},
        {"type": "scroll", "dy": 3},
        ["not", "a", "dict"],
    ]
    for e in events:
        print(handle_event(e))
    shapes = [
        Circle(Point(0, 0), 1.0),
        Circle(Point(1, 2), 2.0),
        Rect(Point(0, 0), 3, 3),
        Rect(Point(1, 1), 2, 5),
        Point(4, 5),
        "triangle",
    ]
    for sh in shapes:
        print(area(sh))
    layers = [Layer("dense", 10, "softmax"), Layer("dense", 512),
              Layer("linear", 64, "tanh"), Layer("dropout", 0), Layer("conv", 32)]
    for layer in layers:
        print(layer_summary(layer))
    print([color_name(c) for c in Color])
    print(nested({"model": {"layers": ["conv", "pool", "fc"]}, "lr": 0.01}))
    print(nested({"model": {"layers": []}}))
    print(nested(["b", 3.5]))
    print(nested(["c", 1]))


if __name__ == "__main__":
    main()
