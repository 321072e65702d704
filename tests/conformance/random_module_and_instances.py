# random as CPython draws it: seeded module functions, random.Random, state, distributions, errors.
import random
random.seed(42)
print(random.random(), random.randint(1, 10), random.randrange(100), random.randrange(5, 50, 5))
print(random.choice("abcdef"), random.choice([1, 2, 3]), random.uniform(-1, 1))
xs = list(range(10)); random.shuffle(xs); print(xs)
print(random.sample(range(100), 5), random.sample(["a", "b", "c", "d"], 2), random.sample(range(1000), 10))
print(random.choices(["x", "y", "z"], k=5), random.choices([1, 2, 3], weights=[10, 1, 1], k=6))
# Distributions go through log, exp, sin and cos, whose last bit the browser's libm may round
# otherwise: 12 digits are compared.
r12 = lambda *xs: [round(x, 12) for x in xs]
print(r12(random.gauss(0, 1), random.gauss(5, 2), random.normalvariate(0, 1), random.expovariate(2.0)))
print(r12(random.triangular(0, 10, 2), random.betavariate(2, 3), random.gammavariate(0.5, 1), random.gammavariate(3, 2)))
print(r12(random.lognormvariate(0, 0.5), random.vonmisesvariate(1, 4), random.paretovariate(3), random.weibullvariate(1, 2)))
print(random.getrandbits(8), random.getrandbits(100), random.getrandbits(0))
rng = random.Random(123)
print(rng.random(), rng.randint(0, 99), [rng.randrange(10) for _ in range(5)])
state = rng.getstate()
a = [rng.random() for _ in range(3)]
rng.setstate(state)
print(a == [rng.random() for _ in range(3)], len(state[1]), state[0])
r2 = random.Random(2**80 + 5); print(r2.random())
r3 = random.Random(3.5); print(r3.random())
random.seed(7); first = random.random(); random.seed(7); print(first == random.random())
print(random.sample(range(10), k=3, counts=None), random.sample(["r", "b"], counts=[3, 2], k=4))
for bad in [lambda: random.randrange(0), lambda: random.randrange(5, 5), lambda: random.choice([]),
            lambda: random.sample([1, 2], 3), lambda: random.randrange(1, 10, 0), lambda: random.getrandbits(-1),
            lambda: random.sample({1, 2}, 1), lambda: random.randint(5, 1)]:
    try:
        bad()
    except (ValueError, IndexError, TypeError) as e:
        print(type(e).__name__, e)
