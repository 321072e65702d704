"""pathlib, as the lab has it: `Path` (shown as CPython's `PosixPath`; `PurePath`,
`PurePosixPath` and `PosixPath` are the same class here) with its pure operations exactly and
its file operations on the notebook's file system."""

import fnmatch
import os


class Path:
    def __init__(self, *args):
        parts = []
        for a in args:
            a = a._text if isinstance(a, Path) else os.fspath(a)
            if a.startswith("/"):
                parts = [a]
            elif a:
                parts.append(a)
        text = "/".join(parts)
        root = "/" if text.startswith("/") else ""
        # Repeated slashes and `.` parts go; `..` stays, as CPython keeps it.
        names = [p for p in text.split("/") if p and p != "."]
        self._root = root
        self._names = names
        self._text = (root + "/".join(names)) or "."

    @classmethod
    def _of(cls, root, names):
        return cls(root + "/".join(names) if names or root else ".")

    # Pure operations.
    def __str__(self):
        return self._text

    def __fspath__(self):
        return self._text

    def __repr__(self):
        return f"PosixPath({self._text!r})"

    def as_posix(self):
        return self._text

    def __eq__(self, other):
        return isinstance(other, Path) and self._text == other._text

    def __hash__(self):
        return hash(self._text)

    def __lt__(self, other):
        if not isinstance(other, Path):
            return NotImplemented
        return self.parts < other.parts

    def __le__(self, other):
        return self == other or self < other

    def __gt__(self, other):
        if not isinstance(other, Path):
            return NotImplemented
        return other < self

    def __truediv__(self, key):
        try:
            return Path(self, key)
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return Path(key, self)
        except TypeError:
            return NotImplemented

    def joinpath(self, *others):
        return Path(self, *others)

    @property
    def parts(self):
        return tuple(([self._root] if self._root else []) + self._names)

    @property
    def anchor(self):
        return self._root

    @property
    def root(self):
        return self._root

    @property
    def drive(self):
        return ""

    @property
    def name(self):
        return self._names[-1] if self._names else ""

    @property
    def suffix(self):
        name = self.name
        i = name.rfind(".")
        return name[i:] if 0 < i < len(name) - 1 else ""

    @property
    def suffixes(self):
        name = self.name
        if name.endswith("."):
            return []
        name = name.lstrip(".")
        return ["." + s for s in name.split(".")[1:]]

    @property
    def stem(self):
        name, suffix = self.name, self.suffix
        return name[:-len(suffix)] if suffix else name

    @property
    def parent(self):
        if not self._names:
            return self
        return Path._of(self._root, self._names[:-1])

    @property
    def parents(self):
        out = []
        p = self
        while p.parent != p:
            p = p.parent
            out.append(p)
        return tuple(out)

    def with_name(self, name):
        if not self.name:
            raise ValueError(f"{self!r} has an empty name")
        if not name or "/" in name or name == ".":
            raise ValueError(f"Invalid name {name!r}")
        return Path._of(self._root, self._names[:-1] + [name])

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if suffix and (not suffix.startswith(".") or suffix == "." or "/" in suffix):
            raise ValueError(f"Invalid suffix {suffix!r}")
        if not self.name:
            raise ValueError(f"{self!r} has an empty name")
        return self.with_name(self.stem + suffix)

    def is_absolute(self):
        return bool(self._root)

    def relative_to(self, *other):
        base = Path(*other)
        n = len(base.parts)
        if self.parts[:n] != base.parts or (not base._root and self._root):
            raise ValueError(f"{str(self)!r} is not in the subpath of {str(base)!r}"
                             " OR one path is relative and the other is absolute.")
        return Path._of("", list(self.parts[n:]))

    def is_relative_to(self, *other):
        try:
            self.relative_to(*other)
            return True
        except ValueError:
            return False

    def match(self, pattern):
        pat = Path(pattern)
        if pat._root:
            return len(pat.parts) == len(self.parts) and all(
                fnmatch.fnmatchcase(a, b) for a, b in zip(self.parts, pat.parts))
        names, pats = self._names, pat._names
        if len(pats) > len(names):
            return False
        return all(fnmatch.fnmatchcase(a, b) for a, b in zip(names[-len(pats):], pats))

    # The file system.
    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return cls(os.path.expanduser("~"))

    def absolute(self):
        return self if self._root else Path(os.getcwd(), self)

    def resolve(self, strict=False):
        return Path(os.path.abspath(self._text))

    def expanduser(self):
        return Path(os.path.expanduser(self._text))

    def exists(self):
        return os.path.exists(self._text)

    def is_file(self):
        return os.path.isfile(self._text)

    def is_dir(self):
        return os.path.isdir(self._text)

    def stat(self):
        return os.stat(self._text)

    def open(self, mode="r", buffering=-1, encoding=None, errors=None, newline=None):
        return open(self._text, mode, buffering, encoding, errors, newline)

    def read_text(self, encoding=None, errors=None):
        with open(self._text, encoding=encoding, errors=errors) as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError(f"data must be str, not {type(data).__name__}")
        with open(self._text, "w", encoding=encoding, errors=errors, newline=newline) as f:
            return f.write(data)

    def read_bytes(self):
        raise NotImplementedError("Path.read_bytes(): bytes are not in the lab yet")

    def write_bytes(self, data):
        raise NotImplementedError("Path.write_bytes(): bytes are not in the lab yet")

    def touch(self, mode=0o666, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError(17, "File exists", self._text)
            return
        with open(self._text, "a"):
            pass

    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        try:
            os.mkdir(self._text)
        except FileNotFoundError:
            if not parents or self.parent == self:
                raise
            self.parent.mkdir(parents=True, exist_ok=True)
            self.mkdir(mode, parents=False, exist_ok=exist_ok)
        except OSError:
            if not exist_ok or not self.is_dir():
                raise

    def unlink(self, missing_ok=False):
        try:
            os.remove(self._text)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def rmdir(self):
        os.rmdir(self._text)

    def rename(self, target):
        os.rename(self._text, os.fspath(target))
        return Path(target)

    replace = rename

    def iterdir(self):
        for name in os.listdir(self._text):
            yield self / name

    def glob(self, pattern):
        if not pattern:
            raise ValueError(f"Unacceptable pattern: {pattern!r}")
        parts = [p for p in pattern.split("/") if p and p != "."]
        yield from self._select(parts)

    def rglob(self, pattern):
        yield from self.glob("**/" + pattern)

    def _select(self, parts):
        if not parts:
            yield self
            return
        head, rest = parts[0], parts[1:]
        if head == "**":
            # This directory and every one under it, then the rest of the pattern in each.
            seen = []
            for d in self._walk_dirs():
                for p in d._select(rest):
                    if p not in seen:
                        seen.append(p)
                        yield p
        elif any(c in head for c in "*?["):
            if not self.is_dir():
                return
            for name in os.listdir(self._text):
                child = self / name
                if fnmatch.fnmatchcase(name, head) and (not rest or child.is_dir()):
                    yield from child._select(rest)
        else:
            child = self / head
            if child.exists():
                yield from child._select(rest)

    def _walk_dirs(self):
        if not self.is_dir():
            return
        yield self
        for name in os.listdir(self._text):
            child = self / name
            if child.is_dir():
                yield from child._walk_dirs()


PurePath = Path
PurePosixPath = Path
PosixPath = Path
