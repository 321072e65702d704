# Function calls with keyword and default arguments, list appends, a dict count and a
# generator expression: the call-heavy kind of cell the argument binding and parser add cost to.
def bucket(value, size=10, *, offset=0):
    return (value + offset) // size


counts = {}
seen = []
for i in range(2000):
    key = bucket(i, size=7, offset=1)
    counts[key] = counts.get(key, 0) + 1
    seen.append(key)
total = sum(v for v in counts.values() if v > 3)
