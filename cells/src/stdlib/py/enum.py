"""enum, as the lab has it: Enum, IntEnum, StrEnum, Flag and IntFlag with auto(), aliases,
lookup by value (`Color("red")`) and by name (`Color["RED"]`), iteration, `__members__`,
`@unique` and CPython 3.11's reprs. Members are made by `EnumType.__init__` from the class
body's attributes. IntEnum, StrEnum and IntFlag members (and those of `class Color(str, Enum)`)
are ints and strs, as in CPython."""

import _lab


class _Auto:
    """`auto()` and expressions of them in a class body (`READ | WRITE`), resolved when the
    class is made, in the order they were written."""
    _made = [0]

    def __init__(self, op=None, left=None, right=None):
        self._made[0] += 1
        self._order = self._made[0]
        self._op = op
        self._left = left
        self._right = right
        self.value = None

    def _resolve(self, values):
        if self._op is None:
            return self.value
        a = self._left._resolve(values) if isinstance(self._left, _Auto) else self._left
        b = self._right._resolve(values) if isinstance(self._right, _Auto) else self._right
        if self._op == "|":
            return a | b
        if self._op == "&":
            return a & b
        return a ^ b

    def __or__(self, other):
        return _Auto("|", self, other)

    def __and__(self, other):
        return _Auto("&", self, other)

    def __xor__(self, other):
        return _Auto("^", self, other)

    def __repr__(self):
        return "auto(...)"


def auto():
    return _Auto()


def _is_descriptor(value):
    return callable(value) or type(value).__name__ in ("property", "classmethod", "staticmethod")


def _is_dunder(name):
    return len(name) > 4 and name[:2] == name[-2:] == "__"


def _is_sunder(name):
    return len(name) > 2 and name[0] == name[-1] == "_" and name[1] != "_"


class EnumType(type):
    def __init__(cls, name, bases, namespace):
        cls._member_map_ = {}
        cls._member_names_ = []
        cls._value2member_map_ = {}
        pending = []
        for key, value in namespace.items():
            if _is_dunder(key) or _is_sunder(key) or _is_descriptor(value):
                continue
            if key in ("_generate_next_value_", "_missing_"):
                continue
            pending.append((key, value))
        if not pending:
            return
        # auto() values as written: each the next after the values before it.
        resolved = {}
        seen = []
        for key, value in pending:
            if isinstance(value, _Auto) and value._op is None:
                value.value = cls._generate_next_value_(key, 1, len(seen), list(seen))
                value = value.value
            elif isinstance(value, _Auto):
                value = value._resolve(resolved)
            resolved[key] = value
            seen.append(value)
        for key, _ in pending:
            value = resolved[key]
            if value in cls._value2member_map_:
                # An alias: the same member under a second name.
                member = cls._value2member_map_[value]
            else:
                member = _lab.new_object(cls, *_carried(cls, value))
                member._name_ = key
                member._value_ = value
                member.__objclass__ = cls
                cls._value2member_map_[value] = member
                # A flag's multi-bit members are aliases: iteration shows single bits only.
                if not _derives(cls, "Flag") or _single(value):
                    cls._member_names_.append(key)
            cls._member_map_[key] = member
            setattr(cls, key, member)
        cls.__members__ = dict(cls._member_map_)

    def __call__(cls, value):
        if value in cls._value2member_map_:
            return cls._value2member_map_[value]
        if isinstance(value, cls):
            return value
        found = cls._missing_(value)
        if found is not None:
            return found
        raise ValueError(f"{value!r} is not a valid {cls.__name__}")

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[name] for name in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __contains__(cls, member):
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __repr__(cls):
        if _derives(cls, "Flag"):
            return f"<flag '{cls.__name__}'>"
        return f"<enum '{cls.__name__}'>"


EnumMeta = EnumType


def _carried(cls, value):
    """The built-in value a member of an int or str enum is (none for a plain Enum)."""
    for kind in (int, float, str):
        if issubclass(cls, kind):
            return [kind(value)]
    return []


def _derives(cls, name):
    return any(c.__name__ == name and c.__module__ == "enum" for c in cls.__mro__)


class Enum(metaclass=EnumType):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            try:
                return last + 1
            except TypeError:
                pass
        return start

    @classmethod
    def _missing_(cls, value):
        return None

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        return f"{type(self).__name__}.{self._name_}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return type(self), (self._value_,)

    def __dir__(self):
        return ["__class__", "__doc__", "__module__", "name", "value"]


class ReprEnum(Enum):
    """An enum whose members show as their values in `str()` and `format()`."""

    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)


class IntEnum(int, ReprEnum):
    """Members are ints (`Stage.FIT + 1`, `xs[Stage.FIT]`, `{2: ...}[Stage.FIT]`)."""

    def __hash__(self):
        return hash(self._value_)


class StrEnum(str, ReprEnum):
    """Members are strs (`Color.RED.upper()`, `Color.RED == "red"`)."""

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()

    def __hash__(self):
        return hash(self._value_)


def _value_of(x):
    return x._value_ if isinstance(x, Enum) else x


class Flag(Enum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        high = max(last_values)
        return 1 << high.bit_length() if high > 0 else 1

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            return None
        every = 0
        for member in cls:
            every |= member._value_
        if value & ~every:
            return None
        # A composite of members (or none of them): made once, kept with the rest.
        pseudo = _lab.new_object(cls, *_carried(cls, value))
        names = [m._name_ for m in cls if m._value_ & value == m._value_ and _single(m._value_)]
        pseudo._name_ = "|".join(names) if names else None
        pseudo._value_ = value
        cls._value2member_map_[value] = pseudo
        return pseudo

    def __repr__(self):
        if self._name_ is None:
            return f"<{type(self).__name__}: {self._value_!r}>"
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        if self._name_ is None:
            return f"{type(self).__name__}({self._value_!r})"
        return f"{type(self).__name__}.{self._name_}"

    def __contains__(self, other):
        return (other._value_ & self._value_) == other._value_

    def __bool__(self):
        return bool(self._value_)

    def __or__(self, other):
        return type(self)(self._value_ | _value_of(other))

    def __and__(self, other):
        return type(self)(self._value_ & _value_of(other))

    def __xor__(self, other):
        return type(self)(self._value_ ^ _value_of(other))

    def __invert__(self):
        every = 0
        for member in type(self):
            every |= member._value_
        return type(self)(every & ~self._value_)

    def __iter__(self):
        return iter([m for m in type(self) if _single(m._value_) and m._value_ & self._value_])

    def __len__(self):
        return len([m for m in self])


def _single(value):
    return value != 0 and value & (value - 1) == 0


class IntFlag(int, ReprEnum, Flag):
    """Members are ints; `|`, `&` and `^` of them are members again (Flag's operators)."""

    def __hash__(self):
        return hash(self._value_)


def unique(enumeration):
    duplicates = []
    for name, member in enumeration.__members__.items():
        if name != member._name_:
            duplicates.append((name, member._name_))
    if duplicates:
        shown = ", ".join(f"{alias} -> {name}" for alias, name in duplicates)
        raise ValueError(f"duplicate values found in {enumeration!r}: {shown}")
    return enumeration
