# == on containers: identity first (a list holding itself), dicts by keys, and a RecursionError
# for nesting too deep to compare.
a = [1]
a.append(a)
print(a == a, a != a, [a] == [a])
print({"x": 1, "y": [2]} == {"y": [2], "x": 1}, {} == {}, {"x": 1} == {"x": 2})
b = []
c = []
for i in range(1000):
    b = [b]
    c = [c]
try:
    print(b == c)
except RecursionError as e:
    print("RecursionError:", e)
