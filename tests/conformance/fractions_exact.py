# fractions.Fraction: exact rationals from ints, floats and strings, and how they mix.
from fractions import Fraction

print(Fraction(1, 3) + Fraction(1, 6), Fraction(3, 9), Fraction("0.125"), Fraction(0.5),
      Fraction(1, 3) * 3 == 1, float(Fraction(22, 7)))
print(Fraction(-6, 4), Fraction(6, -4), Fraction("3/4"), Fraction(" -1.25e1 "), Fraction("7"),
      Fraction(Fraction(1, 2), Fraction(1, 3)), Fraction(0.1), Fraction(True))
x = Fraction(3, 4)
print(repr(x), str(x), x.numerator, x.denominator, x.as_integer_ratio())
print(x + 1, 1 + x, x - 2, 2 - x, x * 4, 4 * x, x / 3, 3 / x, x // Fraction(1, 5), x % Fraction(1, 5))
print(x + 0.25, 0.25 + x, x * 1.0, x ** 2, x ** -2, 2 ** Fraction(2), x ** 0.5, -x, +x, abs(-x))
print(x == 0.75, x == Fraction(6, 8), x < 1, x > Fraction(2, 3), x <= 0.75, 1 >= x, x != 3)
print(int(Fraction(-7, 2)), round(Fraction(5, 2)), round(Fraction(7, 2)), round(Fraction(22, 7), 2),
      bool(Fraction(0)), bool(x))
print(Fraction(3.141592653589793).limit_denominator(100), Fraction(1, 3).limit_denominator(2),
      Fraction.from_float(0.25))
print(hash(Fraction(1, 2)) == hash(0.5), hash(Fraction(3)) == hash(3), hash(Fraction(1, 3)),
      hash(Fraction(-2, 7)), {Fraction(1, 2): "half"}[Fraction(2, 4)])
print(sum([Fraction(1, n) for n in range(1, 6)]), sorted([Fraction(1, 2), 0.3, 1, Fraction(1, 3)]))
for bad in ["Fraction(1, 0)", "Fraction('1/0')", "Fraction('abc')", "Fraction(1.5, 2)",
            "Fraction([1])", "x / 0"]:
    try:
        print(eval(bad))
    except Exception as e:
        print(f"{bad}: {type(e).__name__}: {e}")
