# Floor division, modulo and shifts on ints with Python's signs, at the ends of the 64-bit range
# too (where the lab's ints stop, it says so instead of wrapping).
print(-7 // 2, 7 // -2, -7 % 2, 7 % -2, -8 // 2, 7 // 7, 0 % 5)
big = -(2**62) * 2
print(big, big % -1, big // 1, big % 7, big // 7, (big + 1) // -1)
print(1 << 10, -5 >> 1, 5 >> 100, -5 >> 100, 3 << 0, 0 << 100, 1 << 62, -1 << 63)
print(pow(3, 4, 5), pow(-3, 3, 7), pow(2, 10, -7), divmod(-7, 2), divmod(7, -2), divmod(-7.5, 2))
print(abs(-(2**62)), int("-9223372036854775808"), int(-9.9), int(9.9), hash(-1), hash(-2))
one, zero = 1, 0
attempts = [
    ("1 << -1", lambda: one << -1),
    ("1 // 0", lambda: one // zero),
    ("1 % 0", lambda: one % zero),
    ("pow(2, 3, 0)", lambda: pow(2, 3, 0)),
    ("divmod(1, 0)", lambda: divmod(one, zero)),
]
for text, attempt in attempts:
    try:
        attempt()
    except (ValueError, ZeroDivisionError) as e:
        print(text, "->", type(e).__name__, e)
# Comparisons are exact: ints above 2**53 are not rounded, and an int meets a float by value.
n = 2**53
print(n + 1 == n, n + 1 > n, float(n) == n + 1, n + 1 > float(n), 0.5 < 1, -0.5 < 0, 1 == 1.0, True == 1)
print(9007199254740993 == 9007199254740992.0, 2**62 < 2.0**62 + 1, sorted([2**53 + 1, 2**53, 2.0**53]))
print(float("nan") == float("nan"), float("nan") < 1, max(2**60 + 1, 2**60), min([3, 2.5, 2**55]))
