# Python itself: numbers, strings, containers, loops, functions, f-strings.
x = 7
y = 2
print(x + y, x - y, x * y, x / y, x // y, x % y, x ** y, -x // y)
print(0.1 + 0.2, 1e-8, 3.0, 2.5e20, round(2.5), round(3.14159, 2))
name = "lab"
print(f"hello {name}! {x/y:.3f} {x:>4} {[1, 2]!r}")
items = [3, 1, 2]
items.append(5)
print(items, len(items), sorted(items), items[-1], items[1:3], items[::-1])
pair = (1, "two")
print(pair, pair[1], (4,), ())
d = {"a": 1, "b": 2}
d["c"] = 3
print(d, d["b"], "a" in d, list(d.keys()))
total = 0
for i in range(10):
    if i % 2 == 0:
        continue
    if i > 7:
        break
    total += i
print("total", total)
n = 0
while n < 5:
    n += 2
print(n, min(items), max(3, 9, 4), sum([1, 2, 3]), abs(-4.5))


def fib(k):
    if k < 2:
        return k
    return fib(k - 1) + fib(k - 2)


def greet(who, punctuation="!"):
    return "hi " + who + punctuation


print(fib(15), greet("you"), greet(who="me", punctuation="?"))
for i, ch in enumerate("ab"):
    print(i, ch)
print(list(zip([1, 2, 3], "xyz")), bool([]), bool("0"), int("42") + 1, float("1.5"))
a, b = 1, 2
a, b = b, a
print(a, b, 3 < 4 < 5, 1 == 1.0, None is None, "x" * 3)
