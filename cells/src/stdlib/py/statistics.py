"""statistics, as the lab has it: averages and measures of spread over plain numbers, with
Python's results (exact fractions are not kept: sums are of floats, as `fsum` gives them)."""

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


def _result(data, value):
    # Python returns an int mean of ints when it is whole, a float otherwise.
    if all(isinstance(x, int) for x in data) and value == int(value):
        return int(value)
    return value


def mean(data):
    data = _floats(data, "mean")
    if all(isinstance(x, int) for x in data):
        total = sum(data)
        n = len(data)
        if total % n == 0:
            return total // n
        return total / n
    return math.fsum(data) / len(data)


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
    value = len(data) / math.fsum(1 / x for x in data)
    return _result(data, value) if all(isinstance(x, int) for x in data) and value == int(value) else value


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
    value = _ss(data, xbar) / (len(data) - 1)
    return _result(data, value) if all(isinstance(x, int) for x in data) and value == int(value) else value


def pvariance(data, mu=None):
    data = _floats(data, "pvariance")
    value = _ss(data, mu) / len(data)
    return _result(data, value) if all(isinstance(x, int) for x in data) and value == int(value) else value


def stdev(data, xbar=None):
    data = _floats(data, "stdev", 2)
    return math.sqrt(_ss(data, xbar) / (len(data) - 1))


def pstdev(data, mu=None):
    data = _floats(data, "pstdev")
    return math.sqrt(_ss(data, mu) / len(data))


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
