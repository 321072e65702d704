"""functools, as the lab has it: partial, reduce, wraps, lru_cache and cache, cmp_to_key,
total_ordering and singledispatch."""

class _Missing:
    pass


_missing = _Missing()


def reduce(function, iterable, initial=_missing):
    it = iter(iterable)
    if initial is _missing:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value")
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        merged = dict(self.keywords)
        merged.update(keywords)
        return self.func(*self.args, *args, **merged)

    def __repr__(self):
        parts = [repr(self.func)]
        parts.extend(repr(a) for a in self.args)
        parts.extend(f"{k}={v!r}" for k, v in self.keywords.items())
        return "functools.partial(" + ", ".join(parts) + ")"


WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


class _CacheInfo:
    def __init__(self, hits, misses, maxsize, currsize):
        self.hits = hits
        self.misses = misses
        self.maxsize = maxsize
        self.currsize = currsize

    def __repr__(self):
        return (f"CacheInfo(hits={self.hits}, misses={self.misses}, "
                f"maxsize={self.maxsize}, currsize={self.currsize})")


class _lru_cache_wrapper:
    def __init__(self, func, maxsize):
        self.__wrapped__ = func
        self._maxsize = maxsize
        self._cache = {}
        self._hits = 0
        self._misses = 0

    def __call__(self, *args, **kwargs):
        key = args
        if kwargs:
            key = args + (_missing,) + tuple(kwargs.items())
        if key in self._cache:
            self._hits += 1
            value = self._cache.pop(key)
            self._cache[key] = value
            return value
        self._misses += 1
        value = self.__wrapped__(*args, **kwargs)
        if self._maxsize != 0:
            self._cache[key] = value
            if self._maxsize is not None and len(self._cache) > self._maxsize:
                del self._cache[next(iter(self._cache))]
        return value

    def cache_info(self):
        return _CacheInfo(self._hits, self._misses, self._maxsize, len(self._cache))

    def cache_clear(self):
        self._cache = {}
        self._hits = 0
        self._misses = 0


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize):
        return _lru_cache_wrapper(maxsize, 128)
    if maxsize is not None and maxsize < 0:
        maxsize = 0

    def decorating_function(user_function):
        return _lru_cache_wrapper(user_function, maxsize)

    return decorating_function


def cache(user_function):
    return _lru_cache_wrapper(user_function, None)


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

    return K


def total_ordering(cls):
    roots = [op for op in ("__lt__", "__le__", "__gt__", "__ge__") if op in cls.__dict__]
    if not roots:
        raise ValueError("must define at least one ordering operation: < > <= >=")
    root = roots[0]
    if root == "__lt__":
        derived = {
            "__gt__": lambda self, other: not (self < other) and self != other,
            "__le__": lambda self, other: self < other or self == other,
            "__ge__": lambda self, other: not (self < other),
        }
    elif root == "__le__":
        derived = {
            "__ge__": lambda self, other: not (self <= other) or self == other,
            "__lt__": lambda self, other: self <= other and not self == other,
            "__gt__": lambda self, other: not (self <= other),
        }
    elif root == "__gt__":
        derived = {
            "__lt__": lambda self, other: not (self > other) and self != other,
            "__ge__": lambda self, other: self > other or self == other,
            "__le__": lambda self, other: not (self > other),
        }
    else:
        derived = {
            "__le__": lambda self, other: not (self >= other) or self == other,
            "__gt__": lambda self, other: self >= other and not self == other,
            "__lt__": lambda self, other: not (self >= other),
        }
    for name, method in derived.items():
        if name not in roots:
            setattr(cls, name, method)
    return cls


class _SingleDispatch:
    def __init__(self, func):
        self.__wrapped__ = func
        self.registry = {object: func}

    def register(self, cls, func=None):
        if func is None:
            if isinstance(cls, type):
                return lambda f: self.register(cls, f)
            # `@f.register` on a function: the type its first parameter is annotated with.
            annotations = getattr(cls, "__annotations__", {})
            first = next((v for k, v in annotations.items() if k != "return"), None)
            if not isinstance(first, type):
                raise TypeError(
                    f"Invalid first argument to `register()`: {cls!r}. Use either "
                    "`@register(some_class)` or plain `@register` on an annotated function.")
            func, cls = cls, first
        self.registry[cls] = func
        return func

    def dispatch(self, cls):
        for klass in cls.__mro__:
            if klass in self.registry:
                return self.registry[klass]
        return self.registry[object]

    def __call__(self, *args, **kwargs):
        if not args:
            raise TypeError(f"{self.__wrapped__.__name__} requires at least 1 positional argument")
        return self.dispatch(type(args[0]))(*args, **kwargs)


def singledispatch(func):
    return _SingleDispatch(func)
