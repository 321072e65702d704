# conformance: stderr
import sys
import io
print("to stdout")
print("to stderr", file=sys.stderr)
sys.stdout.write("written\n")
n = sys.stdout.write("abc\n")
print(n, sys.version_info.major, sys.version_info[:2] >= (3, 8), sys.maxsize)
buf = io.StringIO()
print("a", 1, 2.5, sep="|", end="!\n", file=buf)
print("second", file=buf)
print(repr(buf.getvalue()))
buf.seek(0)
print([line for line in buf])
s = io.StringIO("x\ny\nz")
print(s.readline(), s.read())
try:
    print("x", bogus=1)
except TypeError as e:
    print("TypeError:", e)
try:
    print("x", sep=1)
except TypeError as e:
    print("TypeError:", e)
try:
    sys.stdout.write(5)
except TypeError as e:
    print("TypeError:", e)
class Collector:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
c = Collector()
print("hi", "there", file=c)
print(c.parts)
try:
    sys.exit(3)
except SystemExit as e:
    print("exit code", e.code)
print(sys.argv[0] == "" or True, type(sys.stdout).__name__ in ("TextIOWrapper", "_Stream"))
