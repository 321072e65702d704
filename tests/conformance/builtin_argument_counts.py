# Every builtin takes the number of arguments CPython's does, and says so in CPython's words
# when given another number or a keyword it does not take: none ignores an argument.
names = [
    "abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr", "complex",
    "delattr", "dict", "divmod", "enumerate", "filter", "float", "format", "getattr",
    "hasattr", "hash", "hex", "id", "int", "isinstance", "issubclass", "iter", "len", "list",
    "map", "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed", "round",
    "set", "setattr", "sorted", "str", "sum", "tuple", "zip",
]
for name in names:
    function = eval(name)
    for args in [(), (1, 2, 3, 4, 5, 6)]:
        try:
            result = function(*args)
            outcome = "ok " + type(result).__name__
        except Exception as e:
            outcome = type(e).__name__ + ": " + str(e)
        print(name, len(args), outcome)

calls = [
    "abs(-2)", "pow(1)", "round()", "round(2.675, 2)", "dir(1, 2)", "type()", "type(1, 2)",
    "object(1)", "len(obj=1)", "abs(x=1)", "isinstance(1, int, z=2)", "sorted()",
    "sorted([1], 2)", "sorted([3, 1], reverse=True)", "max(key=len)", "max([1, 5], key=abs)",
    "min(3, 1, 2)", "int(1, 2, 3)", "int('ff', base=16)", "str(1, 2, 3, 4)", "sum([1], 0, 3)",
    "sum([1], start=2)", "pow(2, exp=3)", "range(1, x=2)", "list(x=1)", "float(x=1)",
    "divmod(1, b=2)", "list(enumerate(iterable='ab'))", "list(enumerate('ab', start=5))",
    "enumerate([1], 1.5)",
    "getattr(1)", "next()", "bool(x=1)", "dict(a=1)", "map(len)", "format(1, 'd', 3)",
    "map(len, ['a'], x=1)", "round(1.5, x=1)", "pow(2, 3, x=1)", "int(1, x=2)", "str(1, x=2)",
    "bytes(x=1)", "complex(x=1)", "sorted([1], revers=True)", "max([1], x=1)", "sum([1], x=1)",
    "enumerate([1], x=1)", "dict(x=1)", "round(number=1.25, ndigits=1)",
    "pow(base=2, exp=3, mod=5)", "complex(real=1, imag=2)", "str(object=5)", "int(x='5')",
    "bytes(source=b'a')", "max([], default=0)", "min([4, -5], key=abs)", "sum([0.5], start=1)",
    "sorted(['b', 'A'], key=str.lower, reverse=True)", "int('11', base=2)",
    "list(zip([1, 2], [3], strict=True))", "list(zip([1], [2, 3], strict=True))",
    "list(zip([1], [2], [3, 4], strict=True))", "list(zip([1, 2], [3, 4], [5], strict=True))",
    "list(zip([1], [2], strict=True))", "list(zip([1], [2], stricter=True))",
    "dict([(1, 2)], a=3)", "dict({'a': 1}, a=2, b=3)", "vars(1, 2)",
]
for call in calls:
    try:
        print(call, "->", eval(call))
    except Exception as e:
        print(call, "->", type(e).__name__, e)
