# Strings: methods, slicing, joining, formatting, and their reprs.
s = "  Hello, Lab  "
print(s.strip(), s.lower(), s.upper().strip(), s.strip().split(", "))
print("-".join(["a", "b", "c"]), "x,y,,z".split(","), "a b  c".split())
print("tensor".replace("t", "T"), "cuda:0".startswith("cuda"), "model.pt".endswith(".pt"))
print("abc"[::-1], "abcdef"[1:4], len("héllo"), "lab" * 3)
print(repr("quote's"), repr('say "hi"'), str(3.0), str(None))
print("{0}-{1}-{0}".format("a", "b"), "{name}!".format(name="hi"), "%d" if False else "ok")
print(f"{'left':<8}|{'right':>8}|{'mid':^9}|")
print("cuda" in "cuda:1", "title case words".title(), "x".center(5, ) + "|")
