# The methods of str with their arguments, as tutorials' text processing uses them.
s = "  Hello, World!  "
print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()), repr("xxhixx".strip("x")), repr("abcba".rstrip("ab")))
print("a,b,,c".split(","), "a b  c ".split(), "a,b,c".split(",", 1), "a b c".split(None, 1), "a,b,c".rsplit(",", 1))
print("  a  b  c  ".split(maxsplit=1), "  a  b  c  ".rsplit(maxsplit=1), "".split(), "".split(","))
print("l1\nl2\r\nl3".splitlines(), "l1\nl2\n".splitlines(True))
print("aaa".replace("a", "b", 2), "hello".find("l"), "hello".rfind("l"), "hello".find("z"), "hello".find("l", 3))
print("hello".index("e"), "hello".count("l"), "hello".count(""), "hello world".count("o", 5))
print("img.png".endswith((".jpg", ".png")), "img.png".startswith("img", 0, 2), "abc".startswith("bc", 1))
print("key=value=x".partition("="), "key=value=x".rpartition("="), "none".partition("="))
print("Test_case".removeprefix("Test_"), "model.pt".removesuffix(".pt"), "42".zfill(5), "-42".zfill(5))
print("[" + "ab".center(7, "*") + "]", "[" + "ab".center(6) + "]", "[" + "abc".ljust(6, ".") + "]", "[" + "7".rjust(3, "0") + "]")
print("123".isdigit(), "12a".isdigit(), "abc".isalpha(), "ab1".isalnum(), " \t".isspace(), "".isspace())
print("ABC".isupper(), "AbC".isupper(), "abc1".islower(), "Hello World".istitle(), "var_1".isidentifier(), "1var".isidentifier())
print("hello wORLD".capitalize(), "they're bill's".title(), "hello-world 2x".title(), "MiXeD".swapcase(), "ẞ".casefold() == "ẞ".lower())
print("a\tb\tc".expandtabs(4), "{name} has {n} items".format_map({"name": "box", "n": 3}))
print("{:>8}|{:<6}|{:^7}|{!r}".format("right", "left", "mid", "r"), "{0}{1}{0}".format("a", "b"))
try:
    "abc".index("z")
except ValueError as e:
    print("ValueError:", e)
try:
    "a b".split("")
except ValueError as e:
    print("ValueError:", e)
try:
    "x".startswith(1)
except TypeError as e:
    print("TypeError:", e)
