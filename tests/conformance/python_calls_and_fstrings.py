# The Python of tutorials: f"{x=}", the walrus, annotations, ** in calls, chr/ord, str.join.
import torch

lr = 0.01
epoch = 3
print(f"{lr=}, {epoch=}, {epoch + 1=}")
print(f"{lr = }")
print(f"{lr=:.3f} {epoch=!s}")
loss = torch.tensor(0.25)
print(f"{loss.item()=}")

values = [3, 8, 1, 9]
if (n := len(values)) > 3:
    print("long list:", n)
big = [y for x in values if (y := x * 2) > 5]
print(big, y)

count: int = 0
name: str
learning_rate: float = 1e-3
print(count, learning_rate)


def step(model, lr: float = 0.1, *, momentum: float = 0.0) -> str:
    return f"{model} lr={lr} momentum={momentum}"


settings = {"lr": 0.5, "momentum": 0.9}
print(step("net", **settings))
args = ("net",)
print(step(*args, **{"momentum": 0.8}))
try:
    step("net", lr=1, **{"lr": 2})
except TypeError as e:
    print("TypeError:", e)
try:
    step("net", **["lr"])
except TypeError as e:
    print("TypeError:", e)
try:
    step("net", **{1: 2})
except TypeError as e:
    print("TypeError:", e)

print(chr(65), chr(955), ord("a"), ord("λ"))
try:
    ord("ab")
except TypeError as e:
    print("TypeError:", e)
try:
    chr(-1)
except ValueError as e:
    print("ValueError:", e)

print(", ".join(map(str, values)))
print("-".join(str(v) for v in values))
print("".join(["a", "b"]))
try:
    ", ".join(values)
except TypeError as e:
    print("TypeError:", e)
words = []
words.extend(w.upper() for w in ["x", "y"])
print(words)
