# Python ints of any size: arithmetic, comparisons with floats, hashing, formatting, math.
import math
a = 2 ** 100
print(a, -a, a + 1, a - a, a * a, a // 3, a % 7, -a // 7, -a % 7, a / 3)
print(type(a), type(a).__name__, isinstance(a, int), a > 10**30, a == 2**100, a != a + 1)
print(2**63, -2**63, 2**63 - 1, -(-2**63), (-2**63) // -1, abs(-2**63), 9223372036854775807 + 1)
print(10**20, 123456789012345678901234567890, 0xFFFFFFFFFFFFFFFFFF, 1_000_000_000_000_000_000_000)
print(hex(a), bin(2**70), oct(2**65), hex(-a))
print(int("123456789012345678901234567890"), int("-0x1ffffffffffffffffff", 16), int(1e30), int(-2.5e19))
print(float(a), float(2**1023 * 2 - 1) if False else 1, a < 1e31, a > 1e30, a == 1.2676506002282294e30)
print(hash(a), hash(-a), hash(2**61 - 1), hash(2**61))
print(pow(3, 200, 10**9 + 7), pow(2, -1, 7), pow(a, 2, 1000), divmod(a, 12345), divmod(-a, 12345))
print(a << 10, a >> 90, -a >> 200, a & (2**80 - 1), a | 1, a ^ a, ~a)
print(round(a), round(123456, -2), round(125, -1), round(135, -1), round(2**70, -20))
print(max(a, 5), min([a, -a, 3]), sum([a, a, 1]), sorted([a, 1, -a, 2.5]))
print(f"{a}", f"{a:,}", f"{a:_}", f"{2**70:x}", f"{a:>40}", f"{-a:+d}", f"{a:e}", f"{12345678:_}")
print(f"{2**60 + 1:d}", f"{2**60 + 1:,}", "%d" % a, "%s" % a, str(a), repr(a))
print(math.factorial(30), math.comb(100, 50), math.gcd(2**100, 6**40), math.isqrt(10**30))
print({a: 1}[2**100], a in [2**100], len(str(2**1000)))
print(2 ** -2, 0 ** 0, (-1) ** (10**20), 1 ** (10**30))
x = 1
for i in range(100):
    x *= 3
print(x, x.bit_length())
try:
    print(str(10 ** 5000))
except ValueError as e:
    print("ValueError:", e)
try:
    float(10 ** 400)
except OverflowError as e:
    print("OverflowError:", e)
try:
    [1, 2][2**70]
except IndexError as e:
    print("IndexError:", e)
try:
    0 ** -1
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    10 ** 400 / 1
except OverflowError as e:
    print("OverflowError:", e)
print(10 ** 400 // 10 ** 399, (10**400) / (10**399))
import json, copy, numpy as np
a = 2**80
print(json.dumps({"n": a, "l": [a, -a]}), json.loads("123456789012345678901234567890"))
print(copy.deepcopy([a]), {a, a, 1}, sorted({a: 1, 2: 3}), a in {a}, str(a)[:5])
print(sum(range(10**6)), sum(i * i for i in range(100000)) * 10**10)
print(int("  -42  "), int("0b1010", 0), int("1_000"), f"{2**64:#x}", f"{255:#010b}", f"{-255:#x}", f"{3:o}")
print(f"{1234567.891:,.2f}", f"{1234567.891:_.1f}", f"{10**6:_}", f"{0xdeadbeef:_x}", f"{True:d}")
x = 2**62
for _ in range(3):
    x = x * 2 - 1
print(x, x.bit_length(), (2**64).bit_count(), (10).as_integer_ratio(), (0.75).as_integer_ratio(), (2.0).is_integer())
print(divmod(-7, 2), -7 // 2, 7 % -3, (-2**63) // -1, (-2**63) % -1, 2**63 % 10)
print(round(2.5), round(3.5), round(-0.5), round(1e20), type(round(1e20)))
print(np.int64(5) + 2**40)
try:
    int("1" * 5000)
except ValueError as e:
    print("ValueError:", e)
try:
    f"{2**10:.2d}"
except ValueError as e:
    print("ValueError:", e)
try:
    f"{10:,x}"
except ValueError as e:
    print("ValueError:", e)
