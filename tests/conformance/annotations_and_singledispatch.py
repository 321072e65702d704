# Function annotations (read from __annotations__, in CPython's order, strings kept as written)
# and functools.singledispatch dispatching on an annotated first parameter.
import functools
from typing import Optional


def train(model: str, epochs: int = 3, *rest: float, lr: "float" = 0.1, **kw: bool) -> Optional[dict]:
    return None


print(train.__annotations__)
print((lambda x: x).__annotations__, (lambda: 0).__annotations__ == {})


def plain(a, b):
    pass


print(plain.__annotations__)


@functools.singledispatch
def render(x):
    return "<" + repr(x) + ">"


@render.register
def _(x: int):
    return "i" + str(x)


@render.register(list)
def _(x):
    return "n=" + str(len(x))


@render.register
def _(x: str) -> str:
    return x.upper()


print(render(5), render([1, 2]), render("s"), render(2.5), render(True))
try:
    @render.register
    def _(x):
        pass
except TypeError as e:
    print("TypeError:", str(e).split(":")[0])
