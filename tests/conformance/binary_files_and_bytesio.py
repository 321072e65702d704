# Binary files and io.BytesIO: open in rb/wb/ab, read(n), readline, readlines, appending, and
# the binary modes' argument errors.
import io
with open("blob.bin", "wb") as f:
    print(f.write(b"\x89PNG\r\n\x1a\n"), f.write(bytes(range(5))))
with open("blob.bin", "rb") as f:
    print(f.read(4), f.read(), f.read())
with open("blob.bin", "rb") as f:
    print(f.readline(), f.readlines(), repr(f)[:24])
with open("blob.bin", "ab") as f:
    f.write(b"tail")
print(open("blob.bin", "rb").read()[-4:], open("blob.bin", "rb").read().hex()[:8])
b = io.BytesIO()
b.write(b"abc")
b.write(b"de")
print(b.getvalue(), b.tell(), b.seek(1), b.read(2))
for bad in [lambda: open("blob.bin", "rb", encoding="utf-8"), lambda: open("blob.bin", "wb").write("s"),
            lambda: open("blob.bin", "rt").read(), lambda: open("blob.bin", "rbt")]:
    try:
        bad()
    except (ValueError, TypeError, UnicodeDecodeError) as e:
        print(type(e).__name__, e)
