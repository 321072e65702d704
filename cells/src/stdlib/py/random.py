"""random, as CPython 3.11 has it: `Random` (and the module's functions, bound to the
notebook's own instance) with CPython's algorithms over its Mersenne Twister, so a seeded cell
draws CPython's numbers: randrange, randint, choice, choices, shuffle, sample, uniform,
triangular, gauss, normalvariate, lognormvariate, expovariate, vonmisesvariate, gammavariate,
betavariate, paretovariate, weibullvariate, getrandbits, randbytes, getstate and setstate.
`seed(None)` seeds from the clock; a string seed (CPython hashes it with SHA-512) is not in the
lab yet."""

import math as _math
import _lab

NV_MAGICCONST = 4 * _math.exp(-0.5) / _math.sqrt(2.0)
LOG4 = _math.log(4.0)
SG_MAGICCONST = 1.0 + _math.log(4.5)
TWOPI = 2.0 * _math.pi
BPF = 53
RECIP_BPF = 2 ** -BPF


def _accumulate(values):
    total = None
    out = []
    for v in values:
        total = v if total is None else total + v
        out.append(total)
    return out


def _bisect(a, x, lo=0, hi=None):
    """bisect.bisect_right."""
    if hi is None:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _integer(value, what):
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(value, float):
        raise ValueError(f"non-integer {what} for randrange()")
    raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")


class Random:
    VERSION = 3

    def __init__(self, x=None):
        self._gen = _lab.random_new()
        self.seed(x)

    def seed(self, a=None, version=2):
        if isinstance(a, str):
            raise NotImplementedError(
                "random.seed() with a string: CPython seeds from its SHA-512, which the lab "
                "does not have yet (seed with an int)")
        if not isinstance(a, (type(None), int, float)):
            raise TypeError("The only supported seed types are: None,\n"
                            "int, float, str, bytes, and bytearray.")
        _lab.random_seed(self._gen, a)
        self.gauss_next = None

    def getstate(self):
        return self.VERSION, _lab.random_getstate(self._gen), self.gauss_next

    def setstate(self, state):
        version = state[0]
        if version != 3:
            raise ValueError(f"state with version {version} passed to "
                             f"Random.setstate() of version {self.VERSION}")
        _, internalstate, self.gauss_next = state
        _lab.random_setstate(self._gen, tuple(internalstate))

    def random(self):
        return _lab.random_random(self._gen)

    def getrandbits(self, k):
        return _lab.random_getrandbits(self._gen, k)

    def randbytes(self, n):
        raise NotImplementedError("random.randbytes: the lab has no bytes objects yet")

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        istart = _integer(start, "arg 1")
        if stop is None:
            if step != 1:
                raise TypeError("Missing a non-None stop argument")
            if istart > 0:
                return self._randbelow(istart)
            raise ValueError("empty range for randrange()")
        istop = _integer(stop, "stop")
        width = istop - istart
        istep = _integer(step, "step")
        if istep == 1:
            if width > 0:
                return istart + self._randbelow(width)
            raise ValueError("empty range for randrange() (%d, %d, %d)" % (istart, istop, width))
        if istep > 0:
            n = (width + istep - 1) // istep
        elif istep < 0:
            n = (width + istep + 1) // istep
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return istart + istep * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        randbelow = self._randbelow
        for i in reversed(range(1, len(x))):
            j = randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        if isinstance(population, (set, dict)) or not hasattr(population, "__getitem__") and \
                not isinstance(population, (list, tuple, str, range)):
            raise TypeError("Population must be a sequence.  "
                            "For dicts or sets, use sorted(d).")
        n = len(population)
        if counts is not None:
            cum_counts = _accumulate(counts)
            if len(cum_counts) != n:
                raise ValueError("The number of counts does not match the population")
            total = cum_counts.pop()
            if not isinstance(total, int):
                raise TypeError("Counts must be integers")
            if total <= 0:
                raise ValueError("Total of counts must be greater than zero")
            selections = self.sample(range(total), k=k)
            return [population[_bisect(cum_counts, s)] for s in selections]
        randbelow = self._randbelow
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** _math.ceil(_math.log(k * 3, 4))
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = randbelow(n)
                while j in selected:
                    j = randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        random = self.random
        n = len(population)
        if cum_weights is None:
            if weights is None:
                n += 0.0
                return [population[_math.floor(random() * n)] for i in range(k)]
            if isinstance(weights, int):
                raise TypeError(f"The number of choices must be a keyword argument: k={weights}")
            cum_weights = _accumulate(weights)
        elif weights is not None:
            raise TypeError("Cannot specify both weights and cumulative weights")
        if len(cum_weights) != n:
            raise ValueError("The number of weights does not match the population")
        total = cum_weights[-1] + 0.0
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        if not _math.isfinite(total):
            raise ValueError("Total of weights must be finite")
        hi = n - 1
        return [population[_bisect(cum_weights, random() * total, 0, hi)] for i in range(k)]

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def triangular(self, low=0.0, high=1.0, mode=None):
        u = self.random()
        try:
            c = 0.5 if mode is None else (mode - low) / (high - low)
        except ZeroDivisionError:
            return low
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * _math.sqrt(u * c)

    def normalvariate(self, mu=0.0, sigma=1.0):
        random = self.random
        while True:
            u1 = random()
            u2 = 1.0 - random()
            z = NV_MAGICCONST * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -_math.log(u2):
                break
        return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        random = self.random
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = random() * TWOPI
            g2rad = _math.sqrt(-2.0 * _math.log(1.0 - random()))
            z = _math.cos(x2pi) * g2rad
            self.gauss_next = _math.sin(x2pi) * g2rad
        return mu + z * sigma

    def lognormvariate(self, mu, sigma):
        return _math.exp(self.normalvariate(mu, sigma))

    def expovariate(self, lambd):
        return -_math.log(1.0 - self.random()) / lambd

    def vonmisesvariate(self, mu, kappa):
        random = self.random
        if kappa <= 1e-6:
            return TWOPI * random()
        s = 0.5 / kappa
        r = s + _math.sqrt(1.0 + s * s)
        while True:
            u1 = random()
            z = _math.cos(_math.pi * u1)
            d = z / (r + z)
            u2 = random()
            if u2 < 1.0 - d * d or u2 <= (1.0 - d) * _math.exp(d):
                break
        q = 1.0 / r
        f = (q + z) / (1.0 + q * z)
        u3 = random()
        if u3 > 0.5:
            theta = (mu + _math.acos(f)) % TWOPI
        else:
            theta = (mu - _math.acos(f)) % TWOPI
        return theta

    def gammavariate(self, alpha, beta):
        if alpha <= 0.0 or beta <= 0.0:
            raise ValueError("gammavariate: alpha and beta must be > 0.0")
        random = self.random
        if alpha > 1.0:
            ainv = _math.sqrt(2.0 * alpha - 1.0)
            bbb = alpha - LOG4
            ccc = alpha + ainv
            while True:
                u1 = random()
                if not 1e-7 < u1 < 0.9999999:
                    continue
                u2 = 1.0 - random()
                v = _math.log(u1 / (1.0 - u1)) / ainv
                x = alpha * _math.exp(v)
                z = u1 * u1 * u2
                r = bbb + ccc * v - x
                if r + SG_MAGICCONST - 4.5 * z >= 0.0 or r >= _math.log(z):
                    return x * beta
        elif alpha == 1.0:
            return -_math.log(1.0 - random()) * beta
        else:
            while True:
                u = random()
                b = (_math.e + alpha) / _math.e
                p = b * u
                if p <= 1.0:
                    x = p ** (1.0 / alpha)
                else:
                    x = -_math.log((b - p) / alpha)
                u1 = random()
                if p > 1.0:
                    if u1 <= x ** (alpha - 1.0):
                        break
                elif u1 <= _math.exp(-x):
                    break
            return x * beta

    def betavariate(self, alpha, beta):
        y = self.gammavariate(alpha, 1.0)
        if y:
            return y / (y + self.gammavariate(beta, 1.0))
        return 0.0

    def paretovariate(self, alpha):
        u = 1.0 - self.random()
        return u ** (-1.0 / alpha)

    def weibullvariate(self, alpha, beta):
        u = 1.0 - self.random()
        return alpha * (-_math.log(u)) ** (1.0 / beta)

    def __repr__(self):
        return f"<random.Random object at {hex(id(self))}>"


class SystemRandom(Random):
    def __init__(self, x=None):
        raise NotImplementedError("random.SystemRandom: the lab has no system entropy source")


# The module's functions: the notebook's own generator, which `torch`-free cells share.
_inst = Random(0)
_inst._gen = _lab.random_default()


def seed(a=None, version=2):
    _inst.seed(a, version)


random = _inst.random
uniform = _inst.uniform
triangular = _inst.triangular
randint = _inst.randint
choice = _inst.choice
randrange = _inst.randrange
sample = _inst.sample
shuffle = _inst.shuffle
choices = _inst.choices
normalvariate = _inst.normalvariate
lognormvariate = _inst.lognormvariate
expovariate = _inst.expovariate
vonmisesvariate = _inst.vonmisesvariate
gammavariate = _inst.gammavariate
gauss = _inst.gauss
betavariate = _inst.betavariate
paretovariate = _inst.paretovariate
weibullvariate = _inst.weibullvariate
getstate = _inst.getstate
setstate = _inst.setstate
getrandbits = _inst.getrandbits
randbytes = _inst.randbytes
