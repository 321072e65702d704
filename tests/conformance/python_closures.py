# Closures, nonlocal, default arguments bound at definition, and lambdas over loop variables.
def make_counter(start=0):
    count = start
    def bump(by=1):
        nonlocal count
        count += by
        return count
    return bump

c = make_counter(10)
c()
c(5)
print(c())
adders = [lambda x, k=k: x + k for k in range(3)]
print([f(10) for f in adders])
late = [lambda x: x + k for k in range(3)]
print([f(10) for f in late])

def outer():
    name = "outer"
    def inner():
        return name.upper()
    return inner()

print(outer())
total = 0
def add(n):
    global total
    total += n
add(4); add(5)
print(total)
