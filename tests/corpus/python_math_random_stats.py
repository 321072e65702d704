# Theme: math, random and statistics - math helpers (isclose, floor/ceil,
# gcd/lcm, comb/perm/factorial, prod, fsum, hypot, log/exp, inf/nan checks,
# trig, sqrt/isqrt), seeded random (random/randint/choice/choices with
# weights/sample/shuffle/gauss/uniform/Random instances), and statistics
# (mean/median/mode/stdev/variance/pstdev and friends).
import math
import random
import statistics


def train_val_split(items, frac, rng):
    items = list(items)
    rng.shuffle(items)
    cut = int(len(items) * frac)
    return items[:cut], items[cut:]


def main():
    print("0.1+0.2 == 0.3:", 0.1 + 0.2 == 0.3, "| isclose:", math.isclose(0.1 + 0.2, 0.3))
    print("isclose rel/abs:", math.isclose(1000.0, 1001.0, rel_tol=1e-2), math.isclose(1e-10, 0.0),
          math.isclose(1e-10, 0.0, abs_tol=1e-9))
    print("floor/ceil:", math.floor(2.7), math.ceil(2.1), math.floor(-2.5), math.ceil(-2.5),
          math.trunc(-2.7), round(2.5), round(3.5), round(-0.5))
    print("gcd/lcm:", math.gcd(48, 18), math.gcd(0, 5), math.gcd(12, 18, 30), math.lcm(4, 6), math.lcm(3, 5, 7))
    print("comb/perm:", math.comb(10, 3), math.perm(5, 2), math.perm(4), math.comb(52, 5))
    print("factorial:", math.factorial(10), math.factorial(0), "| prod:", math.prod([1, 2, 3, 4]),
          math.prod([], start=7), math.prod(range(1, 6)))
    vals = [0.1] * 10
    print("sum vs fsum:", sum(vals), math.fsum(vals), "| sum==1:", sum(vals) == 1.0, math.fsum(vals) == 1.0)
    print("hypot:", math.hypot(3, 4), math.hypot(1, 2, 2), "| dist:", math.dist((0, 0), (6, 8)))
    print("sqrt/isqrt:", math.sqrt(2), math.isqrt(17), math.isqrt(10**20), "| pow:", math.pow(2, 10), 2 ** 0.5)
    print("log:", math.log(math.e), math.log(8, 2), math.log2(1024), math.log10(0.001), round(math.log1p(1e-10), 15))
    print("exp:", math.exp(0), math.exp(1) == math.e, round(math.exp(2), 6), "| expm1 tiny:", math.expm1(1e-10))
    print("pi/tau/e:", math.pi, math.tau, math.e)
    print("trig:", math.sin(0), round(math.cos(math.pi), 10), round(math.tan(math.pi / 4), 10),
          round(math.degrees(math.pi), 6), round(math.radians(180), 6), round(math.atan2(1, 1), 6))
    print("inf:", math.inf, -math.inf, math.inf > 10**300, math.isinf(float("inf")), math.isfinite(1e308))
    nan = math.nan
    print("nan:", nan, nan == nan, nan != nan, math.isnan(nan), math.isnan(float("nan")), nan is nan)
    print("inf arithmetic:", math.inf - math.inf, math.inf * 0, math.inf + 1, 1 / math.inf)
    print("copysign/fabs/fmod:", math.copysign(3, -0.0), math.fabs(-4), math.fmod(-7, 3), -7 % 3)
    print("modf/frexp/ldexp:", math.modf(3.75), math.frexp(8.0), math.ldexp(0.5, 4))
    print("sigmoid(0), softplus(1):", 1 / (1 + math.exp(-0.0)), round(math.log1p(math.exp(1)), 6))
    try:
        math.sqrt(-1)
    except ValueError as e:
        print("sqrt(-1):", e)
    try:
        math.log(0)
    except ValueError as e:
        print("log(0):", e)
    try:
        math.exp(1000)
    except OverflowError as e:
        print("exp(1000):", e)

    random.seed(0)
    print("random:", [round(random.random(), 6) for _ in range(3)])
    print("randint:", [random.randint(1, 6) for _ in range(8)])
    print("randrange:", [random.randrange(0, 100, 5) for _ in range(5)])
    classes = ["cat", "dog", "bird"]
    print("choice:", [random.choice(classes) for _ in range(5)])
    print("choices weighted:", random.choices(classes, weights=[0.7, 0.2, 0.1], k=10))
    print("choices cum_weights:", random.choices("abc", cum_weights=[1, 2, 10], k=6))
    print("sample:", random.sample(range(100), 5))
    deck = list(range(10))
    random.shuffle(deck)
    print("shuffle:", deck)
    print("uniform:", [round(random.uniform(-1, 1), 4) for _ in range(3)])
    print("gauss:", [round(random.gauss(0, 1), 4) for _ in range(3)])
    print("normalvariate:", round(random.normalvariate(10, 2), 4), "| triangular:", round(random.triangular(0, 1, 0.5), 4))
    print("getrandbits:", random.getrandbits(16))
    state = random.getstate()
    first = random.random()
    random.setstate(state)
    print("setstate reproduces:", random.random() == first)
    random.seed(0)
    again = round(random.random(), 6)
    print("reseed reproduces:", again)

    rng = random.Random(42)
    train, val = train_val_split(range(10), 0.8, rng)
    print("split train:", train, "| val:", val)
    rng_a, rng_b = random.Random(7), random.Random(7)
    print("independent generators agree:", [rng_a.randint(0, 9) for _ in range(5)] ==
          [rng_b.randint(0, 9) for _ in range(5)])
    weights = [round(rng.gauss(0, 0.02), 5) for _ in range(4)]
    print("init weights:", weights)
    dropout_mask = [1 if rng.random() > 0.5 else 0 for _ in range(12)]
    print("dropout mask:", dropout_mask)

    scores = [88, 92, 79, 93, 85, 92, 71, 92, 85]
    print("mean:", statistics.mean(scores), "| fmean:", round(statistics.fmean(scores), 4))
    print("median:", statistics.median(scores), statistics.median([1, 2, 3, 4]),
          "| low/high:", statistics.median_low([1, 2, 3, 4]), statistics.median_high([1, 2, 3, 4]))
    print("mode:", statistics.mode(scores), "| multimode:", statistics.multimode([1, 1, 2, 2, 3]))
    print("stdev:", round(statistics.stdev(scores), 6), "| variance:", round(statistics.variance(scores), 6))
    print("pstdev:", round(statistics.pstdev(scores), 6), "| pvariance:", round(statistics.pvariance(scores), 6))
    print("exact variance of ints:", statistics.variance([1, 2, 3, 4, 5]), statistics.pvariance([1, 2, 3, 4]))
    print("geometric/harmonic:", round(statistics.geometric_mean([1, 10, 100]), 6),
          statistics.harmonic_mean([40, 60]))
    print("quantiles:", statistics.quantiles(range(1, 101), n=4))
    random.seed(1)
    noisy = [random.gauss(5.0, 1.0) for _ in range(1000)]
    print("sample stats:", round(statistics.mean(noisy), 3), round(statistics.stdev(noisy), 3))
    xs = [1, 2, 3, 4, 5]
    ys = [2.1, 3.9, 6.2, 7.8, 10.1]
    slope, intercept = statistics.linear_regression(xs, ys)
    print("linear regression:", round(slope, 4), round(intercept, 4),
          "| correlation:", round(statistics.correlation(xs, ys), 6))
    try:
        statistics.mean([])
    except statistics.StatisticsError as e:
        print("StatisticsError:", e)
    try:
        statistics.stdev([1])
    except statistics.StatisticsError as e:
        print("StatisticsError:", e)
    z = [(s - statistics.mean(scores)) / statistics.pstdev(scores) for s in scores]
    print("z-scores:", [f"{v:+.2f}" for v in z])


if __name__ == "__main__":
    main()
