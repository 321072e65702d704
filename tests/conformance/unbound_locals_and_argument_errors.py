# A name a function assigns is local throughout it: read before it is bound, it is
# UnboundLocalError, not the global of that name; and CPython's argument errors for keyword-only
# and positional-only parameters.
total = 5
def f():
    total = total + 1
    return total
try:
    f()
except UnboundLocalError as e:
    print(type(e).__name__, e, isinstance(e, NameError))
def g():
    global total
    total = total + 1
    return total
print(g())
def h():
    x = 1
    del x
    return x
try:
    h()
except NameError as e:
    print(e)
def kw_only(a, *, scale, shift=0):
    return a * scale + shift


def pos_only(x, y, /, z=0):
    return x + y + z


for call in [lambda: kw_only(1), lambda: kw_only(1, 2), lambda: pos_only(x=1, y=2),
             lambda: pos_only(1, 2, z=3, w=4), lambda: kw_only(1, scale=2, a=3)]:
    try:
        print(call())
    except TypeError as e:
        print("TypeError:", e)
print(kw_only(2, scale=3), pos_only(1, 2, z=3))
