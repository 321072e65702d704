# Theme: functools (partial, reduce, wraps, lru_cache/cache_info, cache,
# total_ordering, cmp_to_key, singledispatch) and itertools (chain, product,
# permutations, combinations, accumulate, groupby, zip_longest, count, repeat,
# starmap, takewhile, dropwhile, tee, islice, compress, pairwise, cycle).
import functools
import itertools
import operator


def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        result = func(*args, **kwargs)
        print(f"  {func.__name__}{args} -> {result}")
        return result
    return wrapper


@logged
def scale(x, factor=2):
    """Multiply x by factor."""
    return x * factor


def unwrapped_decorator(func):
    def wrapper(*args):
        return func(*args)
    return wrapper


@unwrapped_decorator
def plain():
    """Docstring that gets lost."""


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@functools.lru_cache(maxsize=2)
def square(n):
    return n * n


@functools.total_ordering
class Score:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return self.value == other.value

    def __lt__(self, other):
        return self.value < other.value

    def __repr__(self):
        return f"Score({self.value})"


@functools.singledispatch
def describe(x):
    return f"object {x!r}"


@describe.register
def _(x: int):
    return f"int {x}"


@describe.register(list)
def _(x):
    return f"list of {len(x)}"


def power(base, exponent):
    return base ** exponent


def main():
    # partial
    square_of = functools.partial(power, exponent=2)
    two_to = functools.partial(power, 2)
    print("partial:", square_of(7), two_to(10), square_of.func.__name__, square_of.keywords, two_to.args)
    int_from_bin = functools.partial(int, base=2)
    print("int base 2:", int_from_bin("101101"))

    # reduce
    print("reduce add:", functools.reduce(operator.add, [1, 2, 3, 4, 5]))
    print("reduce with init:", functools.reduce(lambda acc, x: acc * x, [1, 2, 3, 4], 10))
    print("reduce max:", functools.reduce(lambda a, b: a if a > b else b, [3, 9, 2, 7]))
    nested = [[1, 2], [3], [4, 5, 6]]
    print("flatten via reduce:", functools.reduce(operator.concat, nested, []))

    # wraps
    scale(3)
    scale(4, factor=10)
    print("wraps kept:", scale.__name__, "|", scale.__doc__, "| wrapped:", scale.__wrapped__.__name__)
    print("without wraps:", plain.__name__, plain.__doc__)

    # lru_cache
    print("fib(60):", fib(60))
    print("fib cache:", fib.cache_info())
    for n in [2, 3, 2, 4, 3]:
        square(n)
    print("square cache:", square.cache_info())
    square.cache_clear()
    print("after clear:", square.cache_info())

    # total_ordering / cmp_to_key / singledispatch
    print("total_ordering:", Score(3) >= Score(2), Score(1) > Score(5), Score(2) <= Score(2))
    print("sorted scores:", sorted([Score(4), Score(1), Score(3)]))
    by_len_then_alpha = functools.cmp_to_key(lambda a, b: (len(a) - len(b)) or ((a > b) - (a < b)))
    print("cmp_to_key:", sorted(["pear", "fig", "apple", "kiwi", "date"], key=by_len_then_alpha))
    print("singledispatch:", describe(5), "|", describe([1, 2]), "|", describe("s"))

    # itertools
    print("chain:", list(itertools.chain([1, 2], (3,), "ab")))
    print("chain.from_iterable:", list(itertools.chain.from_iterable([[1], [2, 3], []])))
    grid = list(itertools.product([0.1, 0.01], [16, 32]))
    print("product (hyperparameter grid):", grid)
    print("product repeat:", ["".join(p) for p in itertools.product("01", repeat=3)])
    print("permutations:", list(itertools.permutations("abc", 2)))
    print("combinations:", list(itertools.combinations(range(4), 2)))
    print("combinations_with_replacement:", list(itertools.combinations_with_replacement("xy", 2)))
    print("accumulate sum:", list(itertools.accumulate([1, 2, 3, 4, 5])))
    print("accumulate max:", list(itertools.accumulate([3, 1, 4, 1, 5, 9, 2], max)))
    print("accumulate initial:", list(itertools.accumulate([1, 2, 3], operator.mul, initial=10)))

    records = [("cat", 3), ("cat", 5), ("dog", 2), ("cat", 1), ("dog", 7), ("dog", 1)]
    print("groupby (unsorted, consecutive runs):")
    for key, grp in itertools.groupby(records, key=operator.itemgetter(0)):
        print(f"  {key}: {[v for _, v in grp]}")
    print("groupby (sorted):", {k: sum(v for _, v in g) for k, g in
                                itertools.groupby(sorted(records), key=lambda r: r[0])})
    print("groupby string:", [(k, len(list(g))) for k, g in itertools.groupby("aaabccdddd")])

    print("zip_longest:", list(itertools.zip_longest("abc", [1, 2], fillvalue="-")))
    print("count + zip:", list(zip(itertools.count(start=100, step=10), "xyz")))
    print("repeat:", list(itertools.repeat("na", 4)), list(map(pow, range(5), itertools.repeat(2))))
    print("starmap:", list(itertools.starmap(power, [(2, 3), (3, 2), (10, 0)])))
    data = [1, 4, 6, 3, 8, 2]
    print("takewhile < 5:", list(itertools.takewhile(lambda x: x < 5, data)))
    print("dropwhile < 5:", list(itertools.dropwhile(lambda x: x < 5, data)))
    print("filterfalse odd:", list(itertools.filterfalse(lambda x: x % 2, data)))
    a, b = itertools.tee(iter(data), 2)
    next(b)
    print("tee pairs:", list(zip(a, b)))
    print("pairwise:", list(itertools.pairwise("abcd")))
    print("islice:", list(itertools.islice(itertools.count(), 5, 15, 3)))
    print("compress:", list(itertools.compress("ABCDEF", [1, 0, 1, 0, 1, 1])))
    print("cycle:", list(itertools.islice(itertools.cycle(["train", "eval"]), 5)))
    epochs = itertools.count(1)
    losses = [0.9, 0.5, 0.3, 0.25, 0.24]
    for epoch, loss in zip(epochs, losses):
        if loss < 0.3:
            print(f"early stop at epoch {epoch} with loss {loss}")
            break
    print("operator helpers:", sorted(records, key=operator.itemgetter(1, 0))[:3],
          operator.attrgetter("real")(3 + 4j), operator.methodcaller("upper")("done"))


if __name__ == "__main__":
    main()
