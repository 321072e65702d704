# More of the Python subset: comprehensions, lambdas, *args/**kwargs, global, del, try/except.
squares = [n * n for n in range(6) if n % 2 == 0]
pairs = [(a, b) for a in range(3) for b in "xy" if a != 1]
table = {k: len(k) for k in ["one", "three"]}
print(squares, pairs, table, sum(x for x in range(5)))
double = lambda v, k=2: v * k
print(double(4), double(4, k=3), sorted([3, -5, 1], reverse=True))


def stats(first, *rest, scale=1, **options):
    return first * scale, rest, sorted(options.items())


print(stats(1, 2, 3, scale=10, mode="fast", level=2))
counter = 0


def bump():
    global counter
    counter += 1


bump()
bump()
print("counter", counter)
data = {"a": 1, "b": 2}
del data["a"]
values = [1, 2, 3]
del values[0]
print(data, values)
try:
    print(1 / 0)
except ZeroDivisionError as e:
    print("caught:", e)
try:
    {}["missing"]
except LookupError as e:
    print("lookup:", repr(e))
finally:
    print("finally runs")
try:
    raise ValueError("bad value")
except (TypeError, ValueError) as e:
    print(type(e).__name__ if False else "value error", e)
try:
    pass
except Exception:
    print("not here")
else:
    print("else runs")


def check(x):
    if x < 0:
        raise RuntimeError(f"negative: {x}")
    return x


print(check(3))
check(-2)
