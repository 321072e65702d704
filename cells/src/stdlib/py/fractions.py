"""fractions, as the lab has it: `Fraction`, exact rational numbers as CPython 3.11's module
has them (from ints, floats, strings and other fractions; arithmetic with ints, floats and
complex numbers; `limit_denominator`; CPython's hash, so equal numbers hash alike)."""

import math as _math
import re as _re

__all__ = ["Fraction"]

_RATIONAL_FORMAT = _re.compile(
    r"""\A\s*(?P<sign>[-+]?)(?=\d|\.\d)(?P<num>\d*|\d+(_\d+)*)"""
    r"""(?:(?:/(?P<denom>\d+(_\d+)*))?|(?:\.(?P<decimal>\d*|\d+(_\d+)*))?"""
    r"""(?:E(?P<exp>[-+]?\d+(_\d+)*))?)\s*\Z""",
    _re.IGNORECASE,
)

# CPython's hash of a rational: its value modulo the prime 2**61 - 1.
_PyHASH_MODULUS = 2**61 - 1
_PyHASH_INF = 314159


class Fraction:
    """A rational number `numerator / denominator` in lowest terms, the sign on top."""

    def __init__(self, numerator=0, denominator=None):
        if denominator is None:
            if type(numerator) is int:
                self._numerator = numerator
                self._denominator = 1
                return
            if isinstance(numerator, Fraction):
                self._numerator = numerator._numerator
                self._denominator = numerator._denominator
                return
            if isinstance(numerator, float):
                self._numerator, self._denominator = numerator.as_integer_ratio()
                return
            if isinstance(numerator, str):
                m = _RATIONAL_FORMAT.match(numerator)
                if m is None:
                    raise ValueError("Invalid literal for Fraction: %r" % numerator)
                num = int(m.group("num") or "0")
                denom = m.group("denom")
                if denom:
                    denom = int(denom)
                else:
                    denom = 1
                    decimal = m.group("decimal")
                    if decimal:
                        decimal = decimal.replace("_", "")
                        scale = 10 ** len(decimal)
                        num = num * scale + int(decimal)
                        denom *= scale
                    exp = m.group("exp")
                    if exp:
                        exp = int(exp)
                        if exp >= 0:
                            num *= 10**exp
                        else:
                            denom *= 10**-exp
                if m.group("sign") == "-":
                    num = -num
                numerator, denominator = num, denom
            elif isinstance(numerator, bool):
                numerator, denominator = int(numerator), 1
            else:
                raise TypeError("argument should be a string or a Rational instance")
        elif type(numerator) is int and type(denominator) is int:
            pass
        elif isinstance(numerator, (int, Fraction)) and isinstance(denominator, (int, Fraction)):
            a = Fraction(numerator)
            b = Fraction(denominator)
            numerator = a._numerator * b._denominator
            denominator = b._numerator * a._denominator
        else:
            raise TypeError("both arguments should be Rational instances")
        if denominator == 0:
            raise ZeroDivisionError("Fraction(%s, 0)" % numerator)
        g = _math.gcd(numerator, denominator)
        if denominator < 0:
            g = -g
        self._numerator = numerator // g
        self._denominator = denominator // g

    @classmethod
    def from_float(cls, f):
        if isinstance(f, int):
            return cls(f)
        if not isinstance(f, float):
            raise TypeError("%s.from_float() only takes floats, not %r (%s)"
                            % (cls.__name__, f, type(f).__name__))
        return cls(*f.as_integer_ratio())

    @classmethod
    def from_decimal(cls, dec):
        return cls(*dec.as_integer_ratio())

    def as_integer_ratio(self):
        return (self._numerator, self._denominator)

    def limit_denominator(self, max_denominator=1000000):
        if max_denominator < 1:
            raise ValueError("max_denominator should be at least 1")
        if self._denominator <= max_denominator:
            return Fraction(self)
        p0, q0, p1, q1 = 0, 1, 1, 0
        n, d = self._numerator, self._denominator
        while True:
            a = n // d
            q2 = q0 + a * q1
            if q2 > max_denominator:
                break
            p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
            n, d = d, n - a * d
        k = (max_denominator - q0) // q1
        if 2 * d * (q0 + k * q1) <= self._denominator:
            return Fraction(p1, q1)
        return Fraction(p0 + k * p1, q0 + k * q1)

    @property
    def numerator(self):
        return self._numerator

    @property
    def denominator(self):
        return self._denominator

    def __repr__(self):
        return "%s(%s, %s)" % (type(self).__name__, self._numerator, self._denominator)

    def __str__(self):
        if self._denominator == 1:
            return str(self._numerator)
        return "%s/%s" % (self._numerator, self._denominator)

    # --- arithmetic: with a Fraction or an int exactly, with a float or complex as those ---

    def _operands(self, other):
        if isinstance(other, Fraction):
            return other
        if isinstance(other, int):
            return Fraction(other)
        return None

    def _binary(self, other, exact, inexact):
        b = self._operands(other)
        if b is not None:
            return exact(self, b)
        if isinstance(other, (float, complex)):
            return inexact(float(self), other)
        return NotImplemented

    def _reflected(self, other, exact, inexact):
        a = self._operands(other)
        if a is not None:
            return exact(a, self)
        if isinstance(other, (float, complex)):
            return inexact(other, float(self))
        return NotImplemented

    @staticmethod
    def _add(a, b):
        return Fraction(a._numerator * b._denominator + b._numerator * a._denominator,
                        a._denominator * b._denominator)

    @staticmethod
    def _sub(a, b):
        return Fraction(a._numerator * b._denominator - b._numerator * a._denominator,
                        a._denominator * b._denominator)

    @staticmethod
    def _mul(a, b):
        return Fraction(a._numerator * b._numerator, a._denominator * b._denominator)

    @staticmethod
    def _div(a, b):
        # The common factors go first, as CPython's does (its error names what is left).
        na, nb = a._numerator, b._numerator
        g = _math.gcd(na, nb)
        if g > 1:
            na, nb = na // g, nb // g
        return Fraction(na * b._denominator, a._denominator * nb)

    @staticmethod
    def _floordiv(a, b):
        return (a._numerator * b._denominator) // (a._denominator * b._numerator)

    @staticmethod
    def _mod(a, b):
        da, db = a._denominator, b._denominator
        return Fraction((a._numerator * db) % (b._numerator * da), da * db)

    def __add__(self, other):
        return self._binary(other, Fraction._add, lambda a, b: a + b)

    def __radd__(self, other):
        return self._reflected(other, Fraction._add, lambda a, b: a + b)

    def __sub__(self, other):
        return self._binary(other, Fraction._sub, lambda a, b: a - b)

    def __rsub__(self, other):
        return self._reflected(other, Fraction._sub, lambda a, b: a - b)

    def __mul__(self, other):
        return self._binary(other, Fraction._mul, lambda a, b: a * b)

    def __rmul__(self, other):
        return self._reflected(other, Fraction._mul, lambda a, b: a * b)

    def __truediv__(self, other):
        return self._binary(other, Fraction._div, lambda a, b: a / b)

    def __rtruediv__(self, other):
        return self._reflected(other, Fraction._div, lambda a, b: a / b)

    def __floordiv__(self, other):
        return self._binary(other, Fraction._floordiv, lambda a, b: a // b)

    def __rfloordiv__(self, other):
        return self._reflected(other, Fraction._floordiv, lambda a, b: a // b)

    def __mod__(self, other):
        return self._binary(other, Fraction._mod, lambda a, b: a % b)

    def __rmod__(self, other):
        return self._reflected(other, Fraction._mod, lambda a, b: a % b)

    def __pow__(self, other):
        if isinstance(other, int) or (isinstance(other, Fraction) and other._denominator == 1):
            power = int(other)
            if power >= 0:
                return Fraction(self._numerator**power, self._denominator**power)
            if self._numerator == 0:
                raise ZeroDivisionError("Fraction(%s, 0)" % (self._denominator**-power))
            return Fraction(self._denominator**-power, self._numerator**-power)
        if isinstance(other, (float, complex, Fraction)):
            return float(self) ** (float(other) if isinstance(other, Fraction) else other)
        return NotImplemented

    def __rpow__(self, other):
        if self._denominator == 1 and self._numerator >= 0:
            return other**self._numerator
        if isinstance(other, int):
            return Fraction(other) ** self
        return other ** float(self)

    def __pos__(self):
        return Fraction(self._numerator, self._denominator)

    def __neg__(self):
        return Fraction(-self._numerator, self._denominator)

    def __abs__(self):
        return Fraction(abs(self._numerator), self._denominator)

    def __int__(self):
        if self._numerator < 0:
            return -(-self._numerator // self._denominator)
        return self._numerator // self._denominator

    def __trunc__(self):
        return self.__int__()

    def __floor__(self):
        return self._numerator // self._denominator

    def __ceil__(self):
        return -(-self._numerator // self._denominator)

    def __round__(self, ndigits=None):
        if ndigits is None:
            floor, remainder = divmod(self._numerator, self._denominator)
            if remainder * 2 < self._denominator:
                return floor
            if remainder * 2 > self._denominator:
                return floor + 1
            return floor if floor % 2 == 0 else floor + 1
        shift = 10 ** abs(ndigits)
        if ndigits > 0:
            return Fraction(round(self * shift), shift)
        return Fraction(round(self / shift) * shift)

    def __float__(self):
        return self._numerator / self._denominator

    def __hash__(self):
        if self._denominator % _PyHASH_MODULUS == 0:
            hash_ = _PyHASH_INF
        else:
            # The denominator's inverse modulo the prime, by Fermat's little theorem.
            inverse = pow(self._denominator, _PyHASH_MODULUS - 2, _PyHASH_MODULUS)
            hash_ = hash(hash(abs(self._numerator)) * inverse)
        result = hash_ if self._numerator >= 0 else -hash_
        return -2 if result == -1 else result

    def __eq__(self, other):
        if isinstance(other, Fraction):
            return self._numerator == other._numerator and self._denominator == other._denominator
        if isinstance(other, int):
            return self._denominator == 1 and self._numerator == other
        if isinstance(other, complex):
            return other.imag == 0 and self == other.real
        if isinstance(other, float):
            if _math.isnan(other) or _math.isinf(other):
                return False
            return self == Fraction(other)
        return NotImplemented

    def _richcmp(self, other, op):
        if isinstance(other, (int, Fraction)):
            b = Fraction(other)
            return op(self._numerator * b._denominator, b._numerator * self._denominator)
        if isinstance(other, float):
            if _math.isnan(other) or _math.isinf(other):
                return op(0.0, other)
            return op(self, Fraction(other))
        return NotImplemented

    def __lt__(self, other):
        return self._richcmp(other, lambda a, b: a < b)

    def __gt__(self, other):
        return self._richcmp(other, lambda a, b: a > b)

    def __le__(self, other):
        return self._richcmp(other, lambda a, b: a <= b)

    def __ge__(self, other):
        return self._richcmp(other, lambda a, b: a >= b)

    def __bool__(self):
        return self._numerator != 0
