"""timeit, as the lab has it: `timeit`, `repeat`, `Timer` (with `autorange`) and
`default_timer` (`time.perf_counter`). A statement may be a callable or source text; text runs
in a namespace of its own, or in the dict given as `globals=`, as in CPython."""

import time

default_timer = time.perf_counter
default_number = 1000000
default_repeat = 5


def _indented(source, by):
    return "\n".join(by + line for line in source.splitlines()) or by + "pass"


class Timer:
    def __init__(self, stmt="pass", setup="pass", timer=default_timer, globals=None):
        self.timer = timer
        self._stmt, self._setup = stmt, setup
        self._namespace = {} if globals is None else globals
        for what, value in (("stmt", stmt), ("setup", setup)):
            if not (isinstance(value, str) or callable(value)):
                raise ValueError(f"{what} is neither a string nor callable")
        if isinstance(setup, str):
            exec(setup, self._namespace)

    def _once(self, number):
        stmt, timer = self._stmt, self.timer
        if callable(self._setup):
            self._setup()
        if callable(stmt):
            t0 = timer()
            for _ in range(number):
                stmt()
            return timer() - t0
        code = compile_loop(stmt)
        self._namespace["_timeit_n"] = number
        self._namespace["_timeit_timer"] = timer
        exec(code, self._namespace)
        return self._namespace.pop("_timeit_elapsed")

    def timeit(self, number=default_number):
        return self._once(number)

    def repeat(self, repeat=default_repeat, number=default_number):
        return [self._once(number) for _ in range(repeat)]

    def autorange(self, callback=None):
        i = 1
        while True:
            for j in 1, 2, 5:
                number = i * j
                elapsed = self.timeit(number)
                if callback:
                    callback(number, elapsed)
                if elapsed >= 0.2:
                    return number, elapsed
            i *= 10


def compile_loop(stmt):
    return ("_timeit_t0 = _timeit_timer()\n"
            "for _timeit_i in range(_timeit_n):\n"
            + _indented(stmt, "    ") + "\n"
            "_timeit_elapsed = _timeit_timer() - _timeit_t0\n")


def timeit(stmt="pass", setup="pass", timer=default_timer, number=default_number, globals=None):
    return Timer(stmt, setup, timer, globals).timeit(number)


def repeat(stmt="pass", setup="pass", timer=default_timer, repeat=default_repeat,
           number=default_number, globals=None):
    return Timer(stmt, setup, timer, globals).repeat(repeat, number)
