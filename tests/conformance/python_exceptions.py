# try/except/else/finally, re-raising, and exceptions as values.
def risky(n):
    if n == 0:
        raise ValueError("zero is not allowed")
    return 10 // n

for n in [2, 0]:
    try:
        r = risky(n)
    except ValueError as e:
        print("caught:", e, type(e).__name__)
    else:
        print("ok", r)
    finally:
        print("finally", n)
try:
    try:
        [][1]
    except IndexError:
        print("inner")
        raise
except LookupError as e:
    print("outer:", e)
try:
    {}["missing"]
except KeyError as e:
    print(repr(e))
e = RuntimeError("stored")
print(e, repr(e), isinstance(e, Exception))
risky(0)
