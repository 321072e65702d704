# Functions know where they were defined (__qualname__ in reprs and argument errors), their
# defaults are readable, and the synchronous path for plain statements (`x = ...`,
# `x op= ...`, `if`/`elif` of simple tests) keeps Python's order and errors.


def main():
    make = lambda: (lambda y: y)
    try:
        make()(1, 2)
    except TypeError as e:
        print(e)

    def scaled(a, b=2, *, c=3):
        return (a + b) * c

    print(scaled.__qualname__, scaled.__defaults__, scaled.__kwdefaults__)
    print(main.__defaults__, main.__kwdefaults__)
    print([lambda: 0 for _ in range(1)][0].__qualname__)
    print(next(lambda: 1 for _ in range(1)).__qualname__)

    class Net:
        def forward(self):
            def hook():
                pass

            return hook

        class Block:
            def run(self):
                pass

    print(Net().forward().__qualname__, Net.forward.__qualname__, Net.Block.run.__qualname__)
    print(repr(Net().forward()).split(" at ")[0])
    print(repr(Net().forward).split(" of ")[0])
    try:
        Net().forward(1)
    except TypeError as e:
        print(e)


def top(x=1):
    return x


main()
print(top.__qualname__, top.__defaults__, repr(top).split(" at ")[0])

total = 0
for i in range(6):
    total += i * 3 % 7
    if total > 12:
        label = "big"
    elif total > 4:
        label = "mid"
    elif total:
        label = "small"
    else:
        label = "zero"
    print(i, total, label)

# An elif whose test is not simple, after simple ones that were false.
items = [3]
for n in [0, 1]:
    if n > 5:
        print("never")
    elif len(items) > n:
        print("len test", n)

# A float, a string and a big int through the same path.
x = 0.5
x *= 4
s = "ab"
s += "c" * 2
big = 2**62
big += 2**62
print(x, s, big, -big // 3)

# The target is read before the operand: the error names the target.
try:
    undefined_total += undefined_operand
except NameError as e:
    print(e)

count = 1
try:
    count += "one"
except TypeError as e:
    print(e)
print(count)
try:
    if count > "one":
        print("never")
except TypeError as e:
    print(e)
x = 1
x += undefined_name
