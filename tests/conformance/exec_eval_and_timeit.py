# exec and eval where they are called and in a dict's namespace, their errors, and timeit with
# callables, statements, setup code and globals= (what it returns is a duration: its type and
# sign are checked, not its value).
import timeit

x = 10
print(eval("x * 2 + 1"), eval("  [i * i for i in range(4)]"), eval("len(s)", {"s": "abc"}))
exec("y = x + 5\ndef twice(v):\n    return 2 * v")
print(y, twice(y))
ns = {"base": 3}
exec("z = base ** 2\nw = [base] * 2", ns)
print(sorted(k for k in ns if not k.startswith("__")), ns["z"], ns["w"])


def local_eval():
    a = 4
    return eval("a + 1")


print(local_eval())
for bad in ["1 +", "undefined_name", "1 / 0"]:
    try:
        eval(bad)
    except (SyntaxError, NameError, ZeroDivisionError) as e:
        print(type(e).__name__)
try:
    eval(42)
except TypeError as e:
    print("TypeError:", e)

calls = []
t = timeit.timeit(lambda: calls.append(1), number=5)
print(type(t).__name__, t >= 0, len(calls))
t = timeit.timeit("total = sum(range(50))", number=20)
print(type(t).__name__, t >= 0)
counter = {"n": 0}
t = timeit.timeit("counter['n'] += 1", globals={"counter": counter}, number=7)
print(counter["n"], t >= 0)
runs = timeit.repeat("sorted(data)", setup="data = list(range(30, 0, -1))", repeat=3, number=4)
print(len(runs), all(r >= 0 for r in runs))
timer = timeit.Timer("s.upper()", setup="s = 'abc'")
print(type(timer.timeit(number=3)).__name__, callable(timeit.default_timer))
try:
    timeit.Timer(stmt=3)
except ValueError as e:
    print("ValueError:", e)
