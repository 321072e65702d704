"""abc, as the lab has it: ABC and abstractmethod (a class with abstract methods left cannot
be instantiated, as in Python)."""


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


class ABCMeta(type):
    pass


class ABC:
    pass
