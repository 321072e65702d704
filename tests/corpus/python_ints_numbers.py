# Theme: ints and numbers - arbitrary precision integers, floor division and
# modulo with negatives, pow with modulus, bit operations, int() parsing with
# bases, hex/oct/bin, huge int vs float comparisons, float special values,
# round(), Fraction/Decimal basics, plus set/dict ordering of small ints and
# tuples printed directly and sort stability.
import math
from decimal import Decimal, ROUND_HALF_UP
from fractions import Fraction


def digit_sum(n):
    return sum(int(d) for d in str(abs(n)))


def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def main():
    big = 2 ** 100
    print("2**100 =", big, "| bits:", big.bit_length(), "| digits:", len(str(big)))
    print("30! =", math.factorial(30))
    print("10**30 // 7 =", 10 ** 30 // 7, "| 10**30 % 7 =", 10 ** 30 % 7)
    print("2**64 - 1 =", 2 ** 64 - 1, "| (2**64) * (2**64) =", (2 ** 64) * (2 ** 64))
    print("-2**63 - 1 =", -2 ** 63 - 1, "| no overflow:", (2 ** 63 - 1) + 1)
    print("digit sum of 2**1000:", digit_sum(2 ** 1000), "| 100! trailing zeros:",
          len(str(math.factorial(100))) - len(str(math.factorial(100)).rstrip("0")))
    print("mersenne 2**127-1 mod 1000007:", (2 ** 127 - 1) % 1000007)
    print("collatz(27) steps:", collatz_steps(27))

    for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2)]:
        print(f"  {a:>2} // {b:>2} = {a // b:>2}   {a:>2} % {b:>2} = {a % b:>2}   divmod = {divmod(a, b)}"
              f"   int({a}/{b}) = {int(a / b)}")
    print("float floor div:", 7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2, divmod(-7.5, 2))
    print("true division:", 7 / 2, 6 / 3, type(6 / 3).__name__, 1 / 3)

    print("pow mod:", pow(3, 200, 1000), pow(2, 10 ** 18, 10 ** 9 + 7), pow(5, -1, 7), pow(2, -2))
    print("pow big:", pow(7, 77))
    print("bit_length:", [n.bit_length() for n in (0, 1, 2, 255, 256, -256)])
    print("bit ops:", 0b1100 & 0b1010, 0b1100 | 0b1010, 0b1100 ^ 0b1010, ~5, 1 << 70, -16 >> 2, 1000 >> 3)
    print("bit_count:", (255).bit_count(), (2 ** 100 - 1).bit_count())
    print("abs:", abs(-10 ** 20), abs(-3.5), abs(3 + 4j))

    print("int parse:", int("42"), int("-0042"), int("ff", 16), int("0xff", 16), int("0xff", 0),
          int("777", 8), int("1011", 2), int("z", 36), int(" 12_000 "))
    print("int from float:", int(3.99), int(-3.99), int(1e20), int(True))
    for bad in ["3.5", "abc", "", "0x10"]:
        try:
            int(bad)
        except ValueError as e:
            print("  ValueError:", e)
    print("hex/oct/bin:", hex(255), hex(-255), oct(8), bin(10), bin(-10), hex(2 ** 64))
    print("format bases:", format(255, "x"), format(255, "08b"), f"{2**40:_x}", f"{10**12:,}")
    print("to_bytes/from_bytes:", (1024).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"))

    print("huge int vs float:", 10 ** 400 > float("inf"), 10 ** 400 < float("inf"),
          2 ** 53 + 1 == float(2 ** 53 + 1), 2 ** 53 == float(2 ** 53), 10 ** 20 == 1e20)
    print("int+float:", 2 ** 60 + 0.5, "| float(2**100):", float(2 ** 100))
    try:
        float(10 ** 400)
    except OverflowError as e:
        print("OverflowError:", e)
    print("inf/nan:", float("inf"), float("-inf"), float("nan"), float("inf") == float("inf"),
          float("inf") > 1e308, -float("inf") < -1e308, 1e308 * 10)
    print("float repr:", 0.1, 1 / 3, 1e16, 1e-5, 123456789.0, 1.5e300 * 1e10, 2.0 ** 0.5, -0.0)
    print("float methods:", (2.5).is_integer(), (3.0).is_integer(), (0.5).as_integer_ratio(), (0.1).hex())
    print("round:", round(3.14159, 2), round(2.675, 2), round(0.5), round(1.5), round(2.5),
          round(1234.5678, -2), round(1234, -2), round(-2.5), type(round(2.7)).__name__)
    print("min/max/sum:", min(3, 1e-3, -2), max([2 ** 70, 1e21]), sum([0.5] * 4), sum(range(101)))
    print("bool is int:", True + True, True * 10, isinstance(True, int), sum([True, False, True]))
    print("complex:", (1 + 2j) * (3 - 1j), (1 + 2j).conjugate(), complex(3, 4).real, abs(complex(3, 4)))

    print("Fraction:", Fraction(1, 3) + Fraction(1, 6), Fraction(3, 9), Fraction("0.125"),
          Fraction(0.5), Fraction(1, 3) * 3 == 1, float(Fraction(22, 7)))
    print("Decimal:", Decimal("0.1") + Decimal("0.2"), Decimal("0.1") + Decimal("0.2") == Decimal("0.3"),
          Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), Decimal(10) / Decimal(4))

    small = {5, 3, 9, 1, 7, 3, 5}
    print("set of small ints:", small, "| sorted:", sorted(small), "| len:", len(small))
    print("set ops:", {1, 2, 3} | {3, 4}, {1, 2, 3} & {2, 3, 4}, {1, 2, 3} - {2}, {1, 2} ^ {2, 3})
    print("range set:", set(range(10, 0, -2)), "| frozenset:", frozenset([3, 1, 2]))
    pairs = {(0, 1), (1, 0), (0, 0), (1, 1)}
    print("set of tuples:", pairs, "| sorted:", sorted(pairs), "| membership:", (1, 0) in pairs)
    print("set with larger/negative ints:", {100, 33, 64, -1, 8, 17}, {(2, 3), (1, 5), (0, -1)})
    grid = set()
    for i in range(3):
        for j in range(2):
            grid.add((i, j))
    print("grid cells:", grid, "| list(set):", list({30, 10, 20}))
    print("set comprehension:", {x % 4 for x in range(10)}, "| subset:", {1, 2} <= {1, 2, 3}, {1, 2} < {1, 2})
    print("empty set:", set(), "| dict from keys:", dict.fromkeys([3, 1, 2], 0))

    d = {}
    for key in [10, 2, 33, 4]:
        d[key] = key * key
    print("dict insertion order:", d, list(d), list(d.values()))
    d[2] = -1
    del d[10]
    d[10] = 100
    print("after update/delete/reinsert:", d)
    print("dict comprehension:", {k: v for k, v in sorted(d.items(), key=lambda kv: kv[1])})
    print("dict merge |:", {"a": 1, "b": 2} | {"b": 3, "c": 4}, "| keys & :", {"a": 1, "b": 2}.keys() & {"b", "c"})
    print("popitem:", d.popitem(), "| setdefault:", d.setdefault(7, 49), d)

    records = [("bob", 3), ("alice", 1), ("carol", 3), ("dave", 2), ("erin", 1), ("frank", 3)]
    by_score = sorted(records, key=lambda r: r[1])
    print("stable sort by score:", by_score)
    two_pass = sorted(sorted(records, key=lambda r: r[0], reverse=True), key=lambda r: r[1])
    print("two-pass sort:", two_pass)
    print("reverse keeps stability:", sorted(records, key=lambda r: r[1], reverse=True))
    print("tuple ordering:", sorted([(2, "b"), (1, "z"), (2, "a"), (1, "a")]), (1, 2, 3) < (1, 3), (1, 2) < (1, 2, 0))
    mixed = [3, 1.5, True, -2, 2 ** 65, 0.0]
    print("mixed numeric sort:", sorted(mixed))
    try:
        sorted([1, "a"])
    except TypeError as e:
        print("TypeError:", e)


if __name__ == "__main__":
    main()
