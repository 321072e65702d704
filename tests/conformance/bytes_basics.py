# bytes as programs meet them: literals and their reprs, encode/decode with CPython's errors,
# indexing (ints), slicing, iteration, in, +, *, comparison, hashing and the common methods.
import copy

data = b"weights"
print(data, repr(b"it's"), b'say "hi"', b"\x00\xff\n\t\\", type(data).__name__, len(data), bool(b""))
print(data[0], data[-1], data[1:4], data[::-1], list(b"abc"), b"eig" in data, 104 in data, b"x" + data[:2] * 2)
print(data == b"weights", data < b"x", sorted([b"b", b"a"]), hash(b"abc") == hash("abc"), {b"k": 1}[b"k"])
text = "héllo wörld"
raw = text.encode()
print(raw, len(raw), raw.decode(), raw.decode("utf-8") == text, "abc".encode("ascii"), "é".encode("latin-1"))
print(bytes(3), bytes([104, 105]), bytes("hi", "utf-8"), bytes(b"x"), bytes(), bytes.fromhex("de ad be ef"), b"\xde\xad".hex())
print(b"a,b,,c".split(b","), b"  pad \n".strip(), b"x".join([b"1", b"2"]), b"aaa".replace(b"a", b"bb"), b"Hi".upper(), b"Hi".lower())
print(b"model.pt".endswith(b".pt"), b"model".startswith(b"mo"), b"abcabc".find(b"c"), b"abcabc".count(b"bc"), b"1 2  3".split(), b"42".isdigit())
print(isinstance(data, bytes), isinstance("s", bytes), str(data), f"{data}", f"{data!r}", copy.deepcopy(data) == data)
for bad in [lambda: b"\xff".decode(), lambda: "é".encode("ascii"), lambda: bytes([256]), lambda: b"a" + "b",
            lambda: bytes("x"), lambda: "x".encode("klingon"), lambda: b"ab"[5], lambda: b"a".join(["b"])]:
    try:
        bad()
    except (ValueError, TypeError, IndexError, LookupError) as e:
        print(type(e).__name__, e)
