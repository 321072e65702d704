# Theme: strings and formatting - f-string format specs (alignment, width,
# precision, thousands separators, percent, exponent, alternate form, sign,
# '=' specifier and !r/!s conversions), str methods, %-formatting,
# str.format with positional/named/indexed fields, textwrap, string module
# constants and string.Template.
import string
import textwrap


def format_table(rows, headers):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = " | ".join(f"{h:^{w}}" for h, w in zip(headers, widths))
    print(line.rstrip())
    print("-+-".join("-" * w for w in widths))
    for row in rows:
        cells = []
        for value, w in zip(row, widths):
            if isinstance(value, (int, float)):
                cells.append(f"{value:>{w}}")
            else:
                cells.append(f"{value:<{w}}")
        print(" | ".join(cells))


def main():
    x = 1234567.891
    n = 255
    ratio = 0.8731
    name = "resnet"
    print(f"[{name:>10}] [{name:<10}] [{name:^10}] [{name:*^10}]")
    print(f"{x:.3f} | {x:,.2f} | {x:_.1f} | {x:e} | {x:.2E} | {x:g} | {12345678901.0:g}")
    print(f"{n:d} | {n:,d} | {1234567:,d} | {n:#x} | {n:#o} | {n:#b} | {n:X} | {n:08b}")
    print(f"{ratio:%} | {ratio:.1%} | {ratio:>8.2%}")
    print(f"{42:+d} | {-42:+d} | {42: d} | {-3.5:=+8.2f} | {7:05d} | {-7:05d}")
    print(f"{3.14159:10.4f}| {3.14159:<10.2f}| {'abc':.2}")
    loss, epoch, lr = 0.123456, 7, 3e-4
    print(f"{loss=}, {epoch=}, {lr=}")
    print(f"{loss=:.3f} {epoch = } {name=!s} {name=!r}")
    print(f"{name!r} {name!s} {'quote'!a} {'café'!a}")
    width, prec = 12, 3
    print(f"nested spec: [{x:{width}.{prec}f}]")
    print(f"expression: {epoch * 2 + 1} {[i ** 2 for i in range(4)]} {'yes' if loss < 1 else 'no'}")
    print(f"braces: {{literal}} {{{epoch}}}")
    print(f"dict access: {dict(a=1)['a']}  method: {name.upper()}")
    print("format() builtin:", format(0.5, ".0%"), format(1e-5, ".1e"), format(10, "b"))

    s = "  The Quick brown FOX jumps over the lazy dog.  "
    t = s.strip()
    print(repr(s.lstrip()), repr(s.rstrip()), repr("xxhixx".strip("x")))
    print(t.lower(), "|", t.upper(), "|", t.title(), "|", t.swapcase())
    print(t.capitalize(), "|", "Straße".casefold(), "Straße".lower())
    print("split:", t.split(), "| maxsplit:", t.split(" ", 2))
    path = "models/checkpoints/epoch_10.pt"
    print("rsplit:", path.rsplit("/", 1), "| split on /:", path.split("/"))
    print("partition:", path.partition("/"), "| rpartition:", path.rpartition("."))
    print("missing partition:", "noseparator".partition(":"))
    print("center/ljust/rjust:", "[" + "mid".center(9, ".") + "]", "[" + "l".ljust(4) + "]", "[" + "r".rjust(4, "0") + "]")
    print("zfill:", "42".zfill(5), "-42".zfill(5), "3.5".zfill(6))
    print("find:", t.find("o"), t.rfind("o"), t.find("zzz"), "| index:", t.index("brown"))
    print("count:", t.lower().count("the"), t.count("o"), "aaaa".count("aa"))
    print("startswith tuple:", path.startswith(("data/", "models/")), path.endswith((".pt", ".pth")))
    print("replace:", t.replace("o", "0", 2))
    table = str.maketrans({"a": "4", "e": "3", "o": "0"})
    print("translate:", "hello adam".translate(table))
    strip_punct = str.maketrans("", "", string.punctuation)
    print("remove punctuation:", "Hello, world! (v2.0)".translate(strip_punct))
    print("is*:", "abc".isalpha(), "123".isdigit(), "abc123".isalnum(), "   ".isspace(),
          "Title Case".istitle(), "UP".isupper(), "x1".isidentifier(), "1x".isidentifier())
    print("join:", ", ".join(["a", "b", "c"]), "|", "".join(reversed("stressed")))
    print("splitlines:", "line1\nline2\r\nline3".splitlines())
    print("removeprefix/suffix:", "test_model.py".removeprefix("test_").removesuffix(".py"))
    print("expandtabs:", repr("a\tb".expandtabs(4)), "| slicing:", t[:3], t[-4:], t[::5])
    print("ord/chr:", ord("A"), chr(97), [ord(c) - ord("a") for c in "hey"])
    print("comparison:", "apple" < "banana", "Zebra" < "apple", sorted(["b", "A", "a", "B"]),
          sorted(["b", "A", "a", "B"], key=str.lower))
    print("multiply/in:", "ab" * 3, "ell" in "hello", "-" * 20)

    print("%%: %s has %d params (%.2f%%) lr=%e" % ("model", 1200, 12.3456, 0.001))
    print("%%-10s|%%5d|%%-5d|%%05.1f: [%-10s|%5d|%-5d|%05.1f]" % ("left", 42, 42, 3.14159))
    print("%(name)s is %(age)d years" % {"name": "Ada", "age": 36}, "| %r %x %o" % ("q", 255, 8))
    print("format:", "{} + {} = {}".format(1, 2, 3), "{1} {0} {1}".format("a", "b"))
    print("format named:", "{model} @ {acc:.1%}".format(model="vit", acc=0.912))
    point = {"x": 3, "y": 4}
    coords = [10, 20]
    print("format index/attr:", "{0[x]},{0[y]} {1[1]} {2.real}".format(point, coords, 5 + 2j))
    print("format spec:", "{:>8}|{:<8}|{:^8}|{:08.3f}".format("r", "l", "c", 3.14159))
    print("format_map:", "{a}-{b}".format_map({"a": 1, "b": 2}))

    print("ascii_letters:", string.ascii_letters)
    print("digits:", string.digits, "| hexdigits:", string.hexdigits, "| octdigits:", string.octdigits)
    print("punctuation:", string.punctuation)
    print("lower/upper:", string.ascii_lowercase[:5], string.ascii_uppercase[-5:])
    tmpl = string.Template("Epoch $epoch: loss=${loss}, model=$model")
    print(tmpl.substitute(epoch=3, loss=0.25, model="mlp"))
    print(tmpl.safe_substitute(epoch=4))
    try:
        tmpl.substitute(epoch=5)
    except KeyError as e:
        print("Template missing key:", e)
    print("capwords:", string.capwords("hello   world of python"))

    doc = ("Transformers use self-attention to weigh the importance of each token "
           "in a sequence relative to every other token, enabling parallel training.")
    print(textwrap.fill(doc, width=40))
    print(textwrap.shorten(doc, width=50, placeholder=" [...]"))
    print(textwrap.indent("a\nb", "> "))
    print(textwrap.dedent("""\
        indented
          more
        back"""))

    format_table([("mlp", 12000, 0.912), ("cnn", 450123, 0.9871), ("vit", 86000000, 0.99)],
                 ["model", "params", "acc"])


if __name__ == "__main__":
    main()
