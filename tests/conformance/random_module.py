# Python's random module, seeded: the same numbers CPython draws.
import random

random.seed(2024)
print(random.random(), random.randint(1, 6), random.randint(0, 1000))
print(random.choice(["cpu", "cuda:0", "cuda:1"]), random.uniform(-1, 1))
items = list(range(8))
random.shuffle(items)
print(items)
random.seed(7)
print([random.randint(1, 100) for _ in range(5)])
