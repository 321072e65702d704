# enum as training scripts use it: Enum, IntEnum, StrEnum, Flag, IntFlag, auto(), aliases,
# lookup by value and name, iteration order, reprs, formatting, @unique and bad lookups.
from enum import Enum, IntEnum, StrEnum, Flag, IntFlag, auto, unique


class Mode(Enum):
    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"

    @property
    def grad(self):
        return self is Mode.TRAIN

    @classmethod
    def parse(cls, text):
        return cls(text.strip().lower())


class Stage(IntEnum):
    SETUP = auto()
    FIT = auto()
    TEST = 10
    DONE = auto()


class Color(StrEnum):
    RED = auto()
    GREEN = "g"


class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
    RW = R | W


class Bits(IntFlag):
    A = 1
    B = 2
    C = 4


class Code(Enum):
    OK = 0
    FINE = 0
    BAD = 1


print(list(Mode), len(Mode), Mode.TRAIN in Mode)
print(repr(Mode.EVAL), str(Mode.EVAL), f"{Mode.EVAL}", f"[{Mode.EVAL:>12}]", Mode.EVAL.name, Mode.EVAL.value)
print(Mode("infer"), Mode["TRAIN"], Mode.parse(" EVAL "), Mode.TRAIN.grad, Mode.EVAL.grad)
print(type(Mode.TRAIN), type(Mode), Mode, isinstance(Mode.TRAIN, Mode), Mode.TRAIN == "train")
print([(s.name, s.value) for s in Stage], Stage.FIT + 1, Stage.TEST > Stage.FIT, Stage(2), repr(Stage(11)))
print(int(Stage.DONE), float(Stage.FIT), f"{Stage.TEST:03d}", str(Stage.SETUP), sorted([Stage.DONE, Stage.SETUP]))
print(Stage.FIT == 2, {Stage.FIT: "fit"}[2], ["a", "b", "c"][Stage.FIT], max(Stage).name)
print(list(Color), Color.RED == "red", f"{Color.GREEN}", Color.RED.upper(), repr(Color.GREEN))
rw = Perm.R | Perm.W
print(rw, repr(rw), rw is Perm.RW, Perm.W in rw, Perm.X in rw, bool(Perm(0)), repr(Perm(0)))
print(Perm.RW & Perm.W, ~Perm.R, [m.name for m in Perm], list(rw), len(rw))
print(Bits.A | Bits.C, int(Bits.A | Bits.C), Bits(6) == 6, repr(Bits(3)))
print(Code.FINE is Code.OK, Code.FINE.name, [c.name for c in Code], list(Code.__members__))
print(Mode, Perm, hash(Mode.TRAIN) == hash(Mode.TRAIN), {Mode.TRAIN, Mode.TRAIN, Mode.EVAL} == {Mode.EVAL, Mode.TRAIN})
for bad in [lambda: Mode("test"), lambda: Mode["TEST"], lambda: Stage(99)]:
    try:
        bad()
    except (ValueError, KeyError) as e:
        print(type(e).__name__, e)
try:
    @unique
    class Twice(Enum):
        A = 1
        B = 2
        C = 1
except ValueError as e:
    print("ValueError", e)
match Mode.parse("eval"):
    case Mode.TRAIN:
        print("training")
    case Mode.EVAL | Mode.INFER as m:
        print("not training:", m.name)
