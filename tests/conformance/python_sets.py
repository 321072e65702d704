# Sets: literals, set(), comprehensions, membership, operators and methods (printed sorted or
# built in order, since CPython's iteration order follows hashes).
devices = {"cpu", "cuda:0"}
devices.add("cuda:1")
devices.add("cpu")
print(len(devices), "cuda:1" in devices, sorted(devices))
a = set(range(5))
b = {x * 2 for x in range(5)}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
print(sorted(a.union([7])), sorted(a.intersection(b)), sorted(a.difference(b)), {1, 2}.issubset(a))
a.discard(99)
a.remove(0)
print(sorted(a), set(), {1} == {1.0}, len({1, 1, 2}))
try:
    a.remove(42)
except KeyError as e:
    print("KeyError", e)
try:
    {[1]}
except TypeError as e:
    print(e)
print(set([0, 1, 2]), {0, 1})
