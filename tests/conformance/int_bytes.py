# int.to_bytes / int.from_bytes: byte orders, signs, and the errors of what does not fit.
print((1024).to_bytes(2, "big"), (1024).to_bytes(2, "little"), (1024).to_bytes(4, byteorder="big"))
print((255).to_bytes(), (0).to_bytes(3, "big"), (-1).to_bytes(2, "big", signed=True),
      (-129).to_bytes(2, "little", signed=True), (127).to_bytes(1, "big", signed=True))
print((2**64 + 5).to_bytes(9, "big"), (2**70).to_bytes(10, "little"))
print(int.from_bytes(b"\x01\x00", "little"), int.from_bytes(b"\x01\x00", "big"),
      int.from_bytes(b"\xff\xff", "big", signed=True), int.from_bytes(b"\xff\xff", "big"),
      int.from_bytes([1, 2, 3], "big"), int.from_bytes(b"", "big"), int.from_bytes(b"\x80"))
print(int.from_bytes((2**100).to_bytes(13, "big"), "big") == 2**100)
for bad in ["(256).to_bytes(1, 'big')", "(-1).to_bytes(1, 'big')", "(128).to_bytes(1, 'big', signed=True)",
            "(1).to_bytes(1, 'middle')", "(1).to_bytes(-1, 'big')", "int.from_bytes('ab', 'big')",
            "(-129).to_bytes(1, 'big', signed=True)"]:
    try:
        print(eval(bad))
    except Exception as e:
        print(f"{bad}: {type(e).__name__}: {e}")
