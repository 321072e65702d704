"""fnmatch, as CPython has it: shell-style patterns (`*`, `?`, `[seq]`, `[!seq]`) matched by a
translation to a regular expression."""

import re

_cache = {}


def translate(pat):
    out = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        i += 1
        if c == "*":
            # Runs of stars are one star.
            if not out or out[-1] != ".*":
                out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            j = i
            if j < n and pat[j] == "!":
                j += 1
            if j < n and pat[j] == "]":
                j += 1
            while j < n and pat[j] != "]":
                j += 1
            if j >= n:
                out.append("\\[")
            else:
                stuff = pat[i:j].replace("\\", "\\\\")
                i = j + 1
                if stuff.startswith("!"):
                    stuff = "^" + stuff[1:]
                elif stuff.startswith("^"):
                    stuff = "\\" + stuff
                out.append(f"[{stuff}]")
        else:
            out.append(re.escape(c))
    return "(?s:" + "".join(out) + ")\\Z"


def _compiled(pat):
    if pat not in _cache:
        _cache[pat] = re.compile(translate(pat))
    return _cache[pat]


def fnmatchcase(name, pat):
    return _compiled(pat).match(name) is not None


def fnmatch(name, pat):
    return fnmatchcase(name, pat)


def filter(names, pat):
    match = _compiled(pat).match
    return [name for name in names if match(name)]
