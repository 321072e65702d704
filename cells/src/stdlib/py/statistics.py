"""statistics, as the lab has it: averages and measures of spread over plain numbers, with
Python's results. As CPython's, `mean`, `harmonic_mean`, the variances and the deviations sum
exactly (each number as the fraction it is, over Python's unbounded ints) and round once at the
end; `fmean` and the rest sum floats with `fsum`."""

import math


class StatisticsError(ValueError):
    pass


def _floats(data, name, at_least=1):
    data = list(data)
    if len(data) < at_least:
        if at_least == 1:
            raise StatisticsError(f"{name} requires at least one data point")
        raise StatisticsError(f"{name} requires at least two data points")
    return data


def _ratio(x):
    """A number as an exact fraction (numerator, denominator), or None when not finite."""
    if isinstance(x, int):
        return (int(x), 1)
    if isinstance(x, float):
        if not math.isfinite(x):
            return None
        return x.as_integer_ratio()
    raise TypeError(f"can't convert type '{type(x).__name__}' to numerator/denominator")


def _reduced(n, d):
    if d < 0:
        n, d = -n, -d
    g = math.gcd(n, d)
    return (n // g, d // g) if g > 1 else (n, d)


def _add(a, b):
    return _reduced(a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def _ratios(data):
    """The result type (int, or float if a float takes part) and each number as an exact
    fraction, or None for the fractions when a number is not finite."""
    t = int
    ratios = []
    for x in data:
        if isinstance(x, float):
            t = float
        r = _ratio(x)
        if r is None:
            return float, None
        ratios.append(r)
    return t, ratios


def _exact_sum(data):
    """CPython's `_sum`: the result type and the exact total (None when not finite)."""
    t, ratios = _ratios(data)
    if ratios is None:
        return t, None
    total = (0, 1)
    for r in ratios:
        total = _add(total, r)
    return t, total


def _convert(t, n, d):
    """CPython's `_convert`: an int when the type is int and the value whole, else the float
    nearest n / d."""
    n, d = _reduced(n, d)
    if t is int and d == 1:
        return n
    return n / d


def _ss_exact(data, c=None):
    """CPython's `_ss`: the type, and the exact sum of squared deviations as (n, d)."""
    if c is not None:
        t, total = _exact_sum((x - c) * (x - c) for x in data)
        return t, total
    t, ratios = _ratios(data)
    if ratios is None:
        return t, None
    count = len(ratios)
    sx = (0, 1)
    sxx = (0, 1)
    for r in ratios:
        sx = _add(sx, r)
        sxx = _add(sxx, (r[0] * r[0], r[1] * r[1]))
    # ssd = (count * sxx - sx * sx) / count
    n = count * sxx[0] * sx[1] * sx[1] - sx[0] * sx[0] * sxx[1]
    d = sxx[1] * sx[1] * sx[1] * count
    return t, _reduced(n, d)


def _sqrt_of_frac(n, m):
    """CPython's `_float_sqrt_of_frac`: the float nearest sqrt(n / m), from integer square roots
    rounded to odd."""
    def rto(n, m):
        a = math.isqrt(n // m)
        return a | (a * a * m != n)
    q = (n.bit_length() - m.bit_length() - 109) // 2
    if q >= 0:
        return (rto(n, m << 2 * q) << q) / 1
    return rto(n << -2 * q, m) / (1 << -q)


def mean(data):
    data = _floats(data, "mean")
    t, total = _exact_sum(data)
    if total is None:
        return math.fsum(data) / len(data)
    return _convert(t, total[0], total[1] * len(data))


def fmean(data, weights=None):
    data = list(data)
    if not data:
        raise StatisticsError("fmean requires at least one data point")
    if weights is None:
        return math.fsum(data) / len(data)
    weights = list(weights)
    return math.fsum(x * w for x, w in zip(data, weights)) / math.fsum(weights)


def geometric_mean(data):
    data = list(data)
    if not data:
        raise StatisticsError("geometric_mean requires at least one data point")
    return math.exp(fmean([math.log(x) for x in data]))


def harmonic_mean(data):
    data = list(data)
    if not data:
        raise StatisticsError("harmonic_mean requires at least one data point")
    if any(x < 0 for x in data):
        raise StatisticsError("harmonic mean does not support negative values")
    if any(x == 0 for x in data):
        return 0
    if len(data) == 1:
        return data[0]
    t, total = _exact_sum(1 / x for x in data)
    if total is None:
        return len(data) / math.fsum(1 / x for x in data)
    return _convert(t, len(data) * total[1], total[0])


def median(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError("no median for empty data")
    if n % 2 == 1:
        return data[n // 2]
    i = n // 2
    return (data[i - 1] + data[i]) / 2


def median_low(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError("no median for empty data")
    if n % 2 == 1:
        return data[n // 2]
    return data[n // 2 - 1]


def median_high(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError("no median for empty data")
    return data[n // 2]


def _counts(data):
    counts = {}
    for x in data:
        counts[x] = counts.get(x, 0) + 1
    return counts


def mode(data):
    counts = _counts(data)
    if not counts:
        raise StatisticsError("no mode for empty data")
    best = max(counts.values())
    for value, c in counts.items():
        if c == best:
            return value


def multimode(data):
    counts = _counts(data)
    if not counts:
        return []
    best = max(counts.values())
    return [value for value, c in counts.items() if c == best]


def _ss(data, c=None):
    if c is None:
        c = fmean(data)
    total = math.fsum((x - c) ** 2 for x in data)
    # A correction for rounding, as Python's own statistics does.
    total -= math.fsum(x - c for x in data) ** 2 / len(data)
    return total


def variance(data, xbar=None):
    data = _floats(data, "variance", 2)
    t, ss = _ss_exact(data, xbar)
    if ss is None:
        return _ss(data, xbar) / (len(data) - 1)
    return _convert(t, ss[0], ss[1] * (len(data) - 1))


def pvariance(data, mu=None):
    data = _floats(data, "pvariance")
    t, ss = _ss_exact(data, mu)
    if ss is None:
        return _ss(data, mu) / len(data)
    return _convert(t, ss[0], ss[1] * len(data))


def stdev(data, xbar=None):
    data = _floats(data, "stdev", 2)
    t, ss = _ss_exact(data, xbar)
    if ss is None:
        return math.sqrt(_ss(data, xbar) / (len(data) - 1))
    return _sqrt_of_frac(*_reduced(ss[0], ss[1] * (len(data) - 1)))


def pstdev(data, mu=None):
    data = _floats(data, "pstdev")
    t, ss = _ss_exact(data, mu)
    if ss is None:
        return math.sqrt(_ss(data, mu) / len(data))
    return _sqrt_of_frac(*_reduced(ss[0], ss[1] * len(data)))


def quantiles(data, *, n=4, method="exclusive"):
    if n < 1:
        raise StatisticsError("n must be at least 1")
    data = sorted(data)
    ld = len(data)
    if ld < 2:
        if ld == 1:
            return data * (n - 1)
        raise StatisticsError("must have at least one data point")
    if method == "inclusive":
        m = ld - 1
        result = []
        for i in range(1, n):
            j, delta = divmod(i * m, n)
            interpolated = (data[j] * (n - delta) + data[j + 1] * delta) / n
            result.append(interpolated)
        return result
    if method == "exclusive":
        m = ld + 1
        result = []
        for i in range(1, n):
            j = i * m // n
            j = 1 if j < 1 else ld - 1 if j > ld - 1 else j
            delta = i * m - j * n
            interpolated = (data[j - 1] * (n - delta) + data[j] * delta) / n
            result.append(interpolated)
        return result
    raise ValueError(f"Unknown method: {method!r}")


def _paired(x, y, what):
    n = len(x)
    if len(y) != n:
        raise StatisticsError(f"{what} requires that both inputs have same number of data points")
    if n < 2:
        raise StatisticsError(f"{what} requires at least two data points")
    return n


def covariance(x, y):
    n = _paired(x, y, "covariance")
    xbar = fmean(x)
    ybar = fmean(y)
    return math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y)) / (n - 1)


def correlation(x, y):
    _paired(x, y, "correlation")
    xbar = fmean(x)
    ybar = fmean(y)
    sxy = math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y))
    sxx = math.fsum((xi - xbar) ** 2 for xi in x)
    syy = math.fsum((yi - ybar) ** 2 for yi in y)
    try:
        return sxy / math.sqrt(sxx * syy)
    except ZeroDivisionError:
        raise StatisticsError("at least one of the inputs is constant")


class LinearRegression:
    def __init__(self, slope, intercept):
        self.slope = slope
        self.intercept = intercept

    def __repr__(self):
        return f"LinearRegression(slope={self.slope!r}, intercept={self.intercept!r})"

    def __iter__(self):
        return iter((self.slope, self.intercept))


def linear_regression(x, y, *, proportional=False):
    _paired(x, y, "linear regression")
    if proportional:
        sxy = math.fsum(xi * yi for xi, yi in zip(x, y))
        sxx = math.fsum(xi * xi for xi in x)
        return LinearRegression(sxy / sxx, 0.0)
    xbar = fmean(x)
    ybar = fmean(y)
    sxy = math.fsum((xi - xbar) * (yi - ybar) for xi, yi in zip(x, y))
    sxx = math.fsum((xi - xbar) ** 2 for xi in x)
    if sxx == 0:
        raise StatisticsError("x is constant")
    slope = sxy / sxx
    return LinearRegression(slope, ybar - slope * xbar)
