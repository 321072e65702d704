"""dataclasses, as the lab has it: @dataclass (init, repr, eq, order, frozen), field(),
fields(), asdict(), astuple(), replace() and is_dataclass(). Fields come from the class body's
annotations, in order (the lab keeps them as the text written)."""


class _MissingType:
    def __repr__(self):
        return "MISSING"


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, compare, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.kw_only = kw_only

    def __repr__(self):
        return (f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
                f"default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r})")


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
          compare=True, metadata=None, kw_only=False):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare, kw_only)


def _is_class_var(annotation):
    return annotation.startswith("ClassVar") or annotation.startswith("typing.ClassVar")


def _fields_of(cls, annotations, kw_only):
    collected = {}
    base_fields = getattr(cls, "__dataclass_fields__", None)
    if base_fields is not None:
        for f in base_fields.values():
            collected[f.name] = f
    for name, annotation in annotations.items():
        if _is_class_var(annotation):
            continue
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            if isinstance(default, (list, dict, set)):
                raise ValueError(
                    f"mutable default {type(default)!r} for field {name} is not allowed: "
                    "use default_factory")
            f = Field(default, MISSING, True, True, True, kw_only)
        f.name = name
        f.type = annotation
        collected[name] = f
        if f.default is MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, f.default)
    return list(collected.values())


def _process(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only):
    annotations = cls.__dict__.get("__annotations__", {})
    all_fields = _fields_of(cls, annotations, kw_only)
    cls.__dataclass_fields__ = {f.name: f for f in all_fields}
    name = cls.__name__
    init_fields = [f for f in all_fields if f.init]
    seen_default = False
    for f in init_fields:
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has_default and not f.kw_only:
            raise TypeError(f"non-default argument '{f.name}' follows default argument")
        seen_default = seen_default or has_default

    positional = [f for f in init_fields if not f.kw_only]
    # Keyword-only fields come after the positional ones in __init__, as CPython orders them.
    init_order = positional + [f for f in init_fields if f.kw_only]

    def __init__(self, *args, **kwargs):
        if len(args) > len(positional):
            required = len([f for f in positional
                            if f.default is MISSING and f.default_factory is MISSING])
            takes = (f"{len(positional) + 1}" if required == len(positional)
                     else f"from {required + 1} to {len(positional) + 1}")
            plural = "" if takes == "1" else "s"
            raise TypeError(
                f"{name}.__init__() takes {takes} positional argument{plural} "
                f"but {len(args) + 1} were given")
        missing = []
        for i, f in enumerate(init_order):
            if i < len(args):
                if f.name in kwargs:
                    raise TypeError(f"{name}.__init__() got multiple values for argument '{f.name}'")
                value = args[i]
            elif f.name in kwargs:
                value = kwargs.pop(f.name)
            elif f.default is not MISSING:
                value = f.default
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            else:
                missing.append(f.name)
                continue
            object.__setattr__(self, f.name, value)
        if kwargs:
            raise TypeError(
                f"{name}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if missing:
            if len(missing) == 1:
                names = f"'{missing[0]}'"
            else:
                names = ", ".join(f"'{m}'" for m in missing[:-1]) + f" and '{missing[-1]}'"
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(
                f"{name}.__init__() missing {len(missing)} required positional argument{plural}: {names}")
        for f in all_fields:
            if not f.init:
                if f.default is not MISSING:
                    object.__setattr__(self, f.name, f.default)
                elif f.default_factory is not MISSING:
                    object.__setattr__(self, f.name, f.default_factory())
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def __repr__(self):
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in all_fields if f.repr)
        return f"{name}({shown})"

    def _key(self):
        return tuple(getattr(self, f.name) for f in all_fields if f.compare)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return _key(self) == _key(other)

    def __hash__(self):
        return hash(_key(self))

    def _ordered(op):
        def compare(self, other):
            if type(other) is not type(self):
                raise TypeError(
                    f"'{op}' not supported between instances of '{name}' and "
                    f"'{type(other).__name__}'")
            a, b = _key(self), _key(other)
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            return a >= b
        return compare

    def __setattr__(self, attr, value):
        raise FrozenInstanceError(f"cannot assign to field '{attr}'")

    def __delattr__(self, attr):
        raise FrozenInstanceError(f"cannot delete field '{attr}'")

    own = cls.__dict__
    if init and "__init__" not in own:
        cls.__init__ = __init__
    if repr and "__repr__" not in own:
        cls.__repr__ = __repr__
    if eq and "__eq__" not in own:
        cls.__eq__ = __eq__
    if order:
        for dunder, op in (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")):
            setattr(cls, dunder, _ordered(op))
    if (unsafe_hash or (eq and frozen)) and "__hash__" not in own:
        cls.__hash__ = __hash__
    if match_args and "__match_args__" not in own:
        cls.__match_args__ = tuple(f.name for f in init_fields if not f.kw_only)
    if frozen:
        cls.__setattr__ = __setattr__
        cls.__delattr__ = __delattr__
    return cls


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False,
              frozen=False, match_args=True, kw_only=False, slots=False):
    def wrap(cls):
        return _process(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only)

    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    return hasattr(obj, "__dataclass_fields__")


def fields(class_or_instance):
    try:
        found = class_or_instance.__dataclass_fields__
    except AttributeError:
        raise TypeError("must be called with a dataclass type or instance")
    return tuple(found.values())


def _copy(value, as_dict):
    if is_dataclass(value) and not isinstance(value, type):
        if as_dict:
            return {f.name: _copy(getattr(value, f.name), True) for f in fields(value)}
        return tuple(_copy(getattr(value, f.name), False) for f in fields(value))
    if isinstance(value, list):
        return [_copy(v, as_dict) for v in value]
    if isinstance(value, tuple):
        return tuple(_copy(v, as_dict) for v in value)
    if isinstance(value, dict):
        return {_copy(k, as_dict): _copy(v, as_dict) for k, v in value.items()}
    return value


def asdict(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return _copy(obj, True)


def astuple(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on dataclass instances")
    return _copy(obj, False)


def replace(obj, /, **changes):
    for f in fields(obj):
        if not f.init and f.name in changes:
            raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
