# json as tutorials use it (configs, metrics logs) and operator's functions and getters.
import json
import operator
from operator import attrgetter, itemgetter

config = {"model": {"name": "resnet", "layers": [2, 2, 2, 2]}, "lr": 0.1, "nesterov": True,
          "scheduler": None, "tags": ("a", "b"), "note": "café \"quoted\"\n", 3: "int key"}
print(json.dumps(config))
print(json.dumps(config, indent=2, sort_keys=False))
print(json.dumps({"b": 1, "a": [1.5, -0.0, 1e-7, 1e16]}, sort_keys=True, separators=(",", ":")))
print(json.dumps([]), json.dumps({}), json.dumps([[]], indent=4), json.dumps("é", ensure_ascii=False))
print(json.dumps(float("nan")), json.dumps([float("inf"), -float("inf")]))
text = '{"epoch": 3, "loss": 0.25, "history": [1, 2.5e-3, -4], "ok": true, "none": null, "s": "a\\u00e9\\n\\"x\\""}'
data = json.loads(text)
print(data, type(data["epoch"]).__name__, type(data["loss"]).__name__)
print(json.loads("[1, [2, [3, {}]]]"), json.loads(' "\\ud83d\\ude00" '), json.loads("NaN"))
print(json.loads(json.dumps(config, indent=1)) == json.loads(json.dumps(config)))
print(json.dumps({"x": {1, 2}} if False else {"x": [1]}, default=str))
for bad in ["", "{", '{"a" 1}', '{"a": 1,}', "[1 2]", "tru", '"abc', "[1] x", "{'a': 1}", '"\\q"']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), "->", e, "|", e.pos, e.lineno, e.colno, isinstance(e, ValueError))
try:
    json.dumps({"s": {1, 2}})
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps({(1, 2): 3})
except TypeError as e:
    print("TypeError:", e)

print(operator.add(2, 3), operator.mul("ab", 2), operator.concat([1], [2]), operator.neg(4))
print(operator.itemgetter(1)([5, 6, 7]), operator.itemgetter(0, 2)("xyz"), itemgetter("lr")({"lr": 1}))
pairs = [("b", 2), ("a", 3), ("c", 1)]
print(sorted(pairs, key=itemgetter(1)), max(pairs, key=operator.itemgetter(1)))


class Run:
    def __init__(self, name, acc):
        self.name = name
        self.acc = acc


runs = [Run("x", 0.7), Run("y", 0.9)]
print([r.name for r in sorted(runs, key=attrgetter("acc"), reverse=True)], attrgetter("name", "acc")(runs[0]))
print(operator.methodcaller("split", ",")("a,b"), operator.lt(1, 2), operator.contains([1, 2], 2))
