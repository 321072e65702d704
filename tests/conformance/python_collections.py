# Lists and dicts: methods, mutation through aliases, unpacking, sorting.
xs = [3, 1, 2]
ys = xs
ys.append(4)
print(xs, xs.pop(), xs.pop(0), xs, xs.index(2), xs.count(2))
xs.extend([9, 8])
xs.insert(1, 7)
xs.sort()
print(xs, sorted(xs, reverse=True), xs[::-1], xs.copy() is xs)
xs.remove(9)
xs.reverse()
print(xs, [1, 2] + [3], [0] * 3, len(xs))
d = {"lr": 0.1, "momentum": 0.9}
d["nesterov"] = True
d.update({"lr": 0.01})
print(d, d.get("missing", "default"), d.pop("momentum"), list(d.keys()), list(d.values()))
print(d.setdefault("dampening", 0), "lr" in d, len(d))
first, *rest = [1, 2, 3, 4]
print(first, rest)
a, (b, c) = 1, (2, 3)
print(a + b + c)
del d["lr"]
print(d)
