"""pickle, as the lab has it: plain values and learners' objects, byte for byte as CPython 3.11's
pickler writes them (protocol 4 by default, 2 to 5 on request) and read back by a stack machine
that knows every opcode those protocols write.

What pickles: None, bools, ints of any size, floats, str, bytes, tuples, lists, dicts, sets,
classes and functions defined at a program's top level, and objects of learners'
classes (their `__dict__`, or what `__getstate__` returns; `__setstate__` on loading). Tensors and
modules are saved with `torch.save`, which the lab writes in PyTorch's own format.
"""

import _lab

__all__ = ["dump", "dumps", "load", "loads", "PickleError", "PicklingError", "UnpicklingError",
           "HIGHEST_PROTOCOL", "DEFAULT_PROTOCOL"]

HIGHEST_PROTOCOL = 5
DEFAULT_PROTOCOL = 4


class PickleError(Exception):
    pass


class PicklingError(PickleError):
    pass


class UnpicklingError(PickleError):
    pass


# The opcodes, as `pickletools` names them.
MARK = b"("
STOP = b"."
POP = b"0"
POP_MARK = b"1"
DUP = b"2"
NONE = b"N"
INT = b"I"
BININT = b"J"
FLOAT = b"F"
GET = b"g"
PUT = b"p"
BININT1 = b"K"
BININT2 = b"M"
BINFLOAT = b"G"
BINUNICODE = b"X"
SHORT_BINSTRING = b"U"
BINSTRING = b"T"
APPEND = b"a"
APPENDS = b"e"
BUILD = b"b"
GLOBAL = b"c"
DICT = b"d"
EMPTY_DICT = b"}"
LIST = b"l"
EMPTY_LIST = b"]"
BINGET = b"h"
LONG_BINGET = b"j"
BINPUT = b"q"
LONG_BINPUT = b"r"
REDUCE = b"R"
SETITEM = b"s"
SETITEMS = b"u"
TUPLE = b"t"
EMPTY_TUPLE = b")"
PROTO = b"\x80"
NEWOBJ = b"\x81"
TUPLE1 = b"\x85"
TUPLE2 = b"\x86"
TUPLE3 = b"\x87"
NEWTRUE = b"\x88"
NEWFALSE = b"\x89"
LONG1 = b"\x8a"
LONG4 = b"\x8b"
BINBYTES = b"B"
SHORT_BINBYTES = b"C"
SHORT_BINUNICODE = b"\x8c"
BINUNICODE8 = b"\x8d"
BINBYTES8 = b"\x8e"
EMPTY_SET = b"\x8f"
ADDITEMS = b"\x90"
FROZENSET = b"\x91"
STACK_GLOBAL = b"\x93"
MEMOIZE = b"\x94"
FRAME = b"\x95"

_FRAME_SIZE_MIN = 4
_FRAME_SIZE_TARGET = 64 * 1024
_BATCHSIZE = 1000


def _uint(value, size):
    """`value` as `size` little-endian bytes."""
    return bytes((value >> (8 * i)) & 0xFF for i in range(size))


def _read_uint(data):
    return sum(b << (8 * i) for i, b in enumerate(data))


def _encode_long(x):
    """An int as the fewest little-endian two's-complement bytes (LONG1's payload)."""
    if x == 0:
        return b""
    nbytes = (x.bit_length() >> 3) + 1
    result = _uint(x % (1 << (8 * nbytes)), nbytes)
    if x < 0 and nbytes > 1 and result[-1] == 0xFF and (result[-2] & 0x80) != 0:
        result = result[:-1]
    return result


def _decode_long(data):
    value = _read_uint(data)
    if data and data[-1] >= 0x80:
        value -= 1 << (8 * len(data))
    return value


def _interned(text):
    """Whether CPython would hold `text` as one shared object (an identifier-like constant,
    or a name), so that a second occurrence pickles as a memo reference."""
    return text.isascii() and (text == "" or text.replace("_", "a").isalnum())


class _Framer:
    def __init__(self):
        self.done = []
        self.frame = None

    def start(self):
        self.frame = []

    def commit(self, force=False):
        if self.frame is None:
            return
        size = sum(len(part) for part in self.frame)
        if size >= _FRAME_SIZE_TARGET or force:
            if size >= _FRAME_SIZE_MIN:
                self.done.append(FRAME + _uint(size, 8))
            self.done.extend(self.frame)
            self.frame = []

    def write(self, data):
        if self.frame is None:
            self.done.append(data)
        else:
            self.frame.append(data)

    def write_large(self, header, payload):
        if self.frame is not None and len(payload) >= _FRAME_SIZE_TARGET:
            self.commit(force=True)
            self.done.append(header)
            self.done.append(payload)
        else:
            self.write(header)
            self.write(payload)

    def end(self):
        if self.frame is not None:
            self.commit(force=True)
            self.frame = None
        return b"".join(self.done)


class Pickler:
    def __init__(self, file, protocol=None, *, fix_imports=True, buffer_callback=None):
        if protocol is None:
            protocol = DEFAULT_PROTOCOL
        if protocol < 0:
            protocol = HIGHEST_PROTOCOL
        elif not 0 <= protocol <= HIGHEST_PROTOCOL:
            raise ValueError(f"pickle protocol must be <= {HIGHEST_PROTOCOL}")
        if protocol < 2:
            raise NotImplementedError(
                f"pickle protocol {protocol} (text opcodes) is not in the lab: use protocol 2 or above"
            )
        self._file = file
        self.proto = protocol
        self.memo = []

    def dump(self, obj):
        self.memo = []
        self._framer = _Framer()
        self._framer.write(PROTO + bytes([self.proto]))
        if self.proto >= 4:
            self._framer.start()
        self.save(obj)
        self._framer.write(STOP)
        self._file.write(self._framer.end())

    def clear_memo(self):
        self.memo = []

    def write(self, data):
        self._framer.write(data)

    # --- the memo: objects written once, referred to after --------------------------------

    def _find(self, obj):
        for index, (known, text) in enumerate(self.memo):
            if known is obj or (text and type(obj) is str and known == obj):
                return index
        return None

    def memoize(self, obj):
        index = len(self.memo)
        self.memo.append((obj, type(obj) is str and _interned(obj)))
        if self.proto >= 4:
            self.write(MEMOIZE)
        elif index < 256:
            self.write(BINPUT + bytes([index]))
        else:
            self.write(LONG_BINPUT + _uint(index, 4))

    def get(self, index):
        if index < 256:
            return BINGET + bytes([index])
        return LONG_BINGET + _uint(index, 4)

    # --- saving -----------------------------------------------------------------------------

    def save(self, obj):
        self._framer.commit()
        if obj is None:
            self.write(NONE)
            return
        if obj is True or obj is False:
            self.write(NEWTRUE if obj else NEWFALSE)
            return
        kind = type(obj)
        if kind is int:
            self.save_long(obj)
            return
        if kind is float:
            self.write(BINFLOAT + _lab.pack_double(obj))
            return
        index = self._find(obj)
        if index is not None:
            self.write(self.get(index))
            return
        if kind is str:
            self.save_str(obj)
        elif kind is bytes:
            self.save_bytes(obj)
        elif kind is tuple:
            self.save_tuple(obj)
        elif kind is list:
            self.write(EMPTY_LIST)
            self.memoize(obj)
            self._batch_appends(obj)
        elif kind is dict:
            self.write(EMPTY_DICT)
            self.memoize(obj)
            self._batch_setitems(list(obj.items()))
        elif kind is set:
            self.save_set(obj)
        elif isinstance(obj, type) or _lab.is_function(obj):
            self.save_global(obj)
        else:
            self.save_object(obj)

    def save_long(self, obj):
        if 0 <= obj <= 0xFF:
            self.write(BININT1 + bytes([obj]))
        elif 0 <= obj <= 0xFFFF:
            self.write(BININT2 + _uint(obj, 2))
        elif -0x80000000 <= obj <= 0x7FFFFFFF:
            self.write(BININT + _uint(obj % (1 << 32), 4))
        else:
            encoded = _encode_long(obj)
            if len(encoded) < 256:
                self.write(LONG1 + bytes([len(encoded)]) + encoded)
            else:
                self.write(LONG4 + _uint(len(encoded), 4) + encoded)

    def save_str(self, obj):
        short = SHORT_BINUNICODE if self.proto >= 4 else None
        self._write_sized(short, BINUNICODE, BINUNICODE8, obj.encode("utf-8"))
        self.memoize(obj)

    def save_bytes(self, obj):
        if self.proto < 3:
            raise NotImplementedError(
                "bytes under pickle protocol 2 are not in the lab: use protocol 3 or above"
            )
        self._write_sized(SHORT_BINBYTES, BINBYTES, BINBYTES8, obj)
        self.memoize(obj)

    def _write_sized(self, short, long4, long8, payload):
        """A payload after its opcode and length: 1, 4 or 8 bytes of it, as it needs."""
        n = len(payload)
        if n <= 0xFF and short is not None:
            self.write(short + bytes([n]) + payload)
        elif n > 0xFFFFFFFF and self.proto >= 4:
            self._framer.write_large(long8 + _uint(n, 8), payload)
        else:
            self._framer.write_large(long4 + _uint(n, 4), payload)

    def save_tuple(self, obj):
        if not obj:
            self.write(EMPTY_TUPLE)
            return
        n = len(obj)
        if n <= 3:
            for element in obj:
                self.save(element)
            self.write([TUPLE1, TUPLE2, TUPLE3][n - 1])
        else:
            self.write(MARK)
            for element in obj:
                self.save(element)
            self.write(TUPLE)
        self.memoize(obj)

    # A one-item list or dict is APPEND / SETITEM; any other is written in marked batches of
    # 1000 (a last batch of one included), as CPython's C pickler writes them.
    def _batch_appends(self, items):
        items = list(items)
        if len(items) == 1:
            self.save(items[0])
            self.write(APPEND)
            return
        for start in range(0, len(items), _BATCHSIZE):
            self.write(MARK)
            for item in items[start:start + _BATCHSIZE]:
                self.save(item)
            self.write(APPENDS)

    def _batch_setitems(self, items):
        if len(items) == 1:
            key, value = items[0]
            self.save(key)
            self.save(value)
            self.write(SETITEM)
            return
        for start in range(0, len(items), _BATCHSIZE):
            self.write(MARK)
            for key, value in items[start:start + _BATCHSIZE]:
                self.save(key)
                self.save(value)
            self.write(SETITEMS)

    def save_set(self, obj):
        if self.proto < 4:
            self.save_reduce_global("builtins", "set", (list(obj),), obj)
            return
        self.write(EMPTY_SET)
        self.memoize(obj)
        items = list(obj)
        for start in range(0, len(items), _BATCHSIZE):
            self.write(MARK)
            for item in items[start:start + _BATCHSIZE]:
                self.save(item)
            self.write(ADDITEMS)

    def write_global(self, module, name):
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(STACK_GLOBAL)
        else:
            self.write(GLOBAL + module.encode("utf-8") + b"\n" + name.encode("utf-8") + b"\n")

    def save_global(self, obj):
        module = getattr(obj, "__module__", None) or "__main__"
        name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
        found = _lab.main_global(name) if module == "__main__" and "." not in (name or "") else None
        if found is not obj:
            raise PicklingError(
                f"Can't pickle {obj!r}: attribute lookup {name} on {module} failed"
            )
        self.write_global(module, name)
        self.memoize(obj)

    def save_reduce_global(self, module, name, args, obj=None):
        if self.proto < 3 and module == "builtins":
            module = "__builtin__"
        self.write_global(module, name)
        self.memo.append((object(), False))
        if self.proto >= 4:
            self.write(MEMOIZE)
        else:
            self.write(BINPUT + bytes([len(self.memo) - 1]))
        self.save(args)
        self.write(REDUCE)
        if obj is not None:
            self.memoize(obj)

    def save_object(self, obj):
        cls = type(obj)
        if not _lab.is_plain_object(obj):
            raise NotImplementedError(
                f"pickling a '{cls.__name__}' object is not in the lab: torch.save(obj, f) "
                "saves tensors, modules and optimizers in PyTorch's own format"
            )
        if getattr(cls, "__reduce_ex__", None) is not None:
            return self.save_reduced(obj, obj.__reduce_ex__(self.proto))
        if getattr(cls, "__reduce__", None) is not None:
            return self.save_reduced(obj, obj.__reduce__())
        self.save(cls)
        self.write(EMPTY_TUPLE)
        self.write(NEWOBJ)
        self.memoize(obj)
        if getattr(cls, "__getstate__", None) is not None:
            state = obj.__getstate__()
        else:
            state = vars(obj) or None
        if state is not None:
            self.save(state)
            self.write(BUILD)

    def save_reduced(self, obj, reduced):
        if isinstance(reduced, str):
            return self.save_global(obj)
        func, args, *rest = reduced
        self.save(func)
        self.save(args)
        self.write(REDUCE)
        self.memoize(obj)
        state = rest[0] if rest else None
        if state is not None:
            self.save(state)
            self.write(BUILD)


class _Buffer:
    def __init__(self):
        self.parts = []

    def write(self, data):
        self.parts.append(data)

    def getvalue(self):
        return b"".join(self.parts)


def dumps(obj, protocol=None, *, fix_imports=True, buffer_callback=None):
    buffer = _Buffer()
    Pickler(buffer, protocol).dump(obj)
    return buffer.getvalue()


def dump(obj, file, protocol=None, *, fix_imports=True, buffer_callback=None):
    Pickler(file, protocol).dump(obj)


# --- loading ---------------------------------------------------------------------------------

class _Mark:
    pass


class Unpickler:
    def __init__(self, file, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
        self._file = file
        self.memo = {}

    def find_class(self, module, name):
        if module == "__main__":
            found = _lab.main_global(name)
            if found is None:
                raise AttributeError(f"Can't get attribute '{name}' on <module '__main__'>")
            return found
        if module in ("builtins", "__builtin__"):
            builtins = {"set": set, "list": list, "dict": dict,
                        "tuple": tuple, "int": int, "float": float, "str": str, "bytes": bytes,
                        "bool": bool, "range": range}
            if builtins.get(name) is not None:
                return builtins[name]
        if module == "_codecs" and name == "encode":
            return lambda text, encoding="latin1": text.encode(encoding)
        raise UnpicklingError(f"the lab cannot load {module}.{name} from a pickle")

    def load(self):
        data = self._file.read()
        if isinstance(data, str):
            raise TypeError(f"a bytes-like object is required, not 'str'")
        self.data = data
        self.pos = 0
        self.stack = []
        self.marks = []
        while True:
            op = self._take(1)
            if op == STOP:
                if not self.stack:
                    raise UnpicklingError("unpickling stack underflow")
                value = self.stack.pop()
                self._file.unread(self.data[self.pos:])
                return value
            self._dispatch(op)

    def _take(self, n):
        if self.pos + n > len(self.data):
            if self.pos == 0 and not self.data:
                raise EOFError("Ran out of input")
            raise UnpicklingError("pickle data was truncated")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def _pop_mark(self):
        if not self.marks:
            raise UnpicklingError("could not find MARK")
        start = self.marks.pop()
        items = self.stack[start:]
        del self.stack[start:]
        return items

    def _dispatch(self, op):
        stack = self.stack
        take = self._take
        if op == PROTO:
            proto = take(1)[0]
            if proto > HIGHEST_PROTOCOL:
                raise ValueError(f"unsupported pickle protocol: {proto}")
        elif op == FRAME:
            take(8)
        elif op == NONE:
            stack.append(None)
        elif op == NEWTRUE:
            stack.append(True)
        elif op == NEWFALSE:
            stack.append(False)
        elif op == BININT1:
            stack.append(take(1)[0])
        elif op == BININT2:
            stack.append(_read_uint(take(2)))
        elif op == BININT:
            stack.append(_decode_long(take(4)))
        elif op == LONG1:
            stack.append(_decode_long(take(take(1)[0])))
        elif op == LONG4:
            stack.append(_decode_long(take(_read_uint(take(4)))))
        elif op == BINFLOAT:
            stack.append(_lab.unpack_double(take(8)))
        elif op == SHORT_BINUNICODE:
            stack.append(take(take(1)[0]).decode("utf-8"))
        elif op == BINUNICODE:
            stack.append(take(_read_uint(take(4))).decode("utf-8"))
        elif op == BINUNICODE8:
            stack.append(take(_read_uint(take(8))).decode("utf-8"))
        elif op == SHORT_BINBYTES:
            stack.append(take(take(1)[0]))
        elif op == BINBYTES:
            stack.append(take(_read_uint(take(4))))
        elif op == BINBYTES8:
            stack.append(take(_read_uint(take(8))))
        elif op == SHORT_BINSTRING:
            stack.append(take(take(1)[0]).decode("ascii"))
        elif op == BINSTRING:
            stack.append(take(_read_uint(take(4))).decode("ascii"))
        elif op == EMPTY_TUPLE:
            stack.append(())
        elif op in (TUPLE1, TUPLE2, TUPLE3):
            n = {TUPLE1: 1, TUPLE2: 2, TUPLE3: 3}[op]
            if len(stack) < n:
                raise UnpicklingError("unpickling stack underflow")
            items = tuple(stack[len(stack) - n:])
            del stack[len(stack) - n:]
            stack.append(items)
        elif op == MARK:
            self.marks.append(len(stack))
        elif op == TUPLE:
            stack.append(tuple(self._pop_mark()))
        elif op == EMPTY_LIST:
            stack.append([])
        elif op == LIST:
            stack.append(self._pop_mark())
        elif op == APPEND:
            value = stack.pop()
            stack[-1].append(value)
        elif op == APPENDS:
            items = self._pop_mark()
            stack[-1].extend(items)
        elif op == EMPTY_DICT:
            stack.append({})
        elif op == DICT:
            items = self._pop_mark()
            stack.append({items[i]: items[i + 1] for i in range(0, len(items), 2)})
        elif op == SETITEM:
            value = stack.pop()
            key = stack.pop()
            stack[-1][key] = value
        elif op == SETITEMS:
            items = self._pop_mark()
            target = stack[-1]
            for i in range(0, len(items), 2):
                target[items[i]] = items[i + 1]
        elif op == EMPTY_SET:
            stack.append(set())
        elif op == ADDITEMS:
            items = self._pop_mark()
            stack[-1].update(items)
        elif op == FROZENSET:
            raise UnpicklingError("the lab has no frozenset to load this pickle's into")
        elif op == MEMOIZE:
            self.memo[len(self.memo)] = stack[-1]
        elif op == BINPUT:
            self.memo[take(1)[0]] = stack[-1]
        elif op == LONG_BINPUT:
            self.memo[_read_uint(take(4))] = stack[-1]
        elif op == BINGET:
            stack.append(self._memo(take(1)[0]))
        elif op == LONG_BINGET:
            stack.append(self._memo(_read_uint(take(4))))
        elif op == STACK_GLOBAL:
            name = stack.pop()
            module = stack.pop()
            stack.append(self.find_class(module, name))
        elif op == GLOBAL:
            module = self._line()
            name = self._line()
            stack.append(self.find_class(module, name))
        elif op == NEWOBJ:
            args = stack.pop()
            cls = stack.pop()
            stack.append(_lab.new_object(cls, *args))
        elif op == REDUCE:
            args = stack.pop()
            func = stack.pop()
            stack.append(func(*args))
        elif op == BUILD:
            state = stack.pop()
            obj = stack[-1]
            setstate = getattr(obj, "__setstate__", None)
            if setstate is not None and getattr(type(obj), "__setstate__", None) is not None:
                setstate(state)
            else:
                for key, value in state.items():
                    setattr(obj, key, value)
        elif op == POP:
            if stack:
                stack.pop()
            else:
                self._pop_mark()
        elif op == POP_MARK:
            self._pop_mark()
        elif op == DUP:
            stack.append(stack[-1])
        elif op == GET:
            stack.append(self._memo(int(self._line())))
        elif op == PUT:
            self.memo[int(self._line())] = stack[-1]
        elif op == INT:
            text = self._line()
            stack.append(text == "01" if text in ("00", "01") else int(text))
        elif op == FLOAT:
            stack.append(float(self._line()))
        else:
            raise UnpicklingError(f"invalid load key, '{op.decode('latin1')}'.")

    def _memo(self, index):
        if index not in self.memo:
            raise UnpicklingError(f"Memo value not found at index {index}")
        return self.memo[index]

    def _line(self):
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise UnpicklingError("pickle data was truncated")
        text = self.data[self.pos:end].decode("utf-8")
        self.pos = end + 1
        return text


class _Bytes:
    def __init__(self, data):
        self.data = data

    def read(self):
        return self.data

    def unread(self, rest):
        pass


class _File:
    """A binary file read for one pickle: what follows it stays for the next `load`."""

    def __init__(self, file):
        self.file = file

    def read(self):
        return self.file.read()

    def unread(self, rest):
        if rest and hasattr(self.file, "seek"):
            self.file.seek(self.file.tell() - len(rest))


def loads(data, /, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
    if isinstance(data, str):
        raise TypeError("a bytes-like object is required, not 'str'")
    return Unpickler(_Bytes(bytes(data))).load()


def load(file, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
    return Unpickler(_File(file)).load()
