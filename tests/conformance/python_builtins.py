# Builtins learners use, with Python's results.
print(isinstance(3, int), isinstance(True, int), isinstance(3.0, (int, float)), isinstance("s", list))
print(type(3).__name__, type([]) == list, type(None).__name__)
print(round(2.5), round(3.5), round(2.675, 2), abs(-3), min(3, 1, 2), max([4, 9, 2]))
print(sorted([3, 1, 2]), sorted("bca", reverse=True), [1, 2][::-1])
print(any(x > 2 for x in [1, 3]), all([]), sum([0.1] * 3))
print(dict(a=1), dict([("k", 2)]), list({"x": 1, "y": 2}.items()))
print(int("42") + 1, float("1.5"), str(1.0), bool(""), repr("it's"))
class Box:
    pass
b = Box()
setattr(b, "size", 3)
print(getattr(b, "size"), getattr(b, "color", "none"), hasattr(b, "size"), hasattr(b, "x"))
print(len(range(0, 10, 3)), list(range(10, 0, -4)), 5 in range(10))
print("{:>6}|{:<4}|{:^5}|{:08.3f}".format("a", "b", "c", 3.14159))
print(f"{255:x} {1e-5:.2e} {0.5:%} {12345678:,}")
