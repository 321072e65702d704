# Theme: exceptions - user-defined hierarchies, raise from, implicit and explicit
# chaining, try/except/else/finally ordering, re-raise, custom __init__/__str__,
# catching by base class, str(e)/repr(e)/e.args, context managers and suppression.
import contextlib


class TrainingError(Exception):
    """Base class for all errors in our toy training loop."""


class ConfigError(TrainingError, ValueError):
    def __init__(self, key, value, reason="invalid"):
        super().__init__(key, value)
        self.key = key
        self.value = value
        self.reason = reason

    def __str__(self):
        return f"config key {self.key!r} has {self.reason} value {self.value!r}"


class ShapeMismatch(TrainingError):
    def __init__(self, expected, got):
        super().__init__(f"expected shape {expected}, got {got}")
        self.expected = expected
        self.got = got


class DivergenceError(TrainingError, ArithmeticError):
    pass


class CheckpointError(TrainingError, OSError):
    pass


def validate_config(cfg):
    if cfg.get("lr", 0) <= 0:
        raise ConfigError("lr", cfg.get("lr"), "non-positive")
    if not isinstance(cfg.get("epochs"), int):
        raise ConfigError("epochs", cfg.get("epochs"))
    return True


def check_shape(expected, got):
    if expected != got:
        raise ShapeMismatch(expected, got)


def load_checkpoint(name):
    try:
        data = {"model.pt": b"weights"}[name]
    except KeyError as exc:
        raise CheckpointError(f"no checkpoint named {name}") from exc
    return data


def parse_int(text):
    try:
        return int(text)
    except ValueError:
        # implicit chaining: raising inside an except block sets __context__
        raise TrainingError(f"cannot parse {text!r}")


def ordering(x):
    log = []
    try:
        log.append("try")
        result = 10 // x
    except ZeroDivisionError:
        log.append("except")
        result = None
    else:
        log.append("else")
    finally:
        log.append("finally")
    return result, log


def finally_overrides():
    try:
        return "from try"
    finally:
        print("  finally runs before the return value is delivered")


def reraise(value):
    try:
        return int(value)
    except ValueError:
        print(f"  logging failure for {value!r}, then re-raising")
        raise


def main():
    # custom __str__ / args / repr
    try:
        validate_config({"lr": -0.1, "epochs": 3})
    except ConfigError as e:
        print("str:", str(e))
        print("args:", e.args)
        print("repr:", repr(e))
        print("is ValueError:", isinstance(e, ValueError))
        print("is TrainingError:", isinstance(e, TrainingError))

    try:
        validate_config({"lr": 0.1, "epochs": "ten"})
    except ValueError as e:  # caught by a base class
        print("caught as ValueError:", e)

    try:
        check_shape((3, 224, 224), (3, 32, 32))
    except TrainingError as e:
        print(type(e).__name__, "->", e, "| expected", e.expected)
        print("repr:", repr(e))

    # raise ... from
    try:
        load_checkpoint("missing.pt")
    except OSError as e:
        print("caught:", type(e).__name__, e)
        print("cause:", type(e.__cause__).__name__, e.__cause__)
        print("suppress_context:", e.__suppress_context__)

    # implicit chaining
    try:
        parse_int("twelve")
    except TrainingError as e:
        print("caught:", e)
        print("context:", type(e.__context__).__name__, "-", e.__context__)
        print("cause is None:", e.__cause__ is None)

    # raise from None hides the context
    try:
        try:
            {}["k"]
        except KeyError:
            raise LookupError("friendly message") from None
    except LookupError as e:
        print("from None ->", e, "| suppress:", e.__suppress_context__,
              "| cause:", e.__cause__)

    # ordering
    print(ordering(5))
    print(ordering(0))
    print("returned:", finally_overrides())

    # re-raise
    try:
        reraise("abc")
    except ValueError as e:
        print("outer caught:", e)

    # multiple except clauses and tuples
    def risky(kind):
        if kind == "zero":
            return 1 / 0
        if kind == "index":
            return [][1]
        if kind == "key":
            return {}["missing"]
        if kind == "type":
            return "a" + 1
        if kind == "diverge":
            raise DivergenceError("loss became nan")
        return "fine"

    for kind in ["zero", "index", "key", "type", "diverge", "none"]:
        try:
            out = risky(kind)
        except (IndexError, KeyError) as e:
            print(f"{kind:>8}: lookup problem {type(e).__name__}: {e}")
        except ArithmeticError as e:
            print(f"{kind:>8}: arithmetic {type(e).__name__}: {e}")
        except Exception as e:
            print(f"{kind:>8}: other {type(e).__name__}: {e}")
        else:
            print(f"{kind:>8}: ok -> {out}")

    # args of builtin exceptions
    e = KeyError("weights")
    print("KeyError str/repr/args:", str(e), repr(e), e.args)
    e = ValueError("bad", 42)
    print("ValueError str/repr/args:", str(e), repr(e), e.args)
    print("empty:", repr(str(RuntimeError())), repr(RuntimeError()))

    # MRO of our hierarchy
    print([c.__name__ for c in ConfigError.__mro__])
    print(issubclass(CheckpointError, OSError), issubclass(DivergenceError, ValueError))

    # suppressing exceptions
    with contextlib.suppress(FileNotFoundError):
        raise FileNotFoundError("nope")
    print("suppress worked")

    # exception in context manager __exit__
    class Guard:
        def __enter__(self):
            print("  enter guard")
            return self

        def __exit__(self, exc_type, exc, tb):
            print("  exit guard, saw:", exc_type.__name__ if exc_type else None)
            return exc_type is ZeroDivisionError

    with Guard():
        1 / 0
    print("ZeroDivisionError swallowed by Guard")
    try:
        with Guard():
            raise KeyError("x")
    except KeyError as e:
        print("KeyError propagated:", e)

    # assert
    try:
        assert 1 + 1 == 3, "math is broken"
    except AssertionError as e:
        print("AssertionError:", e)

    # exception variable is cleared after the except block
    try:
        raise ValueError("temp")
    except ValueError as err:
        pass
    print("err still bound:", "err" in dir())

    # ExceptionGroup (3.11)
    try:
        raise ExceptionGroup("many", [ValueError("v1"), TypeError("t1"), ValueError("v2")])
    except* ValueError as eg:
        print("value errors:", [str(x) for x in eg.exceptions])
    except* TypeError as eg:
        print("type errors:", [str(x) for x in eg.exceptions])


if __name__ == "__main__":
    main()
