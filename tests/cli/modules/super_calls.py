"""Methods calling zero-argument super() inside control flow that the CLI
converts: on Python values the `if` runs as Python, on tensors it is staged."""


class Base:
    def scale(self, x):
        return x * 2

    def describe(self, flag):
        return "base" if flag else "quiet base"


class Child(Base):
    def scale(self, x):
        if x > 0:
            y = super().scale(x) + 1
        else:
            y = super().scale(-x)
        return y

    def describe(self, flag):
        if flag:
            return "child of " + super().describe(flag)
        return "plain child"

    def total(self, n):
        t = 0
        i = 0
        while i < n:
            t += super().scale(i)
            i += 1
        return t


class GrandChild(Child):
    def scale(self, x):
        if x > 10:
            return super().scale(x) * 10
        return super().scale(x)
