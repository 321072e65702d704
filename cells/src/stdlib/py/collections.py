"""collections, as the lab has it: OrderedDict, defaultdict and Counter (dict subclasses, as in
Python), namedtuple (tuple subclasses made with type()), deque and ChainMap."""


class OrderedDict(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    def move_to_end(self, key, last=True):
        value = self.pop(key)
        if last:
            self[key] = value
        else:
            rest = list(self.items())
            self.clear()
            self[key] = value
            for k, v in rest:
                self[k] = v

    def popitem(self, last=True):
        if not self:
            raise KeyError("dictionary is empty")
        key = next(reversed(self)) if last else next(iter(self))
        return key, self.pop(key)

    def copy(self):
        return OrderedDict(self)

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self.items()) == list(other.items())
        return dict(self) == other

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        if not self:
            return "OrderedDict()"
        return f"OrderedDict({list(self.items())!r})"


class defaultdict(dict):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError("first argument must be callable or None")
        super().__init__(*args, **kwargs)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self[key] = value
        return value

    def copy(self):
        return defaultdict(self.default_factory, self)

    def __repr__(self):
        return f"defaultdict({self.default_factory!r}, {dict(self)!r})"


class Counter(dict):
    def __init__(self, iterable=None, /, **kwds):
        super().__init__()
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        ordered = sorted(self.items(), key=lambda item: item[1], reverse=True)
        return ordered if n is None else ordered[:n]

    def elements(self):
        for element, count in self.items():
            for _ in range(count):
                yield element

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for element, count in iterable.items():
                    self[element] = count + self.get(element, 0)
            else:
                for element in iterable:
                    self[element] = self.get(element, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for element, count in iterable.items():
                    self[element] = self.get(element, 0) - count
            else:
                for element in iterable:
                    self[element] = self.get(element, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return Counter(self)

    def __repr__(self):
        if not self:
            return "Counter()"
        return "Counter({" + ", ".join(f"{k!r}: {v!r}" for k, v in self.most_common()) + "})"

    def _keep(self, pairs):
        result = Counter()
        for element, count in pairs:
            if count > 0:
                result[element] = count
        return result

    def __add__(self, other):
        keys = list(self) + [k for k in other if k not in self]
        return self._keep((k, self[k] + other[k]) for k in keys)

    def __sub__(self, other):
        return self._keep((k, self[k] - other[k]) for k in self)

    def __or__(self, other):
        keys = list(self) + [k for k in other if k not in self]
        return self._keep((k, max(self[k], other[k])) for k in keys)

    def __and__(self, other):
        return self._keep((k, min(self[k], other[k])) for k in self)

    def __pos__(self):
        return self._keep(self.items())

    def __neg__(self):
        return self._keep((k, -v) for k, v in self.items())


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = tuple(str(name) for name in field_names)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(fields):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(zip(fields[len(fields) - len(defaults):], defaults))

    def __init__(self, *args, **kwargs):
        if len(args) > len(fields):
            raise TypeError(
                f"{typename}.__new__() takes {len(fields) + 1} positional arguments "
                f"but {len(args) + 1} were given")
        values = list(args)
        missing = []
        for name in fields[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in field_defaults:
                values.append(field_defaults[name])
            else:
                missing.append(name)
        if kwargs:
            raise TypeError(
                f"{typename}.__new__() got an unexpected keyword argument {next(iter(kwargs))!r}")
        if missing:
            names = " and ".join(repr(m) for m in missing) if len(missing) <= 2 else (
                ", ".join(repr(m) for m in missing[:-1]) + f", and {missing[-1]!r}")
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(
                f"{typename}.__new__() missing {len(missing)} required positional "
                f"argument{plural}: {names}")
        super().__init__(values)
        for name, value in zip(fields, values):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute")

    def __repr__(self):
        return typename + "(" + ", ".join(f"{n}={v!r}" for n, v in zip(fields, self)) + ")"

    def _replace(self, **kwargs):
        values = [kwargs.pop(name, value) for name, value in zip(fields, self)]
        if kwargs:
            raise ValueError(f"Got unexpected field names: {list(kwargs)!r}")
        return cls(*values)

    def _asdict(self):
        return dict(zip(fields, self))

    def _make(iterable):
        return cls(*iterable)

    cls = type(typename, (tuple,), {
        "__module__": "__main__",
        "_fields": fields,
        "_field_defaults": field_defaults,
        "__init__": __init__,
        "__repr__": __repr__,
        "__setattr__": __setattr__,
        "_replace": _replace,
        "_asdict": _asdict,
        "_make": staticmethod(_make),
    })
    return cls


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None and maxlen < 0:
            raise ValueError("maxlen must be non-negative")
        self._maxlen = maxlen
        self._items = []
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def append(self, x):
        self._items.append(x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop(0)

    def appendleft(self, x):
        self._items.insert(0, x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop()

    def extend(self, iterable):
        for x in list(iterable):
            self.append(x)

    def extendleft(self, iterable):
        for x in list(iterable):
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def rotate(self, n=1):
        if self._items:
            n = n % len(self._items)
            self._items[:] = self._items[-n:] + self._items[:-n] if n else self._items

    def clear(self):
        self._items.clear()

    def count(self, x):
        return self._items.count(x)

    def index(self, x):
        return self._items.index(x)

    def remove(self, x):
        self._items.remove(x)

    def reverse(self):
        self._items.reverse()

    def copy(self):
        return deque(self._items, self._maxlen)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, value):
        self._items[i] = value

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        return isinstance(other, deque) and self._items == other._items

    def __repr__(self):
        if self._maxlen is None:
            return f"deque({self._items!r})"
        return f"deque({self._items!r}, maxlen={self._maxlen})"


class ChainMap:
    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __getitem__(self, key):
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        raise KeyError(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        del self.maps[0][key]

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        seen = {}
        for mapping in reversed(self.maps):
            for key in mapping:
                seen[key] = None
        return iter(list(seen))

    def keys(self):
        return list(self)

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]

    def new_child(self, m=None):
        return ChainMap({} if m is None else m, *self.maps)

    @property
    def parents(self):
        return ChainMap(*self.maps[1:])

    def __repr__(self):
        return f"ChainMap({', '.join(repr(m) for m in self.maps)})"
