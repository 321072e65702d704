"""re, as the lab has it: `compile`, `search`, `match`, `fullmatch`, `findall`, `finditer`,
`sub`, `subn`, `split`, `escape`, `Pattern` and `Match` with CPython's results and reprs, over
a backtracking engine (`cells/src/stdlib/re.rs`), lookaround and backreferences included."""

import _lab

NOFLAG = 0
IGNORECASE = I = 2
LOCALE = L = 4
MULTILINE = M = 8
DOTALL = S = 16
UNICODE = U = 32
VERBOSE = X = 64
ASCII = A = 256


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        super().__init__(msg)
        self.msg = msg
        self.pattern = pattern
        self.pos = pos


class Match:
    def __init__(self, pattern, string, pos, endpos, spans):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans

    def _index(self, group):
        if isinstance(group, str):
            if group not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[group]
        if not isinstance(group, int) or not 0 <= group < len(self._spans):
            raise IndexError("no such group")
        return group

    def _text(self, group, default=None):
        span = self._spans[self._index(group)]
        if span is None:
            return default
        return self.string[span[0]:span[1]]

    def group(self, *groups):
        if not groups:
            return self._text(0)
        if len(groups) == 1:
            return self._text(groups[0])
        return tuple(self._text(g) for g in groups)

    def __getitem__(self, group):
        return self._text(group)

    def groups(self, default=None):
        return tuple(self._text(i, default) for i in range(1, len(self._spans)))

    def groupdict(self, default=None):
        return {name: self._text(i, default) for name, i in self.re.groupindex.items()}

    def span(self, group=0):
        span = self._spans[self._index(group)]
        return (-1, -1) if span is None else span

    def start(self, group=0):
        return self.span(group)[0]

    def end(self, group=0):
        return self.span(group)[1]

    @property
    def lastindex(self):
        best = None
        best_end = -1
        for i in range(1, len(self._spans)):
            span = self._spans[i]
            if span is not None and span[1] >= best_end:
                best, best_end = i, span[1]
        return best

    @property
    def lastgroup(self):
        last = self.lastindex
        for name, i in self.re.groupindex.items():
            if i == last:
                return name
        return None

    def expand(self, template):
        return _expand(self.re, template)(self)

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<re.Match object; span={self.span()!r}, match={self.group()!r}>"


class Pattern:
    def __init__(self, pattern, flags):
        if not isinstance(pattern, str):
            raise TypeError("first argument must be string or compiled pattern")
        try:
            self._compiled, self.groups, self.groupindex = _lab.re_compile(pattern, flags)
        except ValueError as e:
            raise error(str(e), pattern) from None
        self.pattern = pattern
        self.flags = flags | UNICODE

    def _search(self, string, pos, endpos, mode):
        if not isinstance(string, str):
            raise TypeError(f"expected string or bytes-like object, got '{type(string).__name__}'")
        n = len(string)
        pos = max(0, min(pos + n if pos < 0 else pos, n))
        endpos = n if endpos is None else max(0, min(endpos + n if endpos < 0 else endpos, n))
        spans = _lab.re_search(self._compiled, string, pos, endpos, mode)
        if spans is None:
            return None
        return Match(self, string, pos, endpos, spans)

    def search(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 2)

    def finditer(self, string, pos=0, endpos=None):
        end = len(string) if endpos is None else endpos
        must_advance = False
        while pos <= end:
            m = self._search(string, pos, endpos, 0)
            if m is None:
                return
            if must_advance and m.end() == m.start() == pos:
                # An empty match where the last one ended: look again one character on.
                pos += 1
                must_advance = False
                continue
            yield m
            must_advance = m.end() == m.start()
            pos = m.end()

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m.group(1) or "")
            else:
                out.append(m.groups(""))
        return out

    def subn(self, repl, string, count=0):
        if callable(repl):
            make = repl
        else:
            make = _expand(self, repl)
        parts = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if count and n >= count:
                break
            parts.append(string[last:m.start()])
            parts.append(make(m))
            last = m.end()
            n += 1
        parts.append(string[last:])
        return "".join(parts), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if maxsplit and n >= maxsplit:
                break
            out.append(string[last:m.start()])
            out.extend(m.groups())
            last = m.end()
            n += 1
        out.append(string[last:])
        return out

    def __eq__(self, other):
        return isinstance(other, Pattern) and (self.pattern, self.flags) == (other.pattern, other.flags)

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def __repr__(self):
        shown = [repr(self.pattern)]
        names = [(IGNORECASE, "re.IGNORECASE"), (MULTILINE, "re.MULTILINE"), (DOTALL, "re.DOTALL"),
                 (VERBOSE, "re.VERBOSE")]
        flags = "|".join(name for bit, name in names if self.flags & bit)
        if flags:
            shown.append(flags)
        return f"re.compile({', '.join(shown)})"


def _expand(pattern, template):
    """A replacement template (`\\1`, `\\g<name>`, `\\n`, …) as a function of a match."""
    pieces = []
    literal = []
    i = 0
    escapes = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b",
               "\\": "\\"}
    while i < len(template):
        c = template[i]
        if c != "\\":
            literal.append(c)
            i += 1
            continue
        if i + 1 >= len(template):
            raise error("bad escape (end of pattern)", template, i)
        nxt = template[i + 1]
        if nxt == "g":
            close = template.find(">", i + 3)
            if template[i + 2:i + 3] != "<" or close < 0:
                raise error("missing <", template, i)
            name = template[i + 3:close]
            group = int(name) if name.isdigit() else name
            if isinstance(group, str) and group not in pattern.groupindex:
                raise IndexError(f"unknown group name '{group}'")
            pieces.append("".join(literal))
            literal = []
            pieces.append((group,))
            i = close + 1
        elif nxt.isdigit():
            j = i + 1
            while j < len(template) and j < i + 3 and template[j].isdigit():
                j += 1
            group = int(template[i + 1:j])
            if group > pattern.groups:
                raise error(f"invalid group reference {group}", template, i + 1)
            pieces.append("".join(literal))
            literal = []
            pieces.append((group,))
            i = j
        elif nxt in escapes:
            literal.append(escapes[nxt])
            i += 2
        elif nxt.isalpha():
            raise error(f"bad escape \\{nxt}", template, i)
        else:
            literal.append("\\" + nxt)
            i += 2
    pieces.append("".join(literal))

    def make(m):
        return "".join(p if isinstance(p, str) else (m.group(p[0]) or "") for p in pieces)
    return make


_cache = {}


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    key = (type(pattern), pattern, flags)
    if key not in _cache:
        _cache[key] = Pattern(pattern, flags)
    return _cache[key]


def purge():
    _cache.clear()


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_special = set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")


def escape(pattern):
    return "".join("\\" + c if c in _special else c for c in pattern)
