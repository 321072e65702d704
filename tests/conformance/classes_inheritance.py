# Classes: __init__, methods, class attributes, inheritance, super(), __repr__ and __str__.
class Animal:
    legs = 4

    def __init__(self, name):
        self.name = name

    def speak(self):
        return f"{self.name} makes a sound"

    def __repr__(self):
        return f"Animal({self.name!r})"

class Bird(Animal):
    legs = 2

    def __init__(self, name, can_fly=True):
        super().__init__(name)
        self.can_fly = can_fly

    def speak(self):
        return super().speak() + " (tweet)"

    def __str__(self):
        return f"bird {self.name}"

a, b = Animal("cat"), Bird("robin")
print(a.speak(), "|", b.speak())
print(a.legs, b.legs, Bird.legs, b.can_fly)
print(a, b, repr(b), str(a))
print(isinstance(b, Animal), isinstance(a, Bird), type(b).__name__)
