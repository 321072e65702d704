# str.maketrans and translate, unbound str methods as keys, ascii() and !a, a precision cutting a string.
import string
table = str.maketrans({"a": "4", "e": "3", "o": "0"})
print(sorted(table.items()), "hello adam".translate(table))
strip = str.maketrans("", "", string.punctuation)
print("Hello, world! (v2.0)".translate(strip), "abc".translate(str.maketrans("abc", "xyz", "b")))
print("abc".translate({97: None, 98: "BB", 99: 100}))
for bad in [lambda: str.maketrans("ab", "c"), lambda: str.maketrans({"ab": 1}), lambda: str.maketrans("a")]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
name='resnet'
print(f"{name!r} {name!s} {'quote'!a} {'café'!a} {'€😀'!a}", ascii('é'), ascii([1, 'ü']), f"{'abc':.2}|{'abcdef':>5.3}|")
print(sorted(["b", "A", "a", "B"], key=str.lower), list(map(str.strip, [" a ", "b "])), str.upper("x"), str.join("-", "ab"))
try:
    str.lower(5)
except TypeError as e:
    print(e)
