"""contextlib, as the lab has it: contextmanager, nullcontext, suppress, ExitStack."""


class _GeneratorContextManager:
    def __init__(self, gen):
        self.gen = gen

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield")

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        try:
            self.gen.throw(value)
        except StopIteration:
            return True
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    def helper(*args, **kwds):
        return _GeneratorContextManager(func(*args, **kwds))

    return helper


class nullcontext:
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        return False


class suppress:
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        return None

    def __exit__(self, exctype, excinst, exctb):
        if exctype is None:
            return False
        return issubclass(exctype, self._exceptions)


class ExitStack:
    def __init__(self):
        self._exits = []

    def __enter__(self):
        return self

    def enter_context(self, cm):
        result = cm.__enter__()
        self._exits.append(cm.__exit__)
        return result

    def callback(self, callback, *args, **kwds):
        self._exits.append(lambda typ, value, tb: callback(*args, **kwds))
        return callback

    def push(self, exit):
        self._exits.append(exit)
        return exit

    def pop_all(self):
        new = ExitStack()
        new._exits = self._exits
        self._exits = []
        return new

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, typ, value, tb):
        received = value
        suppressed = False
        while self._exits:
            exit = self._exits.pop()
            try:
                if exit(typ, value, tb):
                    suppressed = True
                    typ, value, tb = None, None, None
            except Exception as e:
                typ, value, tb = type(e), e, None
                suppressed = False
        if value is not None and value is not received:
            raise value
        return received is not None and suppressed
