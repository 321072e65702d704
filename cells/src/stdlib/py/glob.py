"""glob, as CPython has it (its algorithm, on the notebook's file system): `*`, `?`, `[seq]`,
and `**` with `recursive=True`; names starting with a dot only when the pattern's do. Names
come in sorted order (CPython's follow the directory's, which varies)."""

import fnmatch
import os
import re

_magic = re.compile("([*?[])")


def has_magic(s):
    return _magic.search(s) is not None


def _is_recursive(pattern):
    return pattern == "**"


def _is_hidden(name):
    return name[0] == "."


def glob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
    return list(iglob(pathname, root_dir=root_dir, recursive=recursive,
                      include_hidden=include_hidden))


def iglob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
    pathname = os.fspath(pathname)
    if root_dir is not None:
        root_dir = os.fspath(root_dir)
    found = _iglob(pathname, root_dir, recursive, False, include_hidden)
    if recursive and _is_recursive(pathname[:2]):
        # `**` alone yields '' first: leave it out, as CPython does.
        found = (p for p in found if p)
    return iter(list(found))


def _join(dirname, basename):
    if not dirname or not basename:
        return dirname or basename
    return os.path.join(dirname, basename)


def _iglob(pathname, root_dir, recursive, dironly, include_hidden):
    dirname, basename = os.path.split(pathname)
    if not has_magic(pathname):
        if basename:
            if os.path.lexists(_join(root_dir, pathname)):
                yield pathname
        elif os.path.isdir(_join(root_dir, dirname)):
            yield pathname
        return
    if not dirname:
        if recursive and _is_recursive(basename):
            yield from _glob2(root_dir, basename, dironly, include_hidden)
        else:
            yield from _glob1(root_dir, basename, dironly, include_hidden)
        return
    if dirname != pathname and has_magic(dirname):
        dirs = _iglob(dirname, root_dir, recursive, True, include_hidden)
    else:
        dirs = [dirname]
    if has_magic(basename):
        glob_in_dir = _glob2 if recursive and _is_recursive(basename) else _glob1
    else:
        glob_in_dir = _glob0
    for dirname in dirs:
        for name in glob_in_dir(_join(root_dir, dirname), basename, dironly, include_hidden):
            yield os.path.join(dirname, name)


def _glob1(dirname, pattern, dironly, include_hidden):
    names = _listdir(dirname, dironly)
    if not include_hidden and not _is_hidden(pattern):
        names = [x for x in names if not _is_hidden(x)]
    return fnmatch.filter(names, pattern)


def _glob0(dirname, basename, dironly, include_hidden):
    if basename:
        if os.path.lexists(_join(dirname, basename)):
            return [basename]
    elif os.path.isdir(dirname):
        return [basename]
    return []


def _glob2(dirname, pattern, dironly, include_hidden):
    yield pattern[:0]
    yield from _rlistdir(dirname, dironly, include_hidden)


def _listdir(dirname, dironly):
    try:
        names = os.listdir(dirname or os.curdir)
    except OSError:
        return []
    if dironly:
        names = [n for n in names if os.path.isdir(_join(dirname, n))]
    return names


def _rlistdir(dirname, dironly, include_hidden):
    for x in _listdir(dirname, dironly):
        if include_hidden or not _is_hidden(x):
            yield x
            path = _join(dirname, x) if dirname else x
            for y in _rlistdir(path, dironly, include_hidden):
                yield _join(x, y)


def escape(pathname):
    return re.sub("([*?[])", r"[\1]", pathname)
