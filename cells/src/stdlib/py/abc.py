"""abc, as the lab has it: ABCMeta, ABC, abstractmethod (abstract properties, class and static
methods too), `__abstractmethods__`, and virtual subclasses by `register` that isinstance and
issubclass count. A class with abstract methods left cannot be instantiated, as in Python.
`__abstractmethods__` is a set here (a frozenset in CPython)."""

import _lab


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


class ABCMeta(type):
    def __init__(cls, name, bases, namespace):
        cls._abc_registry = []
        cls.__abstractmethods__ = _lab.abstract_methods(cls)

    def register(cls, subclass):
        """Makes `subclass` a virtual subclass: issubclass and isinstance say True."""
        if not _lab.is_subclass(subclass, cls):
            cls._abc_registry.append(subclass)
        return subclass

    def __subclasscheck__(cls, subclass):
        if _lab.is_subclass(subclass, cls):
            return True
        # Registered here, or a subclass of something registered here.
        for registered in cls._abc_registry:
            if registered is subclass or issubclass(subclass, registered):
                return True
        return False

    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))


class ABC(metaclass=ABCMeta):
    pass
