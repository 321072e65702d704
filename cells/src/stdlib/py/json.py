"""json, as the lab has it: dumps and loads (and dump/load on open files) with Python's output
and its JSONDecodeError messages."""


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
        super().__init__(f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _string(s, ensure_ascii):
    out = ['"']
    for c in s:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif ord(c) < 0x20 or (ensure_ascii and ord(c) > 0x7E):
            n = ord(c)
            if n > 0xFFFF:
                n -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 | (n >> 10), 0xDC00 | (n & 0x3FF)))
            else:
                out.append("\\u%04x" % n)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _float(x, allow_nan):
    if x != x:
        text = "NaN"
    elif x == float("inf"):
        text = "Infinity"
    elif x == -float("inf"):
        text = "-Infinity"
    else:
        return repr(x)
    if not allow_nan:
        raise ValueError("Out of range float values are not JSON compliant")
    return text


def _key(k, opts):
    if isinstance(k, str):
        return k
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, int):
        return str(k)
    if isinstance(k, float):
        return _float(k, opts["allow_nan"])
    if opts["skipkeys"]:
        return None
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def _encode(obj, opts, level, out):
    if obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, str):
        out.append(_string(obj, opts["ensure_ascii"]))
    elif isinstance(obj, int):
        out.append(str(int(obj)))
    elif isinstance(obj, float):
        out.append(_float(obj, opts["allow_nan"]))
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out.append("[]")
            return
        indent = opts["indent"]
        item_sep = opts["item_sep"]
        out.append("[")
        if indent is not None:
            inner = "\n" + indent * (level + 1)
            out.append(inner)
            item_sep = item_sep + inner
        for i, item in enumerate(obj):
            if i:
                out.append(item_sep)
            _encode(item, opts, level + 1, out)
        if indent is not None:
            out.append("\n" + indent * level)
        out.append("]")
    elif isinstance(obj, dict):
        if not obj:
            out.append("{}")
            return
        indent = opts["indent"]
        item_sep = opts["item_sep"]
        out.append("{")
        if indent is not None:
            inner = "\n" + indent * (level + 1)
            out.append(inner)
            item_sep = item_sep + inner
        items = list(obj.items())
        if opts["sort_keys"]:
            items = sorted(items, key=lambda kv: kv[0])
        first = True
        for k, v in items:
            key = _key(k, opts)
            if key is None:
                continue
            if not first:
                out.append(item_sep)
            first = False
            out.append(_string(key, opts["ensure_ascii"]))
            out.append(opts["key_sep"])
            _encode(v, opts, level + 1, out)
        if indent is not None:
            out.append("\n" + indent * level)
        out.append("}")
    elif opts["default"] is not None:
        _encode(opts["default"](obj), opts, level, out)
    else:
        raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
          cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw):
    if isinstance(indent, int):
        indent = " " * indent
    if separators is None:
        separators = (", ", ": ") if indent is None else (",", ": ")
    opts = {
        "skipkeys": skipkeys,
        "ensure_ascii": ensure_ascii,
        "allow_nan": allow_nan,
        "indent": indent,
        "item_sep": separators[0],
        "key_sep": separators[1],
        "default": default,
        "sort_keys": sort_keys,
    }
    out = []
    _encode(obj, opts, 0, out)
    return "".join(out)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


_WHITESPACE = " \t\n\r"
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": -float("inf")}


class _Decoder:
    def __init__(self, doc, object_hook, parse_float, parse_int):
        self.doc = doc
        self.object_hook = object_hook
        self.parse_float = parse_float
        self.parse_int = parse_int

    def skip(self, i):
        doc = self.doc
        while i < len(doc) and doc[i] in _WHITESPACE:
            i += 1
        return i

    def value(self, i):
        doc = self.doc
        if i >= len(doc):
            raise JSONDecodeError("Expecting value", doc, i)
        c = doc[i]
        if c == '"':
            return self.string(i + 1)
        if c == "{":
            return self.object(i + 1)
        if c == "[":
            return self.array(i + 1)
        for word, value in (("null", None), ("true", True), ("false", False)):
            if doc.startswith(word, i):
                return value, i + len(word)
        for word, value in _CONSTANTS.items():
            if doc.startswith(word, i):
                return value, i + len(word)
        return self.number(i)

    def number(self, i):
        doc = self.doc
        j = i
        if j < len(doc) and doc[j] == "-":
            j += 1
        if j < len(doc) and doc[j] == "0":
            j += 1
        elif j < len(doc) and doc[j] in "123456789":
            while j < len(doc) and doc[j].isdigit():
                j += 1
        else:
            raise JSONDecodeError("Expecting value", doc, i)
        is_float = False
        if j + 1 < len(doc) and doc[j] == "." and doc[j + 1].isdigit():
            is_float = True
            j += 1
            while j < len(doc) and doc[j].isdigit():
                j += 1
        if j < len(doc) and doc[j] in "eE":
            k = j + 1
            if k < len(doc) and doc[k] in "+-":
                k += 1
            if k < len(doc) and doc[k].isdigit():
                is_float = True
                j = k
                while j < len(doc) and doc[j].isdigit():
                    j += 1
        text = doc[i:j]
        return (self.parse_float(text) if is_float else self.parse_int(text)), j

    def string(self, i):
        doc = self.doc
        start = i - 1
        chunks = []
        while True:
            if i >= len(doc):
                raise JSONDecodeError("Unterminated string starting at", doc, start)
            c = doc[i]
            if c == '"':
                return "".join(chunks), i + 1
            if c == "\\":
                i += 1
                if i >= len(doc):
                    raise JSONDecodeError("Unterminated string starting at", doc, start)
                e = doc[i]
                simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                if e in simple:
                    chunks.append(simple[e])
                    i += 1
                elif e == "u":
                    code = self.hex4(i + 1)
                    i += 5
                    if 0xD800 <= code <= 0xDBFF and doc.startswith("\\u", i):
                        low = self.hex4(i + 2)
                        if 0xDC00 <= low <= 0xDFFF:
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                    chunks.append(chr(code))
                else:
                    raise JSONDecodeError("Invalid \\escape", doc, i - 1)
            elif ord(c) < 0x20:
                raise JSONDecodeError("Invalid control character at", doc, i)
            else:
                chunks.append(c)
                i += 1

    def hex4(self, i):
        digits = self.doc[i:i + 4]
        if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise JSONDecodeError("Invalid \\uXXXX escape", self.doc, i - 1)
        return int(digits, 16)

    def object(self, i):
        doc = self.doc
        result = {}
        i = self.skip(i)
        if i < len(doc) and doc[i] == "}":
            return self.hooked(result), i + 1
        while True:
            if i >= len(doc) or doc[i] != '"':
                raise JSONDecodeError("Expecting property name enclosed in double quotes", doc, i)
            key, i = self.string(i + 1)
            i = self.skip(i)
            if i >= len(doc) or doc[i] != ":":
                raise JSONDecodeError("Expecting ':' delimiter", doc, i)
            i = self.skip(i + 1)
            value, i = self.value(i)
            result[key] = value
            i = self.skip(i)
            if i < len(doc) and doc[i] == "}":
                return self.hooked(result), i + 1
            if i >= len(doc) or doc[i] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", doc, i)
            i = self.skip(i + 1)

    def hooked(self, result):
        return result if self.object_hook is None else self.object_hook(result)

    def array(self, i):
        doc = self.doc
        result = []
        i = self.skip(i)
        if i < len(doc) and doc[i] == "]":
            return result, i + 1
        while True:
            value, i = self.value(i)
            result.append(value)
            i = self.skip(i)
            if i < len(doc) and doc[i] == "]":
                return result, i + 1
            if i >= len(doc) or doc[i] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", doc, i)
            i = self.skip(i + 1)


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, **kw):
    if not isinstance(s, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not {type(s).__name__}")
    decoder = _Decoder(s, object_hook, parse_float or float, parse_int or int)
    i = decoder.skip(0)
    value, end = decoder.value(i)
    end = decoder.skip(end)
    if end != len(s):
        raise JSONDecodeError("Extra data", s, end)
    return value


def load(fp, **kw):
    return loads(fp.read(), **kw)
