# Theme: classes - dataclasses (defaults, default_factory, frozen, order,
# __post_init__, asdict/astuple/replace), dunder methods on user classes,
# properties with setters, classmethod constructors, staticmethods,
# inheritance with super(), class vs instance attributes.
from dataclasses import dataclass, field, asdict, astuple, replace, fields, FrozenInstanceError


@dataclass
class TrainConfig:
    name: str
    lr: float = 1e-3
    epochs: int = 10
    layers: list = field(default_factory=lambda: [64, 32])
    tags: dict = field(default_factory=dict)
    steps: int = field(init=False, default=0)

    def __post_init__(self):
        if self.lr <= 0:
            raise ValueError("lr must be positive")
        self.steps = self.epochs * 100


@dataclass(frozen=True)
class Coord:
    x: int
    y: int

    def shifted(self, dx, dy):
        return Coord(self.x + dx, self.y + dy)


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0

    def __str__(self):
        return f"v{self.major}.{self.minor}.{self.patch}"


class Vocabulary:
    """Maps tokens to ids. Exercises the container protocol."""

    unk = "<unk>"          # class attribute
    instances = 0

    def __init__(self, tokens=()):
        self._tokens = [self.unk]
        self._index = {self.unk: 0}
        for t in tokens:
            self.add(t)
        Vocabulary.instances += 1

    @classmethod
    def from_text(cls, text):
        return cls(sorted(set(text.split())))

    @staticmethod
    def normalise(token):
        return token.strip().lower()

    def add(self, token):
        token = self.normalise(token)
        if token not in self._index:
            self._index[token] = len(self._tokens)
            self._tokens.append(token)
        return self._index[token]

    def __len__(self):
        return len(self._tokens)

    def __contains__(self, token):
        return self.normalise(token) in self._index

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._tokens[key]
        return self._index.get(self.normalise(key), 0)

    def __iter__(self):
        return iter(self._tokens)

    def __eq__(self, other):
        if not isinstance(other, Vocabulary):
            return NotImplemented
        return self._tokens == other._tokens

    def __hash__(self):
        return hash(tuple(self._tokens))

    def __repr__(self):
        return f"Vocabulary(size={len(self)})"

    def __str__(self):
        return " ".join(self._tokens)

    def __call__(self, sentence):
        return [self[w] for w in sentence.split()]


class Temperature:
    def __init__(self, celsius):
        self.celsius = celsius

    @property
    def celsius(self):
        return self._celsius

    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._celsius = value

    @property
    def fahrenheit(self):
        return self._celsius * 9 / 5 + 32

    def __lt__(self, other):
        return self.celsius < other.celsius

    def __repr__(self):
        return f"Temperature({self.celsius})"


class Timer:
    """Context manager that records enter/exit events (no real timing)."""

    def __init__(self, label):
        self.label = label
        self.events = []

    def __enter__(self):
        self.events.append("enter")
        return self

    def __exit__(self, exc_type, exc, tb):
        self.events.append("exit:" + (exc_type.__name__ if exc_type else "ok"))
        return False


class Module:
    registry = []

    def __init__(self, name):
        self.name = name
        self.training = True
        Module.registry.append(name)

    def forward(self, x):
        raise NotImplementedError

    def eval(self):
        self.training = False
        return self

    def describe(self):
        return f"{type(self).__name__}({self.name}, training={self.training})"


class Linear(Module):
    def __init__(self, name, w, b):
        super().__init__(name)
        self.w = w
        self.b = b

    def forward(self, x):
        return self.w * x + self.b


class ScaledLinear(Linear):
    def __init__(self, name, w, b, scale):
        super().__init__(name, w, b)
        self.scale = scale

    def forward(self, x):
        return super().forward(x) * self.scale

    def describe(self):
        return super().describe() + f" scale={self.scale}"


def main():
    cfg = TrainConfig("baseline")
    print(cfg)
    cfg2 = TrainConfig("wide", lr=0.01, layers=[256])
    cfg2.tags["owner"] = "lab"
    print(cfg2)
    print("default lists are separate:", cfg.layers is not TrainConfig("x").layers)
    print("asdict:", asdict(cfg2))
    print("astuple:", astuple(cfg))
    print("fields:", [f.name for f in fields(TrainConfig)])
    print("replace:", replace(cfg, epochs=2))
    print("eq:", cfg == TrainConfig("baseline"), cfg == cfg2)
    try:
        TrainConfig("bad", lr=0)
    except ValueError as e:
        print("post_init error:", e)

    p = Coord(1, 2)
    print(p, p.shifted(3, 4), hash(p) == hash(Coord(1, 2)))
    try:
        p.x = 10
    except FrozenInstanceError as e:
        print("frozen:", e)
    print("set of coords:", len({Coord(0, 0), Coord(0, 0), Coord(1, 0)}))

    versions = [Version(1, 2, 3), Version(1, 0), Version(0, 9, 9), Version(1, 2)]
    print("sorted:", [str(v) for v in sorted(versions)])
    print("max:", max(versions), "| v1.0 < v1.2:", Version(1) < Version(1, 2))

    vocab = Vocabulary.from_text("the cat sat on the mat The Cat")
    print(repr(vocab), "|", vocab)
    print("len:", len(vocab), "'CAT' in vocab:", "CAT" in vocab, "'dog' in vocab:", "dog" in vocab)
    print("vocab['mat']:", vocab["mat"], "vocab[2]:", vocab[2], "vocab['dog']:", vocab["dog"])
    print("call:", vocab("the cat ate the dog"))
    print("iter:", list(vocab)[:3], "enumerate:", [(i, t) for i, t in enumerate(vocab) if i > 4])
    other = Vocabulary(["cat", "the", "mat", "on", "sat"])
    shuffled = Vocabulary(["sat", "on", "the", "mat", "cat"])
    print("eq:", vocab == other, "hash eq:", hash(vocab) == hash(other), "eq shuffled:", vocab == shuffled, "eq int:", vocab == 3)
    print("static via instance:", vocab.normalise("  HeLLo "), "| class attr:", Vocabulary.unk)
    print("instances:", Vocabulary.instances)
    vocab.unk = "[UNK]"  # shadows the class attribute on this instance only
    print("instance unk:", vocab.unk, "| class unk:", Vocabulary.unk, "| other unk:", other.unk)

    t = Temperature(25)
    print(t, f"{t.fahrenheit:.1f}F")
    t.celsius = 100
    print(t, t.fahrenheit)
    try:
        t.celsius = -300
    except ValueError as e:
        print("setter rejected:", e)
    temps = [Temperature(30), Temperature(-5), Temperature(12)]
    print("sorted temps:", sorted(temps), "min:", min(temps))

    with Timer("block") as tm:
        tm.events.append("body")
    print(tm.label, tm.events)
    try:
        with Timer("failing") as tm2:
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    print(tm2.label, tm2.events)

    layer = ScaledLinear("fc1", 2, 1, 0.5)
    print(layer.forward(3), layer.describe())
    print(layer.eval().describe())
    print("isinstance:", isinstance(layer, Module), isinstance(layer, Linear))
    print("mro:", [c.__name__ for c in ScaledLinear.__mro__])
    base = Linear("fc0", 1, 0)
    print("registry:", Module.registry)
    try:
        Module("abstract").forward(1)
    except NotImplementedError:
        print("Module.forward not implemented")
    print("vars:", vars(base))
    print("hasattr/getattr:", hasattr(layer, "scale"), getattr(layer, "missing", "default"))
    setattr(base, "extra", 42)
    print("after setattr:", base.extra, sorted(vars(base)))


if __name__ == "__main__":
    main()
