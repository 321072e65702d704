# Theme: generators - yield, send(), yield from with return values, generator
# expressions fed to builtins, infinite generators with islice, StopIteration,
# and a generator-based data pipeline.
import itertools


def countdown(n):
    """Yield n, n-1, ..., 1."""
    while n > 0:
        yield n
        n -= 1


def running_average():
    """A coroutine-style generator: send values in, get the running mean out."""
    total = 0.0
    count = 0
    average = None
    while True:
        value = yield average
        if value is None:
            break
        total += value
        count += 1
        average = total / count
    return count


def batch_loss(batch_id, losses):
    """Sub-generator: yields per-step losses and returns their sum."""
    total = 0.0
    for step, loss in enumerate(losses):
        yield f"batch {batch_id} step {step}: loss={loss:.2f}"
        total += loss
    return total


def epoch(batches):
    """Delegating generator: uses yield from and collects return values."""
    totals = []
    for batch_id, losses in enumerate(batches):
        total = yield from batch_loss(batch_id, losses)
        totals.append(round(total, 2))
    return totals


def naturals(start=0):
    n = start
    while True:
        yield n
        n += 1


def fibonacci():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


# --- pipeline stages -------------------------------------------------------
def read_records(lines):
    for line in lines:
        yield line


def parse(records):
    for rec in records:
        rec = rec.strip()
        if not rec or rec.startswith("#"):
            continue
        name, score = rec.split(",")
        yield name.strip(), float(score)


def keep_above(pairs, threshold):
    for name, score in pairs:
        if score >= threshold:
            yield name, score


def normalise(pairs, scale):
    for name, score in pairs:
        yield name.title(), score / scale


def main():
    print("countdown:", list(countdown(5)))
    gen = countdown(2)
    print("next:", next(gen), next(gen))
    try:
        next(gen)
    except StopIteration:
        print("countdown exhausted -> StopIteration")
    print("default from next():", next(gen, "done"))

    # send()
    avg = running_average()
    print("primed:", next(avg))
    for v in [10, 20, 30, 40]:
        print(f"sent {v} -> average {avg.send(v)}")
    try:
        avg.send(None)
    except StopIteration as stop:
        print("coroutine returned count =", stop.value)

    # yield from with return values
    batches = [[0.9, 0.7], [0.5, 0.4, 0.35], [0.3]]
    g = epoch(batches)
    while True:
        try:
            print(" ", next(g))
        except StopIteration as stop:
            print("epoch totals:", stop.value)
            break

    # generator expressions passed to builtins
    nums = [3, -1, 4, -1, 5, -9, 2, 6]
    print("sum of squares:", sum(x * x for x in nums))
    print("any negative:", any(x < 0 for x in nums))
    print("all small:", all(abs(x) < 10 for x in nums))
    print("max abs:", max(abs(x) for x in nums))
    print("min positive:", min(x for x in nums if x > 0))
    print("sorted evens desc:", sorted((x for x in nums if x % 2 == 0), reverse=True))
    print("joined:", "-".join(str(x) for x in nums if x > 0))
    print("dict from genexpr:", dict((str(x), x * 2) for x in range(4)))

    # lazy evaluation
    squares = (x * x for x in range(5))
    print("type name:", type(squares).__name__)
    print("first two:", next(squares), next(squares))
    print("rest:", list(squares))
    print("again (exhausted):", list(squares))

    # infinite generators with islice
    print("naturals 10..14:", list(itertools.islice(naturals(10), 5)))
    print("fibonacci first 12:", list(itertools.islice(fibonacci(), 12)))
    print("fib every 3rd:", list(itertools.islice(fibonacci(), 0, 20, 3)))
    big = next(f for f in fibonacci() if f > 1000)
    print("first fib > 1000:", big)

    # generator close() and finally
    def guarded():
        try:
            yield 1
            yield 2
        finally:
            print("  guarded: cleanup ran")

    gg = guarded()
    print("guarded first:", next(gg))
    gg.close()
    print("closed; next gives:", next(gg, "nothing"))

    # throw()
    def tolerant():
        while True:
            try:
                yield "ok"
            except ValueError as exc:
                yield f"recovered from {exc}"

    t = tolerant()
    print(next(t), "|", t.throw(ValueError("bad value")), "|", next(t))

    # pipeline
    raw = [
        "# name,score",
        "alice, 91",
        "bob, 67",
        "",
        "carol, 78.5",
        "dave, 55",
        "erin, 88",
    ]
    pipeline = normalise(keep_above(parse(read_records(raw)), 70), 100)
    for name, frac in pipeline:
        print(f"  {name:<6} {frac:.3f}")

    # return inside generator -> StopIteration.value
    def gives_back():
        yield "a"
        return "finished"

    it = gives_back()
    next(it)
    try:
        next(it)
    except StopIteration as e:
        print("StopIteration value:", repr(e.value))


if __name__ == "__main__":
    main()
