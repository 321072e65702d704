# Python's math module as training scripts use it: schedules, bounds, checks, and its errors.
import math
import torch

epochs, base_lr = 10, 0.1
schedule = [round(base_lr * 0.5 * (1 + math.cos(math.pi * e / epochs)), 6) for e in range(0, epochs + 1, 5)]
print(schedule)
fan_in = 128
print(round(1 / math.sqrt(fan_in), 8), round(math.sqrt(6 / (fan_in + 64)), 8))
print(math.log(8, 2), math.log2(1024), math.log10(1000), round(math.log1p(1e-9) * 1e9, 6))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), math.floor(7), type(math.floor(2.0)).__name__)
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.1, rel_tol=0.2), math.isclose(0, 1e-12, abs_tol=1e-9))
print(math.isfinite(1.0), math.isinf(math.inf), math.isnan(math.nan), math.tau == 2 * math.pi)
print(math.gcd(12, 18), math.gcd(), math.lcm(4, 6), math.factorial(10), math.comb(5, 2), math.perm(5, 2), math.isqrt(17))
print(math.prod([1, 2, 3, 4]), math.prod([0.5, 4], start=2), math.fsum([0.1] * 10), sum([0.1] * 10))
print(math.hypot(3, 4), math.degrees(math.pi), round(math.radians(180), 12), math.copysign(3, -0.0), math.fmod(7, 3))
print(round(math.erf(0.5), 12), round(math.erfc(0.5), 12), round(math.gamma(5), 9), round(math.lgamma(10), 9))
print(math.pow(2, 10), math.atan2(1, 1) == math.pi / 4, round(math.tanh(0.5), 12), math.exp(0))
print(math.sqrt(torch.tensor(16.0)), math.floor(torch.tensor(2.7)))

for call in [
    lambda: math.sqrt(-1),
    lambda: math.log(0),
    lambda: math.exp(1000),
    lambda: math.floor(math.inf),
    lambda: math.floor(math.nan),
    lambda: math.factorial(-1),
    lambda: math.factorial(2.5),
    lambda: math.sqrt("4"),
    lambda: math.sqrt(1, 2),
    lambda: math.sqrt(x=1),
    lambda: math.pow(1),
    lambda: math.isclose(1, 1, rel_tol=-1),
    lambda: math.acos(2),
    lambda: math.log(10, 1),
]:
    try:
        print(call())
    except (ValueError, OverflowError, TypeError, ZeroDivisionError) as e:
        print(type(e).__name__ + ":", e)
