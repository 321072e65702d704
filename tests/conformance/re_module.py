# re as CPython has it: search, match, fullmatch, findall, finditer, sub with templates and functions, split, flags, Match objects.
import re
text = "Epoch 1: loss=0.532, acc=81.2%\nEpoch 2: loss=0.411, acc=85.0%\nEpoch 10: loss=0.198, acc=93.7%"
print(re.findall(r"loss=([\d.]+)", text), re.findall(r"Epoch (\d+): loss=([\d.]+)", text))
m = re.search(r"acc=(?P<acc>[\d.]+)%", text)
print(m, m.group(), m.group(1), m["acc"], m.groupdict(), m.span(), m.start("acc"), m.end(1), m.groups())
print(re.match(r"Epoch", text), re.match(r"loss", text), re.fullmatch(r"\w+", "abc_1"), re.fullmatch(r"a|ab", "ab"))
print(re.sub(r"\d+", "#", "a1b22c333"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home you@work"), re.subn("a", "b", "banana"))
print(re.sub(r"(?P<w>o+)", lambda m: m.group("w").upper(), "foo boo"), re.sub("x*", "-", "abc"), re.sub(r"\s+", " ", "a  b \n c"))
print(re.split(r"[,;]\s*", "a, b;c,   d"), re.split(r"(,)", "a,b,c"), re.split(r"\s+", " a b "), re.split("x*", "axbc"))
print([m.span() for m in re.finditer(r"\d", "a1b2c3")], re.findall(r"\b\w", "hello big world"), re.findall("", "ab"))
pat = re.compile(r"(\d+)-(\d+)", re.I)
print(pat, pat.pattern, pat.groups, pat.search("range 10-20!").groups(), pat.match("5-6x"), pat.flags)
print(re.findall(r"^\w+", "one\ntwo\nthree", re.M), re.findall(r"a.b", "a\nb", re.S), re.search("HELLO", "say hello", re.IGNORECASE).group())
print(re.escape("1.5+2*[x]"), re.compile("a") is re.compile("a"), bool(re.search("z", "abc")))
tokens = re.findall(r"[A-Za-z']+|[.,!?]", "Don't stop, it's fine!")
print(tokens, re.sub(r"[^a-z ]", "", "Hello, World!".lower()), re.findall(r"é+", "café éé"))
verbose = re.compile(r"""
    (\d{3})  # area
    [-.]?
    (\d{4})  # number
""", re.X)
print(verbose.search("call 555-1234 now").groups(), re.search(r"x{,2}y", "xxy").group(), re.match(r"(a)(b)?", "a").groups())
print(re.match(r"(a)(b)?", "a").groups("-"), re.search(r"(\w)(\w)", "ab").lastindex, re.search(r"\d\Z", "a1").group())
for bad in ["(unclosed", "a{2,1}"]:
    try:
        re.compile(bad)
    except re.error as e:
        print("re.error raised")
print(re.sub(r"(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)", r"\g<d>/\g<m>/\g<y>", "2024-01-05"))
print(re.findall(r"\w+(?=\.pt)", "a.pt b.txt c.pt"), re.findall(r"(?<!\d)\d{2}(?!\d)", "1 22 333 44"))
print(re.sub(r"(\w)\1", r"<\1\1>", "aabbcd"), re.search(r"(?P<q>['\"]).*?(?P=q)", "say 'hi' now").group())
print(re.sub(r"(?<!^)(?=[A-Z])", "_", "TrainModelWithEarlyStopping").lower())
