"""io, as the lab has it: `StringIO`, an in-memory text stream (what tutorials hand to
`print(file=...)`, `logging.StreamHandler` or `csv`), and `open` (the builtin's): text files on
the notebook's file system, UTF-8, with CPython's modes, newline translation and errors. A
file is read whole when opened; each write goes straight to the file system. Binary modes
(`'rb'`, `'wb'`, `'ab'`, `'xb'`) read and write bytes."""

import _lab
import os


class UnsupportedOperation(OSError, ValueError):
    pass


def _split_lines(text, newline):
    """Lines with their endings: at any of CR, LF and CRLF for newline='' (universal), else
    at the newline given (at LF for newline=None, whose text is translated already)."""
    if newline == "":
        lines = []
        start = 0
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\n" or c == "\r":
                end = i + 2 if c == "\r" and text[i + 1:i + 2] == "\n" else i + 1
                lines.append(text[start:end])
                start = i = end
            else:
                i += 1
        if start < len(text):
            lines.append(text[start:])
        return lines
    ending = "\n" if newline is None else newline
    # One split: finding each ending from the last would take time in proportion to the text's
    # length for every line.
    parts = text.split(ending)
    lines = [part + ending for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


class _TextStream:
    """What StringIO and text files share: text read from a position, line by line."""

    _newline = "\n"

    def __init__(self):
        self._text = ""
        self._pos = 0
        self.closed = False

    def _check_open(self):
        if self.closed:
            raise ValueError("I/O operation on closed file.")

    def _check_readable(self):
        self._check_open()

    def read(self, size=-1):
        self._check_readable()
        if size is None or size < 0:
            out = self._text[self._pos:]
        else:
            out = self._text[self._pos:self._pos + size]
        self._pos += len(out)
        return out

    def readline(self, size=-1):
        self._check_readable()
        # The rest of the text is split once and read line by line: reading a file's lines in a
        # loop takes time in proportion to its length, not to its length squared.
        cache = getattr(self, "_lines", None)
        if cache is None or cache[0] is not self._text or cache[1] != self._pos:
            cache = [self._text, self._pos, _split_lines(self._text[self._pos:], self._newline), 0]
            self._lines = cache
        lines, i = cache[2], cache[3]
        line = lines[i] if i < len(lines) else ""
        if size is not None and 0 <= size < len(line):
            line = line[:size]
            cache[2][i] = lines[i][size:]
        else:
            cache[3] = i + 1
        cache[1] = self._pos + len(line)
        self._pos += len(line)
        return line

    def readlines(self, hint=-1):
        self._check_readable()
        lines = _split_lines(self._text[self._pos:], self._newline)
        self._pos = len(self._text)
        return lines

    def __iter__(self):
        self._check_readable()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def seek(self, pos, whence=0):
        self._check_open()
        if whence == 0:
            if pos < 0:
                raise ValueError(f"Negative seek position {pos}")
            self._pos = pos
        elif whence in (1, 2):
            if pos != 0:
                raise UnsupportedOperation("can't do nonzero cur-relative seeks")
            if whence == 2:
                self._pos = len(self._text)
        else:
            raise ValueError(f"invalid whence ({whence}, should be 0, 1 or 2)")
        return self._pos

    def tell(self):
        self._check_open()
        return self._pos

    def flush(self):
        self._check_open()

    def close(self):
        self.closed = True

    def readable(self):
        return True

    def seekable(self):
        return True

    def isatty(self):
        return False

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class StringIO(_TextStream):
    def __init__(self, initial_value="", newline="\n"):
        super().__init__()
        if newline is not None and not isinstance(newline, str):
            raise TypeError(f"newline must be str or None, not {type(newline).__name__}")
        if newline not in (None, "", "\n", "\r", "\r\n"):
            raise ValueError(f"illegal newline value: {newline!r}")
        if initial_value is None:
            initial_value = ""
        if not isinstance(initial_value, str):
            raise TypeError(
                f"initial_value must be str or None, not {type(initial_value).__name__}")
        # Written text is translated as CPython's StringIO translates it (None: any line ending
        # becomes LF; CR or CRLF: LF becomes it), and lines end at the newline given.
        self._written_newline = newline
        self._newline = "\n" if newline is None else newline
        self._text = self._translated(initial_value)

    def _translated(self, s):
        if self._written_newline is None:
            return s.replace("\r\n", "\n").replace("\r", "\n")
        if self._written_newline in ("\r", "\r\n"):
            return s.replace("\n", self._written_newline)
        return s

    def write(self, s):
        self._check_open()
        if not isinstance(s, str):
            raise TypeError(f"string argument expected, got '{type(s).__name__}'")
        written = len(s)
        s = self._translated(s)
        end = self._pos + len(s)
        if self._pos > len(self._text):
            self._text = self._text + "\0" * (self._pos - len(self._text))
        self._text = self._text[:self._pos] + s + self._text[end:]
        self._pos = end
        return written

    def getvalue(self):
        self._check_open()
        return self._text

    def truncate(self, size=None):
        self._check_open()
        size = self._pos if size is None else size
        self._text = self._text[:size]
        return size

    def writable(self):
        return True


class _File(_TextStream):
    """A file on the notebook's file system, opened for reading or for writing."""

    def _open(self, name, mode, empty):
        self.name = name
        self.mode = mode
        self._path = os.fspath(name)
        self._reading = "r" in mode
        if self._reading:
            return
        if "x" in mode and _lab.fs_stat(self._path) is not None:
            raise FileExistsError(17, "File exists", self._path)
        # Made empty (`w`, `x`) or kept (`a`), before the first write.
        _lab.fs_write(self._path, empty, "a" in mode)

    def readable(self):
        return self._reading

    def writable(self):
        return not self._reading


class TextIOWrapper(_File):
    """A text file opened by `open()`: read whole when opened, each write straight through."""

    def __init__(self, name, mode, newline, encoding):
        super().__init__()
        self.encoding = encoding
        self._newline = newline
        self._open(name, mode, "")
        if self._reading:
            text = _lab.fs_read(self._path)
            if newline is None:
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            self._text = text

    def __repr__(self):
        return f"<_io.TextIOWrapper name={self.name!r} mode={self.mode!r} encoding={self.encoding!r}>"

    def _check_readable(self):
        self._check_open()
        if not self._reading:
            raise UnsupportedOperation("not readable")

    def write(self, s):
        self._check_open()
        if self._reading:
            raise UnsupportedOperation("not writable")
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        text = s
        if self._newline in ("\r", "\r\n"):
            text = text.replace("\n", self._newline)
        _lab.fs_write(self._path, text, True)
        return len(s)


class _BufferedFile(_File):
    """A file opened in a binary mode: bytes, lines ending at b"\\n"."""

    def __init__(self, name, mode):
        super().__init__()
        self._text = b""
        self._open(name, mode, b"")
        if self._reading:
            self._text = _lab.fs_read(self._path, True)

    def __repr__(self):
        kind = "BufferedReader" if self._reading else "BufferedWriter"
        return f"<_io.{kind} name={self.name!r}>"

    def _check_readable(self):
        self._check_open()
        if not self._reading:
            raise UnsupportedOperation("read")

    def readline(self, size=-1):
        self._check_readable()
        at = self._text.find(b"\n", self._pos)
        end = len(self._text) if at < 0 else at + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        line = self._text[self._pos:end]
        self._pos = end
        return line

    def readlines(self, hint=-1):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def write(self, b):
        self._check_open()
        if self._reading:
            raise UnsupportedOperation("write")
        if not isinstance(b, bytes):
            raise TypeError(f"a bytes-like object is required, not '{type(b).__name__}'")
        _lab.fs_write(self._path, b, True)
        return len(b)


class BytesIO(_BufferedFile):
    """An in-memory binary stream."""

    def __init__(self, initial_bytes=b""):
        _TextStream.__init__(self)
        if initial_bytes is None:
            initial_bytes = b""
        if not isinstance(initial_bytes, bytes):
            raise TypeError(f"a bytes-like object is required, not '{type(initial_bytes).__name__}'")
        self._text = initial_bytes
        self._reading = True

    def __repr__(self):
        return "<_io.BytesIO object>"

    def write(self, b):
        self._check_open()
        if not isinstance(b, bytes):
            raise TypeError(f"a bytes-like object is required, not '{type(b).__name__}'")
        if self._pos > len(self._text):
            self._text = self._text + bytes(self._pos - len(self._text))
        self._text = self._text[:self._pos] + b + self._text[self._pos + len(b):]
        self._pos += len(b)
        return len(b)

    def getvalue(self):
        self._check_open()
        return self._text

    def writable(self):
        return True


def open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True,
         opener=None):
    if not isinstance(mode, str):
        raise TypeError(f"open() argument 'mode' must be str, not {type(mode).__name__}")
    if any(c not in "rwaxbt+" for c in mode) or len(set(mode)) != len(mode):
        raise ValueError(f"invalid mode: '{mode}'")
    if "b" in mode and "t" in mode:
        raise ValueError("can't have text and binary mode at once")
    if len([c for c in mode if c in "rwax"]) != 1:
        raise ValueError("must have exactly one of create/read/write/append mode")
    if "b" in mode:
        for given, text in [(encoding, "an encoding"), (errors, "an errors"), (newline, "a newline")]:
            if given is not None:
                raise ValueError(f"binary mode doesn't take {text} argument")
        if "+" not in mode:
            return _BufferedFile(file, mode)
    if "+" in mode:
        raise NotImplementedError(f"open(mode={mode!r}): files opened for reading and writing at once are not in the lab yet")
    if newline not in (None, "", "\n", "\r", "\r\n"):
        raise ValueError(f"illegal newline value: {newline}")
    if encoding is not None and encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise NotImplementedError(f"open(encoding={encoding!r}): the lab's files are UTF-8")
    if errors is not None or buffering != -1 or opener is not None or closefd is not True:
        raise NotImplementedError("open(): the lab takes file, mode, encoding and newline")
    return TextIOWrapper(file, mode, newline, "UTF-8" if encoding is None else encoding)
