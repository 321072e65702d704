"""os, as the lab has it: `environ` (the notebook's), `os.path`, and the file operations
tutorials use (`listdir`, `makedirs`, `remove`, `rename`, `walk`, `stat`, …) on the notebook's
file system: in memory in the browser, the working directory for the CLI."""

import _lab
import os.path as path

environ = _lab.environ()
name = "posix"
sep, curdir, pardir = path.sep, path.curdir, path.pardir
altsep = None
extsep = "."
pathsep = ":"
linesep = "\n"
devnull = "/dev/null"


fspath = path._fspath


class PathLike:
    pass


def getenv(key, default=None):
    return environ.get(key, default)


def getcwd():
    return _lab.fs_cwd()


def listdir(p="."):
    return _lab.fs_listdir(fspath(p))


def mkdir(p, mode=0o777):
    _lab.fs_mkdir(fspath(p))


def makedirs(name, mode=0o777, exist_ok=False):
    name = fspath(name)
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    if head and tail and not path.exists(head):
        makedirs(head, exist_ok=True)
    try:
        mkdir(name)
    except OSError:
        # Someone else's directory is fine when asked; a file in the way is not.
        if not exist_ok or not path.isdir(name):
            raise


def remove(p):
    _lab.fs_remove(fspath(p))


unlink = remove


def rmdir(p):
    _lab.fs_rmdir(fspath(p))


def removedirs(name):
    rmdir(name)
    head, tail = path.split(fspath(name))
    while head and tail:
        try:
            rmdir(head)
        except OSError:
            break
        head, tail = path.split(head)


def rename(src, dst):
    _lab.fs_rename(fspath(src), fspath(dst))


replace = rename


class stat_result:
    def __init__(self, is_dir, size):
        self.st_mode = 0o40755 if is_dir else 0o100644
        self.st_size = size
        self.st_mtime = 0.0

    def __repr__(self):
        return f"os.stat_result(st_mode={self.st_mode}, st_size={self.st_size})"


def stat(p):
    p = fspath(p)
    found = _lab.fs_stat(p)
    if found is None:
        raise FileNotFoundError(2, "No such file or directory", p)
    return stat_result(*found)


def walk(top, topdown=True, onerror=None, followlinks=False):
    top = fspath(top)
    try:
        names = listdir(top)
    except OSError as error:
        if onerror is not None:
            onerror(error)
        return
    dirs = [n for n in names if path.isdir(path.join(top, n))]
    files = [n for n in names if not path.isdir(path.join(top, n))]
    if topdown:
        yield top, dirs, files
        for d in dirs:
            yield from walk(path.join(top, d), topdown, onerror, followlinks)
    else:
        for d in dirs:
            yield from walk(path.join(top, d), topdown, onerror, followlinks)
        yield top, dirs, files


def cpu_count():
    return 1
