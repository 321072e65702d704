"""sys, as the lab has it: the cell's output streams (`sys.stdout.write`, `print(file=
sys.stderr)`), `exit`, `argv`, `version`, `version_info`, `platform`, `maxsize` and the
recursion limit the lab keeps. The lab's Python reads as CPython 3.11's."""

import _lab


class _Stream:
    """A text stream writing to the cell's stdout or stderr."""

    def __init__(self, name, fileno, write):
        self.name = name
        self.encoding = "utf-8"
        self.errors = "strict"
        self.closed = False
        self._fileno = fileno
        self._write = write

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        return self._write(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def fileno(self):
        return self._fileno

    def readable(self):
        return False

    def writable(self):
        return True

    def __repr__(self):
        return f"<_io.TextIOWrapper name='{self.name}' mode='w' encoding='utf-8'>"


class _VersionInfo(tuple):
    major = property(lambda self: self[0])
    minor = property(lambda self: self[1])
    micro = property(lambda self: self[2])
    releaselevel = property(lambda self: self[3])
    serial = property(lambda self: self[4])

    def __repr__(self):
        return ("sys.version_info(major={}, minor={}, micro={}, releaselevel={!r}, serial={})"
                .format(*self))


stdout = _Stream("<stdout>", 1, _lab.write_stdout)
stderr = _Stream("<stderr>", 2, _lab.write_stderr)
__stdout__ = stdout
__stderr__ = stderr
# A program run as a file (`tolab run train.py`) has its name; a notebook cell has none.
_main = _lab.caller()[0]
argv = ["" if _main.startswith("<") else _main]
version = "3.11.7 (the to(device) lab's Python, in Rust)"
version_info = _VersionInfo((3, 11, 7, "final", 0))
hexversion = 0x030B07F0
implementation_name = "tolab"
platform = "linux"
byteorder = "little"
maxsize = 9223372036854775807
path = []
_state = {"recursion_limit": 200}


def exit(status=None):
    raise SystemExit(status)


def getrecursionlimit():
    return _state["recursion_limit"]


def setrecursionlimit(limit):
    if not isinstance(limit, int):
        raise TypeError("'" + type(limit).__name__ + "' object cannot be interpreted as an integer")
    if limit < 1:
        raise ValueError("recursion limit must be greater or equal than 1")
    if limit > 200:
        raise NotImplementedError(
            "sys.setrecursionlimit: calls nest at most 200 deep in the lab (CPython: 1000)")
    _state["recursion_limit"] = limit


def getdefaultencoding():
    return "utf-8"
