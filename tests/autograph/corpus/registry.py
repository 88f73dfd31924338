"""The registry of the plain-Python corpus, and the helpers its programs
share (a context manager that prints, a mutable box, an exception to stop
with).

    @case(([1, 2],), ([],))            # one or more tuples of arguments
    def f(xs): ...

    @case((3,), xfail="nonlocal write inside a loop body")   # fails today

`xfail` (True or a one-line reason) marks a program the converter gets wrong
today; the test runs it under `pytest.mark.xfail(strict=True)`, so the mark
must be removed once it passes.
"""

CORPUS = []


def case(*inputs, xfail=False):
    """Register the decorated function with its argument tuples."""
    assert inputs and all(isinstance(args, tuple) for args in inputs), inputs

    def register(fn):
        CORPUS.append((fn, inputs, xfail))
        return fn
    return register


class Noisy:
    """A context manager that prints when it is entered and left (and with
    which exception); `swallow=True` makes it suppress that exception."""

    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        print(f"enter {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        print(f"exit {self.name} {exc_type.__name__ if exc_type else None}")
        return self.swallow


class Failing:
    """A context manager whose `__enter__` raises RuntimeError."""

    def __enter__(self):
        raise RuntimeError("enter failed")

    def __exit__(self, exc_type, exc, tb):
        print("never printed")
        return False


class Box:
    """A mutable object with one attribute `v` (more may be added)."""

    def __init__(self, v):
        self.v = v


class Stop(Exception):
    """Raised to leave nested loops at once."""
