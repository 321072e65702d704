# abc: abstract methods and properties stop instantiation with CPython's message,
# __abstractmethods__, ABCMeta used directly, and virtual subclasses by register.
from abc import ABC, ABCMeta, abstractmethod


class Metric(ABC):
    @abstractmethod
    def update(self, pred, target):
        ...

    @property
    @abstractmethod
    def name(self):
        ...

    @classmethod
    @abstractmethod
    def build(cls):
        ...

    def __repr__(self):
        return f"<{self.name}>"


class Accuracy(Metric):
    name = "accuracy"

    def update(self, pred, target):
        return sum(p == t for p, t in zip(pred, target)) / len(target)

    @classmethod
    def build(cls):
        return cls()


class Half(Metric):
    def update(self, pred, target):
        return 0.5


class Loader(metaclass=ABCMeta):
    @abstractmethod
    def load(self):
        ...


print(sorted(Metric.__abstractmethods__), sorted(Half.__abstractmethods__), sorted(Accuracy.__abstractmethods__))
for cls in (Metric, Half, Loader):
    try:
        cls()
    except TypeError as e:
        print("TypeError:", e)
acc = Accuracy.build()
print(acc, acc.update([1, 2, 3], [1, 0, 3]), isinstance(acc, Metric), issubclass(Accuracy, Metric))


class Sized(ABC):
    @abstractmethod
    def __len__(self):
        ...


Sized.register(tuple)


@Sized.register
class Bag:
    def __len__(self):
        return 3


class SmallBag(Bag):
    pass


print(issubclass(tuple, Sized), isinstance((1,), Sized), isinstance([], Sized), isinstance(Bag(), Sized))
print(issubclass(SmallBag, Sized), isinstance(SmallBag(), (int, Sized)), issubclass(bool, (str, Sized)))
print(Bag.__name__, len(Bag()), type(Metric).__name__, type(Loader).__name__)
