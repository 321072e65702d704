# collections as training scripts use them, and subclassing the built-in containers.
from collections import ChainMap, Counter, OrderedDict, defaultdict, deque, namedtuple

history = defaultdict(list)
for epoch, loss in enumerate([0.9, 0.7, 0.6]):
    history["loss"].append(loss)
    history["epoch"].append(epoch)
print(history, dict(history), len(history), "loss" in history, isinstance(history, dict))

counts = Counter("abracadabra")
print(counts, counts.most_common(2), counts["z"], sorted(counts.elements())[:4], counts.total())
counts.update(["z", "z"])
counts.subtract({"a": 5})
print(counts, Counter(a=2, b=1) + Counter(a=1, c=3), Counter(a=2) - Counter(a=5), +Counter(x=-1, y=1))

od = OrderedDict(b=2, a=1)
od["c"] = 3
od.move_to_end("b")
print(od, od.popitem(last=False), list(od.keys()), od == OrderedDict(c=3, b=2), od == {"b": 2, "c": 3})

Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x, p[1], tuple(p), p == (1, 2), isinstance(p, tuple), p._asdict(), p._replace(x=5), Point._fields)
x, y = p
print(x + y, len(p), Point._make([3, 4]), type(p).__name__)
try:
    p.x = 3
except AttributeError as e:
    print("AttributeError:", e)
try:
    Point(1)
except TypeError as e:
    print("TypeError:", e)

window = deque(maxlen=3)
for i in range(5):
    window.append(i)
print(window, list(window), window[0], len(window), 3 in window)
d = deque([1, 2, 3, 4])
d.rotate(1)
d.appendleft(0)
print(d, d.pop(), d.popleft(), d)

settings = ChainMap({"lr": 0.01}, {"lr": 0.1, "epochs": 5})
print(settings["lr"], settings["epochs"], len(settings), sorted(settings))


class Registry(dict):
    def register(self, name):
        def decorator(cls):
            self[name] = cls
            return cls
        return decorator


models = Registry()


@models.register("mlp")
class MLP:
    pass


print(sorted(models), models["mlp"].__name__, len(models), isinstance(models, dict))


class History(list):
    def best(self):
        return min(self)


h = History([0.5, 0.3, 0.4])
h.append(0.2)
print(h, h.best(), len(h), sum(h), h[1:3], isinstance(h, list))


def frozen(cls):
    cls.frozen = True
    return cls


@frozen
class Config:
    lr = 0.1


print(Config.frozen, Config.lr)
