# Exception chaining: raise ... from ..., from None, implicit __context__ while handling, bare
# re-raise, and an uncaught chained exception (its traceback shows the cause first).
class CheckpointError(Exception):
    pass

def load(name):
    try:
        return {"a": 1}[name]
    except KeyError as exc:
        raise CheckpointError(f"no checkpoint {name}") from exc

try:
    load("b")
except CheckpointError as e:
    print(type(e.__cause__).__name__, e.__cause__, e.__suppress_context__, type(e.__context__).__name__)
try:
    try:
        int("x")
    except ValueError:
        raise RuntimeError("parse failed")
except RuntimeError as e:
    print(repr(e.__context__), e.__cause__, e.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("hidden") from None
except ValueError as e:
    print(e.__cause__, e.__suppress_context__, type(e.__context__).__name__)
try:
    try:
        raise KeyError("k")
    except KeyError as e:
        raise
except KeyError as e:
    print("reraise context:", e.__context__)
try:
    try:
        [][1]
    except IndexError:
        {}["missing"]
except KeyError as e:
    print("implicit:", type(e.__context__).__name__)
e = ValueError("fresh")
print(e.__cause__, e.__context__)
try:
    raise ValueError("x") from 3
except TypeError as e:
    print("TypeError:", e)
load("zz")
