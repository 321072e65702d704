# Learners' objects with __eq__ and __hash__ as dict keys and set items: found, deduplicated
# and removed by equality as CPython does; __eq__ without __hash__ makes them unhashable; list
# search (in, index, count, remove) uses __eq__; dict and set comprehensions keep one key.
class Coord:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return isinstance(other, Coord) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))

    def __repr__(self):
        return f"Coord({self.x}, {self.y})"


class Loose:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == getattr(other, "v", other)


class Child(Coord):
    pass


class Frozen(Coord):
    __hash__ = None


seen = {Coord(0, 0), Coord(0, 0), Coord(1, 0)}
print(len(seen), Coord(1, 0) in seen, Coord(2, 2) in seen, Coord(0, 0) not in seen)
seen.add(Coord(1, 0))
seen.discard(Coord(0, 0))
print(sorted(seen, key=lambda c: c.x), len(set([Coord(3, 3), Coord(3, 3)])), len({c for c in [Coord(1, 1)] * 3}))
visits = {}
for c in [Coord(0, 0), Coord(0, 1), Coord(0, 0), Coord(0, 0)]:
    visits[c] = visits.get(c, 0) + 1
print(visits, visits[Coord(0, 0)], Coord(0, 1) in visits, len(visits))
del visits[Coord(0, 1)]
print(visits, visits.pop(Coord(0, 0)), visits, visits.setdefault(Coord(5, 5), "new"))
print({Coord(i % 2, 0): i for i in range(5)}, {k % 3: k for k in range(7)})
print({(Coord(1, 1), "a"): 1}[(Coord(1, 1), "a")], Child(1, 1) == Coord(1, 1), {Coord(1, 1): "c"}[Child(1, 1)])
points = [Coord(0, 0), Coord(1, 1), Coord(0, 0)]
print(Coord(1, 1) in points, points.index(Coord(1, 1)), points.count(Coord(0, 0)), Coord(9, 9) in tuple(points))
points.remove(Coord(0, 0))
print(points, {Coord(0, 0)} | {Coord(0, 0), Coord(2, 2)} == {Coord(0, 0), Coord(2, 2)} if False else len({Coord(0, 0)}.union([Coord(0, 0), Coord(2, 2)])))
print(Loose(3) in [1, 2, 3], [Loose(1), Loose(2)].index(Loose(2)))
for make in [lambda: {Loose(1)}, lambda: {Loose(1): 0}, lambda: {Frozen(0, 0)}, lambda: hash(Frozen(1, 1))]:
    try:
        make()
    except TypeError as e:
        print("TypeError:", e)
try:
    points.index(Coord(7, 7))
except ValueError as e:
    print("ValueError:", e)
