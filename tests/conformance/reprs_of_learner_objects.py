import torch


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"


class Named:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "named " + self.name

    def __repr__(self):
        return f"Named({self.name!r})"


p = Point(1, 2)
points = [p, Point(3, 4)]
print(points)
print({"origin": Point(0, 0), "pair": (p, Named("a"))})
print(str(points), repr(p), str(p))
print(Named("b"), [Named("c")], f"{Named('d')} {Named('e')!r} {[Named('f')]}")
print(f"{points}")

# Containers that hold themselves print as CPython prints them.
loop = [1, 2]
loop.append(loop)
print(loop)
table = {"k": 1}
table["self"] = table
print(table, len(table))
print((loop, [loop]))

# The trailing value of a cell uses the learner's __repr__ too.
points
