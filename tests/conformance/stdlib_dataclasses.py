# dataclasses as configs use them, properties with setters, and NotImplemented.
from dataclasses import asdict, astuple, dataclass, field, fields, replace, FrozenInstanceError
from typing import List


@dataclass
class OptimConfig:
    name: str = "adam"
    lr: float = 1e-3


@dataclass
class TrainConfig:
    hidden: List[int] = field(default_factory=lambda: [32, 16])
    epochs: int = 5
    optim: OptimConfig = field(default_factory=OptimConfig)
    steps: int = field(init=False, default=0)

    def __post_init__(self):
        if self.epochs <= 0:
            raise ValueError(f"epochs must be positive, got {self.epochs}")
        self.steps = self.epochs * 10


cfg = TrainConfig(epochs=3)
print(cfg)
print(asdict(cfg), astuple(cfg))
print([f.name for f in fields(cfg)], cfg == TrainConfig(epochs=3), cfg == TrainConfig(), cfg == 3)
print(replace(cfg, optim=replace(cfg.optim, lr=0.1)), cfg.hidden is not TrainConfig().hidden)
try:
    TrainConfig(epochs=0)
except ValueError as e:
    print("ValueError:", e)
try:
    TrainConfig(1, 2, 3, 4)
except TypeError as e:
    print("TypeError:", e)


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int = 0


v = Version(1, 2)
print(v, v < Version(1, 3), sorted([Version(2), Version(1, 5), Version(1)]), hash(v) == hash(Version(1, 2)))
try:
    v.major = 3
except FrozenInstanceError as e:
    print("FrozenInstanceError:", e, isinstance(e, AttributeError))
try:
    Version()
except TypeError as e:
    print("TypeError:", e)


class Temperature:
    def __init__(self):
        self._celsius = 0.0

    @property
    def celsius(self):
        return self._celsius

    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._celsius = value

    @property
    def kelvin(self):
        return self._celsius + 273.15


t = Temperature()
t.celsius = 25
print(t.celsius, t.kelvin)
try:
    t.kelvin = 3
except AttributeError as e:
    print("AttributeError:", e)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError:", e)


class Meters:
    def __init__(self, n):
        self.n = n

    def __add__(self, other):
        if isinstance(other, Meters):
            return Meters(self.n + other.n)
        return NotImplemented

    def __radd__(self, other):
        if other == 0:
            return self
        return NotImplemented

    def __repr__(self):
        return f"Meters({self.n})"


print(Meters(1) + Meters(2), sum([Meters(1), Meters(2), Meters(3)]))
try:
    Meters(1) + "x"
except TypeError as e:
    print("TypeError:", e)
