# Theme: closures and scoping - nonlocal counters, global statements, LEGB
# lookup, lambdas with sorted/map/filter/max/min, late binding vs default
# argument capture, decorators with arguments, function factories, *args /
# **kwargs forwarding and call-site unpacking, keyword-only and positional-only
# parameters, and the TypeErrors CPython raises for bad calls.
import functools

call_count = 0
LEARNING_RATE = 0.1


def make_counter(start=0):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count

    def reset():
        nonlocal count
        count = start

    return increment, reset


def tracked():
    global call_count
    call_count += 1
    return call_count


def set_lr(value):
    global LEARNING_RATE
    old = LEARNING_RATE
    LEARNING_RATE = value
    return old


def read_lr():
    return LEARNING_RATE  # reads the global without a global statement


def shadow():
    LEARNING_RATE = "local only"
    return LEARNING_RATE


def make_multiplier(factor):
    def multiply(x):
        return x * factor
    return multiply


def repeat(times):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            results = [func(*args, **kwargs) for _ in range(times)]
            return results
        return wrapper
    return decorator


def clip(low, high):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return max(low, min(high, func(*args, **kwargs)))
        return wrapper
    return decorator


@repeat(3)
def roll(counter):
    return counter()


@clip(0.0, 1.0)
def raw_score(x, bias=0.0):
    return x * 0.3 + bias


def build_optimizer(name, *params, lr=0.01, momentum=0.0, **extra):
    return f"{name}(params={params}, lr={lr}, momentum={momentum}, extra={dict(sorted(extra.items()))})"


def forward_all(*args, **kwargs):
    # forwarding everything to another function
    return build_optimizer(*args, **kwargs)


def kw_only(a, b, *, scale, shift=0):
    return (a + b) * scale + shift


def pos_only(x, y, /, z=0, *, w=1):
    return x - y + z * w


def compose(*funcs):
    def composed(x):
        for f in reversed(funcs):
            x = f(x)
        return x
    return composed


def main():
    inc, reset = make_counter(10)
    print("counter:", inc(), inc(), inc(5))
    reset()
    print("after reset:", inc())
    other_inc, _ = make_counter()
    print("independent counters:", other_inc(), inc())
    print("closure cells:", [c.cell_contents for c in inc.__closure__], inc.__code__.co_freevars)

    for _ in range(3):
        tracked()
    print("global call_count:", call_count)
    print("set_lr returned old:", set_lr(0.05), "| now:", read_lr(), LEARNING_RATE)
    print("shadow:", shadow(), "| global untouched:", LEARNING_RATE)

    def broken():
        try:
            total = total + 1  # noqa: F821 - local referenced before assignment
        except UnboundLocalError as e:
            return f"UnboundLocalError: {e}"
    print(broken())

    double, triple = make_multiplier(2), make_multiplier(3)
    print("factories:", double(5), triple(5), list(map(double, [1, 2, 3])))
    print("compose:", compose(double, triple, lambda v: v + 1)(4))

    late = [lambda: i for i in range(3)]
    early = [lambda i=i: i for i in range(3)]
    print("late binding:", [f() for f in late], "| default capture:", [f() for f in early])
    adders = {}
    for name, n in [("add1", 1), ("add10", 10)]:
        adders[name] = lambda x, n=n: x + n
    print("adders:", adders["add1"](5), adders["add10"](5))

    def append_to(item, bucket=[]):  # the classic mutable default pitfall
        bucket.append(item)
        return bucket
    print("mutable default:", append_to(1), append_to(2), append_to(3, []))

    runs = [("exp-a", 0.91, 12), ("exp-b", 0.87, 5), ("exp-c", 0.93, 30), ("exp-d", 0.87, 3)]
    print("sorted by acc desc:", [r[0] for r in sorted(runs, key=lambda r: -r[1])])
    print("sorted by (acc, time):", [r[0] for r in sorted(runs, key=lambda r: (r[1], r[2]))])
    print("max by acc:", max(runs, key=lambda r: r[1])[0], "| min by time:", min(runs, key=lambda r: r[2])[0])
    print("map:", list(map(lambda r: r[0].upper(), runs)))
    print("filter:", list(filter(lambda r: r[1] > 0.9, runs)))
    print("map two iterables:", list(map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6])))
    print("filter None:", list(filter(None, [0, 1, "", "x", None, [], [0]])))

    counter, _ = make_counter()
    print("decorator with args:", roll(counter), roll.__name__)
    print("clip:", raw_score(1), raw_score(10), raw_score(-5), raw_score(1, bias=0.5))

    params = ["w1", "w2"]
    opts = {"lr": 0.001, "momentum": 0.9, "nesterov": True}
    print(build_optimizer("sgd", *params, **opts))
    print(forward_all("adam", "w", lr=0.1, betas=(0.9, 0.99), eps=1e-8))
    print(build_optimizer("plain"))
    first, *rest = [1, 2, 3, 4]
    *init, last = "abcd"
    a, (b, c), d = 1, (2, 3), 4
    print("unpacking:", first, rest, init, last, a, b, c, d)
    merged = {**{"lr": 0.1, "wd": 0}, **{"lr": 0.2}}
    print("dict merge:", merged, "| list splat:", [*range(3), *"ab"], "| print splat:", *[1, 2])

    print("kw_only:", kw_only(1, 2, scale=10), kw_only(1, 2, scale=2, shift=1))
    print("pos_only:", pos_only(5, 3), pos_only(5, 3, 2), pos_only(5, 3, z=2, w=3))

    not_a_function = 5
    bad_calls = [
        ("missing kw-only", lambda: kw_only(1, 2)),
        ("kw-only passed positionally", lambda: kw_only(1, 2, 3)),
        ("pos-only passed by keyword", lambda: pos_only(x=1, y=2)),
        ("unexpected keyword", lambda: make_multiplier(factor=2, offset=1)),
        ("too many positional", lambda: make_multiplier(1, 2)),
        ("missing positional", lambda: make_multiplier()),
        ("duplicate argument", lambda: build_optimizer("sgd", name="x")),
        ("not callable", lambda: not_a_function()),
        ("lambda arity", lambda: (lambda x: x)(1, 2)),
        ("bad ** mapping", lambda: kw_only(1, 2, **{"scale": 1, "shift": 0, "extra": 9})),
        ("multiple values from **", lambda: kw_only(1, **{"a": 1, "b": 2, "scale": 1})),
        ("builtin wrong type", lambda: len(5)),
        ("builtin arity", lambda: abs(1, 2)),
    ]
    for label, call in bad_calls:
        try:
            call()
        except TypeError as e:
            print(f"{label:>28}: {e}")

    def outer():
        x = "enclosing"

        def inner():
            return x  # found in the enclosing scope

        x = "enclosing (rebound before call)"
        return inner()
    print("LEGB:", outer(), "| builtin len via scope:", len("abc"))
    print("function attrs:", make_counter.__name__, kw_only.__kwdefaults__, pos_only.__defaults__,
          make_counter.__code__.co_argcount)


if __name__ == "__main__":
    main()
