# itertools and functools as tutorials use them: batching, cycling, products, grouping,
# partial application, reduce, caching and wraps.
import functools
import itertools
from functools import lru_cache, partial, reduce, wraps

print(list(itertools.islice(itertools.count(10, 5), 4)))
print(list(itertools.islice(itertools.cycle("ab"), 5)), list(itertools.repeat(7, 3)))
print(list(itertools.chain([1, 2], (3,), "ab")), list(itertools.chain.from_iterable([[1], [2, 3]])))
print(list(itertools.islice(range(20), 2, 12, 3)), list(itertools.islice("abcdef", 3)))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([3, 1, 4], max)))
print(list(itertools.accumulate([1, 2, 3], initial=100)))
print(list(itertools.product("ab", [0, 1])), len(list(itertools.product(range(3), repeat=2))))
print(list(itertools.permutations([1, 2, 3], 2)))
print(list(itertools.combinations("abcd", 2)))
print(list(itertools.combinations_with_replacement("ab", 2)))
for key, group in itertools.groupby(sorted(["apple", "avocado", "banana", "cherry", "cranberry"]), key=lambda w: w[0]):
    print(key, list(group))
print([(k, len(list(g))) for k, g in itertools.groupby("aaabccdd")])
print(list(itertools.zip_longest("abc", [1], fillvalue="-")))
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.pairwise([1, 2, 4, 7])))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(itertools.compress("abcdef", [1, 0, 1, 0, 1, 1])), list(itertools.filterfalse(lambda x: x % 2, range(6))))
a, b = itertools.tee([1, 2, 3])
print(list(a), list(b))

power = partial(pow, exp=2)
print(power(7), partial(int, base=2)("101101"))
print(reduce(lambda x, y: x * y, [1, 2, 3, 4]), reduce(lambda x, y: x + y, [], 0))
try:
    reduce(lambda x, y: x + y, [])
except TypeError as e:
    print("TypeError:", e)

calls = []


@lru_cache(maxsize=None)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), len(calls), fib.cache_info())
fib.cache_clear()
print(fib.cache_info())


@functools.lru_cache(maxsize=2)
def square(x):
    return x * x


print([square(i) for i in [1, 2, 1, 3, 1]], square.cache_info())


def logged(func):
    @wraps(func)
    def wrapper(*args, **kwargs):
        print("calling", func.__name__)
        return func(*args, **kwargs)
    return wrapper


@logged
def train_step(lr):
    """One step."""
    return lr * 2


print(train_step(0.5), train_step.__name__, train_step.__doc__)
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
