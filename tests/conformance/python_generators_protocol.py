# Generators: laziness, send/throw/close, yield from with return values, generator
# expressions consumed by builtins, and Python's errors for the protocol's misuses.
log = []


def numbers(n):
    for i in range(n):
        log.append(f"make {i}")
        yield i


g = numbers(3)
print(type(g).__name__, log)
print(next(g), log)
print(list(g), log)
print(next(g, "exhausted"))


def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            return received
        received.append(value)


e = echo()
print(e.send(None), e.send("a"), e.send("b"))
try:
    e.send(None)
except StopIteration as stop:
    print("returned", stop.value, stop.args)

try:
    echo().send(1)
except TypeError as err:
    print("TypeError:", err)


def inner():
    sent = yield "inner 1"
    yield f"inner got {sent}"
    return "inner result"


def outer():
    result = yield from inner()
    yield f"outer got {result}"
    yield from range(2)


o = outer()
print(next(o), o.send("hello"), next(o), list(o))


def guarded():
    try:
        yield 1
        yield 2
    finally:
        print("finally ran")


gg = guarded()
print(next(gg))
gg.close()
print(next(gg, "closed"))


def recovering():
    while True:
        try:
            yield "ok"
        except KeyError as err:
            yield f"recovered {err}"


r = recovering()
print(next(r), r.throw(KeyError("k")), next(r))

squares = (x * x for x in range(6) if x % 2 == 0)
print(sum(squares), sum(squares))
print(max(len(w) for w in ["a", "abc", "ab"]), "-".join(str(i) for i in range(4)))
print(sorted((c for c in "generator"), reverse=True)[:3], any(x > 2 for x in [1, 2, 3]))
print(dict((k, k * 2) for k in "ab"), set(x % 3 for x in range(10)))

pairs = ((i, j) for i in range(3) for j in range(i))
print(list(pairs))


def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


f = fib()
print([next(f) for _ in range(10)])
print(next(x for x in fib() if x > 100))


def reentrant():
    yield next(me)


me = reentrant()
try:
    next(me)
except ValueError as err:
    print("ValueError:", err)


def leaks():
    yield 1
    raise StopIteration("inside")


try:
    list(leaks())
except RuntimeError as err:
    print("RuntimeError:", err)

try:
    (x for x in 5)
except TypeError as err:
    print("TypeError:", err)


def fails():
    yield 1
    return 1 / 0


list(fails())
