# Exception classes defined by learners: hierarchy, args, str and repr, except by base class,
# issubclass/isinstance, and how an uncaught one ends the traceback.


class TrainingError(Exception):
    pass


class ConfigError(TrainingError, ValueError):
    def __init__(self, key, value):
        super().__init__(key, value)
        self.key = key
        self.value = value

    def __str__(self):
        return f"bad {self.key}: {self.value}"


class DivergedError(TrainingError):
    def __init__(self, step, loss):
        super().__init__(f"loss {loss} at step {step}")
        self.step = step


try:
    raise ConfigError("lr", -0.1)
except TrainingError as e:
    print(type(e).__name__, "|", e, "|", e.args, "|", repr(e), "|", e.key)

try:
    raise DivergedError(7, float("inf"))
except Exception as e:
    print(type(e).__name__, "|", e, "|", e.args, "|", repr(e), "|", e.step)

print(issubclass(ConfigError, TrainingError), issubclass(ConfigError, Exception))
print(issubclass(DivergedError, ValueError), isinstance(DivergedError(1, 2.0), Exception))

try:
    raise TrainingError
except TrainingError as e:
    print("bare class:", repr(e), e.args, f"[{e}]")

for error in (KeyError("k"), FileNotFoundError("missing.pt"), TrainingError("x", 1)):
    try:
        raise error
    except (LookupError, OSError) as e:
        print("caught builtin:", type(e).__name__, e)
    except TrainingError as e:
        print("caught learner:", e)

print(issubclass(FileNotFoundError, OSError), issubclass(KeyError, LookupError))
print(ValueError("a", 2).args, str(ValueError("a", 2)), str(ValueError()))

raise DivergedError(3, 12.5)
