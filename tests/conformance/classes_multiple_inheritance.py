# Multiple inheritance: C3 method resolution order, super() along it, mixins, exception classes with two built-in bases.
class A:
    def hello(self): return "A"
    def who(self): return "A.who"
class B(A):
    def hello(self): return "B>" + super().hello()
class C(A):
    def hello(self): return "C>" + super().hello()
    def who(self): return "C.who"
class D(B, C):
    def hello(self): return "D>" + super().hello()
print(D().hello(), D().who(), [k.__name__ for k in D.__mro__], D.__bases__ == (B, C))
print(issubclass(D, C), isinstance(D(), A), [k.__name__ for k in A.__mro__], A.__bases__)
class LogMixin:
    def log(self, m): return f"[{type(self).__name__}] {m}"
class Base:
    def __init__(self, x): self.x = x
class Model(LogMixin, Base):
    def __init__(self, x):
        super().__init__(x)
print(Model(3).log("hi"), Model(3).x, [k.__name__ for k in Model.__mro__])
class TrainingError(Exception): pass
class ConfigError(TrainingError, ValueError): pass
try:
    raise ConfigError("bad lr")
except ValueError as e:
    print("caught as ValueError:", e, type(e).__name__, isinstance(e, TrainingError))
print([c.__name__ for c in ConfigError.__mro__], issubclass(ConfigError, ValueError))
class KE(TrainingError, KeyError): pass
print([c.__name__ for c in KE.__mro__])
try:
    class X(A, B): pass
except TypeError as e:
    print("TypeError:", e)
try:
    class Y(A, A): pass
except TypeError as e:
    print("TypeError:", e)
