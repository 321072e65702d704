# Theme: enum (Enum, IntEnum, Flag, auto, iteration, name/value, lookup by
# value and name, comparisons, methods on enums, unique) plus abc.ABC with
# @abstractmethod, abstract properties and registration.
from abc import ABC, abstractmethod
from enum import Enum, IntEnum, Flag, auto, unique


class Split(Enum):
    TRAIN = "train"
    VALID = "valid"
    TEST = "test"

    @property
    def shuffled(self):
        return self is Split.TRAIN

    def describe(self):
        return f"{self.name.lower()} split (shuffle={self.shuffled})"


class Phase(Enum):
    WARMUP = auto()
    TRAINING = auto()
    COOLDOWN = auto()
    DONE = auto()

    def next(self):
        members = list(type(self))
        idx = members.index(self)
        return members[min(idx + 1, len(members) - 1)]


class Priority(IntEnum):
    LOW = 1
    MEDIUM = 5
    HIGH = 10


class Permission(Flag):
    READ = auto()
    WRITE = auto()
    EXECUTE = auto()
    ALL = READ | WRITE | EXECUTE


class Status(Enum):
    OK = 0
    SUCCESS = 0   # alias for OK
    FAILED = 1


@unique
class Device(Enum):
    CPU = "cpu"
    CUDA = "cuda"
    MPS = "mps"

    @classmethod
    def parse(cls, text):
        try:
            return cls(text.lower())
        except ValueError:
            return cls.CPU


# ---- abc -----------------------------------------------------------------
class Optimizer(ABC):
    def __init__(self, lr):
        self.lr = lr
        self.steps = 0

    @property
    @abstractmethod
    def name(self):
        ...

    @abstractmethod
    def update(self, index, param, grad):
        ...

    def step(self, params, grads):
        self.steps += 1
        return [self.update(i, p, g) for i, (p, g) in enumerate(zip(params, grads))]

    def __repr__(self):
        return f"{self.name}(lr={self.lr}, steps={self.steps})"


class SGD(Optimizer):
    name = "SGD"

    def update(self, index, param, grad):
        return round(param - self.lr * grad, 6)


class Momentum(Optimizer):
    def __init__(self, lr, beta=0.9):
        super().__init__(lr)
        self.beta = beta
        self.velocity = {}

    @property
    def name(self):
        return "Momentum"

    def update(self, index, param, grad):
        v = self.beta * self.velocity.get(index, 0.0) + grad
        self.velocity[index] = v
        return round(param - self.lr * v, 6)


class Incomplete(Optimizer):
    name = "Incomplete"


class Sized(ABC):
    @abstractmethod
    def __len__(self):
        ...


Sized.register(tuple)  # virtual subclass


def main():
    print("members:", list(Split))
    for s in Split:
        print(f"  {s.name:<5} {s.value!r:<8} {s.describe()}")
    print("lookup by value:", Split("valid"), "| by name:", Split["TEST"])
    print("repr:", repr(Split.TRAIN), "| str:", str(Split.TRAIN))
    print("identity:", Split("train") is Split.TRAIN, "| eq str:", Split.TRAIN == "train")
    try:
        Split("holdout")
    except ValueError as e:
        print("bad value:", e)
    try:
        Split["HOLDOUT"]
    except KeyError as e:
        print("bad name:", e)

    print("auto values:", [(p.name, p.value) for p in Phase])
    p = Phase.WARMUP
    seq = [p]
    while p is not Phase.DONE:
        p = p.next()
        seq.append(p)
    print("phase sequence:", [x.name for x in seq])
    print("len(Phase):", len(Phase), "| member in enum:", Phase.DONE in Phase)

    print("IntEnum compare:", Priority.HIGH > Priority.LOW, Priority.MEDIUM == 5, Priority.LOW < 3)
    print("IntEnum math:", Priority.HIGH + 1, Priority.MEDIUM * 2, int(Priority.LOW))
    print("sorted by priority:", [x.name for x in sorted([Priority.HIGH, Priority.LOW, Priority.MEDIUM])])
    print("IntEnum lookup:", Priority(5), repr(Priority(10)))
    print("IntEnum format:", f"{Priority.HIGH}", f"{Priority.HIGH:>4}", str(Priority.LOW))
    tasks = {"eval": Priority.LOW, "train": Priority.HIGH, "log": Priority.MEDIUM}
    print("max task:", max(tasks, key=tasks.get))

    rw = Permission.READ | Permission.WRITE
    print("flag:", rw, "| has WRITE:", Permission.WRITE in rw, "| has EXECUTE:", Permission.EXECUTE in rw)
    print("flag value:", rw.value, "| ALL:", Permission.ALL.value, "| bool(empty):", bool(Permission(0)))
    print("ALL & ~WRITE:", Permission.ALL & ~Permission.WRITE)

    print("alias:", Status.SUCCESS is Status.OK, Status.SUCCESS.name, "| members:", [m.name for m in Status])
    print("__members__:", list(Status.__members__))

    print("device parse:", Device.parse("CUDA"), Device.parse("tpu"))
    try:
        @unique
        class Bad(Enum):
            A = 1
            B = 1
    except ValueError as e:
        print("unique violation:", e)

    print("enum as dict key:", {Split.TRAIN: 0.8, Split.TEST: 0.2}[Split.TRAIN])
    print("isinstance:", isinstance(Split.TRAIN, Split), type(Priority.LOW).__name__)

    # abc
    params, grads = [1.0, 2.0, 3.0], [0.5, -1.0, 2.0]
    for opt in (SGD(0.1), Momentum(0.1)):
        out = params
        for _ in range(3):
            out = opt.step(out, grads)
        print(opt, "->", out)
    for cls in (Optimizer, Incomplete):
        try:
            cls(0.1)
        except TypeError as e:
            print("TypeError:", e)
    print("abstract methods:", sorted(Optimizer.__abstractmethods__))
    print("issubclass(SGD, Optimizer):", issubclass(SGD, Optimizer))
    print("tuple is virtual Sized:", issubclass(tuple, Sized), isinstance((1, 2), Sized),
          "| list:", isinstance([], Sized))


if __name__ == "__main__":
    main()
