# Theme: collections - OrderedDict (move_to_end, popitem, LRU cache), defaultdict
# (list/int/set/nested), Counter (most_common, arithmetic, elements, update,
# subtract), namedtuple (_replace, _asdict, _fields, _make, defaults), deque
# (maxlen, appendleft, rotate, sliding window), ChainMap.
from collections import OrderedDict, defaultdict, Counter, namedtuple, deque, ChainMap


class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()

    def get(self, key):
        if key not in self.data:
            return None
        self.data.move_to_end(key)
        return self.data[key]

    def put(self, key, value):
        if key in self.data:
            self.data.move_to_end(key)
        self.data[key] = value
        if len(self.data) > self.capacity:
            evicted = self.data.popitem(last=False)
            print(f"  evicted {evicted}")


def moving_average(values, window):
    buf = deque(maxlen=window)
    out = []
    for v in values:
        buf.append(v)
        out.append(round(sum(buf) / len(buf), 2))
    return out


Sample = namedtuple("Sample", ["image_id", "label", "score"])
Batch = namedtuple("Batch", "inputs targets size", defaults=[0])


def main():
    # OrderedDict
    od = OrderedDict()
    for k in "banana apple cherry".split():
        od[k] = len(k)
    print("od:", od)
    od.move_to_end("banana")
    print("after move_to_end(banana):", list(od))
    od.move_to_end("cherry", last=False)
    print("after move_to_end(cherry, last=False):", list(od))
    print("popitem():", od.popitem(), "popitem(last=False):", od.popitem(last=False))
    print("remaining:", od)
    print("order-sensitive eq:", OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1),
          "| plain dict eq:", dict(a=1, b=2) == dict(b=2, a=1))

    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    print("get a:", cache.get("a"))
    cache.put("c", 3)
    print("get b:", cache.get("b"), "| keys:", list(cache.data))

    # defaultdict
    words = "the quick brown fox jumps over the lazy dog then the fox sleeps".split()
    by_letter = defaultdict(list)
    for w in words:
        by_letter[w[0]].append(w)
    print("by first letter:", dict(sorted(by_letter.items())))
    counts = defaultdict(int)
    for w in words:
        counts[w] += 1
    print("counts (insertion order):", dict(counts))
    print("missing key default:", counts["zebra"], "| now present:", "zebra" in counts)
    lengths = defaultdict(set)
    for w in words:
        lengths[len(w)].add(w)
    print("lengths:", {k: sorted(v) for k, v in sorted(lengths.items())})
    tree = lambda: defaultdict(tree)
    config = tree()
    config["model"]["encoder"]["layers"] = 6
    config["model"]["decoder"]["layers"] = 2
    print("nested:", {k: {k2: dict(v2) for k2, v2 in v.items()} for k, v in config.items()})
    print("default_factory:", counts.default_factory.__name__, by_letter.default_factory.__name__)

    # Counter
    c = Counter(words)
    print("most_common(3):", c.most_common(3))
    print("c['the']:", c["the"], "c['missing']:", c["missing"])
    letters = Counter("mississippi")
    print("letters:", letters)
    print("elements:", "".join(sorted(letters.elements())))
    a = Counter(cat=3, dog=1, bird=2)
    b = Counter(cat=1, dog=4, fish=1)
    print("a + b:", a + b)
    print("a - b:", a - b)
    print("a & b:", a & b)
    print("a | b:", a | b)
    a.update(["cat", "cat", "fish"])
    print("after update:", a)
    a.subtract({"cat": 10})
    print("after subtract:", a, "| total:", a.total())
    print("unary +:", +a)
    labels = [0, 1, 1, 2, 1, 0, 2, 2, 2]
    dist = Counter(labels)
    print("class balance:", {k: f"{v / len(labels):.2f}" for k, v in sorted(dist.items())})

    # namedtuple
    s = Sample(17, "cat", 0.93)
    print(s, "| fields:", Sample._fields)
    print("index/attr:", s[1], s.label, "| unpack:", *s)
    s2 = s._replace(score=0.5)
    print("replace:", s2, "| original unchanged:", s.score)
    print("asdict:", s._asdict())
    print("make:", Sample._make([3, "dog", 0.1]))
    print("defaults:", Batch([1, 2], [0, 1]), Batch._field_defaults)
    samples = [Sample(1, "dog", 0.4), Sample(2, "cat", 0.9), Sample(3, "cat", 0.7)]
    print("sorted by score:", [x.image_id for x in sorted(samples, key=lambda x: x.score)])
    print("tuple eq:", Sample(1, "dog", 0.4) == (1, "dog", 0.4), "| isinstance tuple:", isinstance(s, tuple))
    try:
        s.score = 1.0
    except AttributeError as e:
        print("immutable:", e)

    # deque
    d = deque([1, 2, 3])
    d.append(4)
    d.appendleft(0)
    print("deque:", d)
    d.rotate(2)
    print("rotate(2):", d)
    d.rotate(-3)
    print("rotate(-3):", d)
    print("pop/popleft:", d.pop(), d.popleft(), d)
    d.extend([7, 8])
    d.extendleft([-1, -2])
    print("extend/extendleft:", d)
    last3 = deque(maxlen=3)
    for i in range(6):
        last3.append(i)
    print("maxlen 3:", last3, "maxlen:", last3.maxlen)
    last3.appendleft(99)
    print("appendleft on full:", last3)
    print("moving average:", moving_average([1, 2, 3, 4, 5, 6, 7], 3))
    print("d[0], d[-1], len:", d[0], d[-1], len(d), "| count(7):", d.count(7))

    # ChainMap
    defaults = {"lr": 0.1, "epochs": 10, "device": "cpu"}
    user = {"lr": 0.01}
    cli = {"epochs": 3}
    cm = ChainMap(cli, user, defaults)
    print("chainmap:", cm["lr"], cm["epochs"], cm["device"], "| merged:", dict(sorted(cm.items())))
    child = cm.new_child({"device": "cuda"})
    print("child device:", child["device"], "| parent device:", cm["device"])


if __name__ == "__main__":
    main()
