# Theme: json and re - json.dumps (indent, sort_keys, separators, default,
# ensure_ascii) and json.loads round trips of nested structures, JSON errors;
# re.match/search/fullmatch/findall/finditer/sub/subn/split with groups, named
# groups, compiled patterns, flags (IGNORECASE, MULTILINE, VERBOSE, DOTALL).
import json
import re
from dataclasses import dataclass, asdict


@dataclass
class Experiment:
    name: str
    lr: float
    layers: list


def encode_extra(obj):
    if isinstance(obj, set):
        return sorted(obj)
    if isinstance(obj, Experiment):
        return {"__experiment__": asdict(obj)}
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def decode_extra(d):
    if "__experiment__" in d:
        return Experiment(**d["__experiment__"])
    return d


LOG = """\
2024-01-05 10:00:01 INFO epoch=1 loss=0.9312 acc=0.612
2024-01-05 10:05:12 WARNING lr reduced to 0.0005
2024-01-05 10:10:44 INFO epoch=2 loss=0.5120 acc=0.801
2024-01-05 10:15:02 ERROR nan detected in layer conv3
2024-01-05 10:20:30 INFO epoch=3 loss=0.3301 acc=0.877
"""


def main():
    config = {
        "model": {"name": "resnet18", "layers": [2, 2, 2, 2], "pretrained": True},
        "optimizer": {"type": "adam", "lr": 0.001, "betas": [0.9, 0.999]},
        "epochs": 10,
        "notes": None,
        "tags": ["baseline", "v1"],
    }
    text = json.dumps(config)
    print("compact:", text)
    print("pretty sorted:")
    print(json.dumps(config["optimizer"], indent=2, sort_keys=True))
    print("tight separators:", json.dumps(config["model"], separators=(",", ":")))
    back = json.loads(text)
    print("round trip equal:", back == config, "| types:", type(back["model"]["layers"]).__name__,
          type(back["notes"]).__name__)
    print("tuple becomes list:", json.loads(json.dumps({"shape": (3, 224, 224)})))
    print("int keys become str:", json.dumps({1: "a", 2: "b"}))
    print("unicode:", json.dumps({"name": "café"}), json.dumps({"name": "café"}, ensure_ascii=False))
    print("special floats:", json.dumps([float("inf"), float("-inf")]), json.loads("[NaN]")[0] != json.loads("[NaN]")[0])
    print("scalars:", json.loads("3"), json.loads("2.5"), json.loads('"s"'), json.loads("true"), json.loads("null"))
    print("escaping:", json.dumps('quote " backslash \\ newline \n tab \t'))
    exp = Experiment("exp1", 0.01, [64, 64])
    blob = json.dumps({"run": exp, "seen": {3, 1, 2}}, default=encode_extra, sort_keys=True)
    print("custom default:", blob)
    print("object_hook:", json.loads(blob, object_hook=decode_extra)["run"])
    for bad in ['{"a": 1,}', "{'a': 1}", "[1, 2"]:
        try:
            json.loads(bad)
        except json.JSONDecodeError as e:
            print(f"JSONDecodeError for {bad!r}: {e.msg} at pos {e.pos}")
    try:
        json.dumps({"f": lambda: 0})
    except TypeError as e:
        print("TypeError:", e)

    # ---- re --------------------------------------------------------------
    line_re = re.compile(
        r"^(?P<date>\d{4}-\d{2}-\d{2}) (?P<time>[\d:]+) (?P<level>[A-Z]+) (?P<msg>.*)$",
        re.MULTILINE,
    )
    for m in line_re.finditer(LOG):
        print(f"  {m['time']} {m.group('level'):<7} {m.group('msg')[:30]!r} span={m.span('level')}")
    metrics = re.findall(r"epoch=(\d+) loss=([\d.]+) acc=([\d.]+)", LOG)
    print("findall groups:", metrics)
    best = max(metrics, key=lambda t: float(t[2]))
    print("best epoch:", best[0])
    print("findall no groups:", re.findall(r"\d+\.\d+", "lr 0.01 then 0.005 then 1e-4"))
    print("levels:", sorted(set(re.findall(r"\b(INFO|WARNING|ERROR)\b", LOG))))

    m = re.match(r"(\w+)-(\d+)", "resnet-50 and vgg-16")
    print("match:", m.group(0), m.group(1), m.group(2), m.groups(), m.start(), m.end())
    print("match fails mid-string:", re.match(r"vgg", "resnet-50 and vgg-16"))
    s = re.search(r"vgg-(\d+)", "resnet-50 and vgg-16")
    print("search:", s.group(), s.group(1), s.span())
    print("fullmatch:", bool(re.fullmatch(r"[a-z]+\d*", "layer12")), bool(re.fullmatch(r"[a-z]+", "layer12")))
    d = re.match(r"(?P<key>\w+)=(?P<value>[^ ]+)", "lr=0.1 momentum=0.9")
    print("groupdict:", d.groupdict(), "| optional group:", re.match(r"(a)(b)?", "a").groups())

    print("sub:", re.sub(r"\s+", " ", "too    many \t spaces\n here"))
    print("sub backref:", re.sub(r"(\w+)@(\w+)\.com", r"\2 at \1", "alice@example.com, bob@test.com"))
    print("sub named:", re.sub(r"(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)", r"\g<d>/\g<m>/\g<y>", "2024-01-05"))
    print("sub function:", re.sub(r"\d+", lambda mm: str(int(mm.group()) * 2), "3 cats and 12 dogs"))
    print("subn:", re.subn(r"o", "0", "foo boo"))
    print("split:", re.split(r"[,;\s]+", "a, b;c  d,e"))
    print("split keep sep:", re.split(r"([+-])", "1+2-3"))
    print("split maxsplit:", re.split(r"\s", "a b c d", maxsplit=2))

    print("IGNORECASE:", re.findall(r"error", "Error ERROR error", re.IGNORECASE))
    print("MULTILINE anchors:", re.findall(r"^\w+", "one two\nthree four\nfive", re.M))
    print("DOTALL:", re.search(r"a.b", "a\nb") is None, re.search(r"a.b", "a\nb", re.S).group() == "a\nb")
    float_re = re.compile(r"""
        [-+]?            # optional sign
        (?:\d+\.\d*|\.\d+|\d+)   # mantissa
        (?:[eE][-+]?\d+)?        # optional exponent
    """, re.VERBOSE)
    print("VERBOSE floats:", float_re.findall("x=-1.5e3, y=.25, z=42, w=+3."))
    print("compiled attrs:", float_re.flags & re.VERBOSE != 0, line_re.groupindex["level"], line_re.groups)
    print("non-greedy:", re.findall(r"<.+?>", "<a><b></b></a>"), "| greedy:", re.findall(r"<.+>", "<a><b>"))
    print("lookahead:", re.findall(r"\w+(?=\.pt)", "a.pt b.txt c.pt"))
    print("escape:", re.escape("model.v1+[best]"))
    tokens = re.findall(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]", "GPT-2 has 1.5B params!")
    print("tokenize:", tokens)
    camel = "trainModelWithEarlyStopping"
    print("snake_case:", re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower())


if __name__ == "__main__":
    main()
