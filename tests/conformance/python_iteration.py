# The iteration protocol: iter/next, generators of values via classes, zip/map/filter laziness.
class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1

print(list(Countdown(3)))
it = iter([1, 2, 3])
print(next(it), next(it), next(it), next(it, "done"))
z = zip("abc", range(10))
print(list(z), list(z))
print(list(map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6])))
print(list(filter(lambda v: v % 2, range(7))))
print(sum(x * x for x in range(5)), max(Countdown(4)), sorted(Countdown(3)))
for i, (a, b) in enumerate(zip("xy", "pq"), start=1):
    print(i, a + b)
try:
    next(iter([]))
except StopIteration:
    print("StopIteration")
