# Decorators (torch.no_grad() on an evaluation function, property, staticmethod, learners' own)
# and key= for sorted/min/max.
import torch

w = torch.ones(2, requires_grad=True)

@torch.no_grad()
def evaluate(x):
    return (w * x).sum()

out = evaluate(torch.tensor([1.0, 2.0]))
print(out, out.requires_grad, torch.is_grad_enabled())

def shout(f):
    def wrapper(*args):
        return f(*args).upper()
    return wrapper

@shout
def greet(name):
    return f"hello {name}"

print(greet("lab"))

class Box:
    def __init__(self, side):
        self.side = side

    @property
    def area(self):
        return self.side * self.side

    @staticmethod
    def unit():
        return Box(1)

print(Box(3).area, Box.unit().side, Box(2).unit().area)
words = ["cuda", "cpu", "mps", "meta"]
print(sorted(words, key=len), sorted(words, key=lambda s: s[-1], reverse=True))
print(min(words, key=len), max(words, key=len), max([3, -7, 5], key=abs))
