"""io, as the lab has it: `StringIO`, an in-memory text stream (what tutorials hand to
`print(file=...)`, `logging.StreamHandler` or `csv`), with CPython's reading and writing
rules."""


class UnsupportedOperation(OSError, ValueError):
    pass


class StringIO:
    def __init__(self, initial_value="", newline="\n"):
        if initial_value is None:
            initial_value = ""
        if not isinstance(initial_value, str):
            raise TypeError(
                f"initial_value must be str or None, not {type(initial_value).__name__}")
        self._text = initial_value
        self._pos = 0
        self.closed = False

    def _check_open(self):
        if self.closed:
            raise ValueError("I/O operation on closed file.")

    def write(self, s):
        self._check_open()
        if not isinstance(s, str):
            raise TypeError(f"string argument expected, got '{type(s).__name__}'")
        end = self._pos + len(s)
        if self._pos > len(self._text):
            self._text = self._text + "\0" * (self._pos - len(self._text))
        self._text = self._text[:self._pos] + s + self._text[end:]
        self._pos = end
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def getvalue(self):
        self._check_open()
        return self._text

    def read(self, size=-1):
        self._check_open()
        if size is None or size < 0:
            out = self._text[self._pos:]
        else:
            out = self._text[self._pos:self._pos + size]
        self._pos += len(out)
        return out

    def readline(self, size=-1):
        self._check_open()
        rest = self._text[self._pos:]
        at = rest.find("\n")
        line = rest if at < 0 else rest[:at + 1]
        if size is not None and size >= 0:
            line = line[:size]
        self._pos += len(line)
        return line

    def readlines(self, hint=-1):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def seek(self, pos, whence=0):
        self._check_open()
        if whence == 0:
            if pos < 0:
                raise ValueError(f"Negative seek position {pos}")
            self._pos = pos
        elif whence in (1, 2):
            if pos != 0:
                raise OSError("Can't do nonzero cur-relative seeks")
            if whence == 2:
                self._pos = len(self._text)
        else:
            raise ValueError(f"Invalid whence ({whence}, should be 0, 1 or 2)")
        return self._pos

    def tell(self):
        self._check_open()
        return self._pos

    def truncate(self, size=None):
        self._check_open()
        size = self._pos if size is None else size
        self._text = self._text[:size]
        return size

    def flush(self):
        self._check_open()

    def close(self):
        self.closed = True

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def isatty(self):
        return False

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
