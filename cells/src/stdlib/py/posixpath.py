"""os.path, as the lab has it: CPython's posixpath (the string functions exactly, the checks
on the notebook's file system)."""

import _lab

sep = "/"
curdir = "."
pardir = ".."


def _fspath(p):
    """`os.fspath`: a str, or what a path-like object's `__fspath__` gives."""
    if isinstance(p, str):
        return p
    if hasattr(p, "__fspath__"):
        out = p.__fspath__()
        if not isinstance(out, str):
            raise TypeError(
                f"expected {type(p).__name__}.__fspath__() to return str or bytes, not {type(out).__name__}")
        return out
    raise TypeError(f"expected str, bytes or os.PathLike object, not {type(p).__name__}")


def isabs(s):
    return _fspath(s).startswith("/")


def join(a, *p):
    path = _fspath(a)
    for b in map(_fspath, p):
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p):
    p = _fspath(p)
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def splitext(p):
    p = _fspath(p)
    sep_index = p.rfind("/")
    dot_index = p.rfind(".")
    if dot_index > sep_index:
        # A leading run of dots is part of the name (".bashrc" has no extension).
        i = sep_index + 1
        while i < dot_index:
            if p[i] != ".":
                return p[:dot_index], p[dot_index:]
            i += 1
    return p, ""


def basename(p):
    p = _fspath(p)
    return p[p.rfind("/") + 1:]


def dirname(p):
    return split(p)[0]


def normpath(path):
    path = _fspath(path)
    if not path:
        return "."
    initial = 1 if path.startswith("/") else 0
    if path.startswith("//") and not path.startswith("///"):
        initial = 2
    parts = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part != ".." or (not initial and not parts) or (parts and parts[-1] == ".."):
            parts.append(part)
        elif parts:
            parts.pop()
    path = "/" * initial + "/".join(parts)
    return path or "."


def abspath(path):
    path = _fspath(path)
    if not isabs(path):
        path = join(_lab.fs_cwd(), path)
    return normpath(path)


realpath = abspath


def relpath(path, start=None):
    path = _fspath(path)
    if not path:
        raise ValueError("no path specified")
    start = curdir if start is None else _fspath(start)
    start_list = [x for x in abspath(start).split("/") if x]
    path_list = [x for x in abspath(path).split("/") if x]
    common = 0
    for a, b in zip(start_list, path_list):
        if a != b:
            break
        common += 1
    rel = [pardir] * (len(start_list) - common) + path_list[common:]
    return join(*rel) if rel else curdir


def expanduser(path):
    path = _fspath(path)
    if path == "~" or path.startswith("~/"):
        return "/home/lab" + path[1:]
    return path


def commonprefix(m):
    if not m:
        return ""
    low, high = min(m), max(m)
    for i, c in enumerate(low):
        if c != high[i]:
            return low[:i]
    return low


def exists(path):
    return _lab.fs_stat(_fspath(path)) is not None


lexists = exists


def isfile(path):
    found = _lab.fs_stat(_fspath(path))
    return found is not None and not found[0]


def isdir(path):
    found = _lab.fs_stat(_fspath(path))
    return found is not None and found[0]


def getsize(path):
    path = _fspath(path)
    found = _lab.fs_stat(path)
    if found is None:
        raise FileNotFoundError(2, "No such file or directory", path)
    return found[1]
