"""The one registry of the autograph corpus (tests/autograph/corpus/), and
the helpers its programs share (a context manager that prints, a mutable
box, an exception to stop with).

    @case(([1, 2],), ([],))            # one or more tuples of arguments
    def f(xs): ...

    @case((3,), (0,), tensor=True)     # also run on tensors: same values

    @case((3,), xfail="nonlocal write inside a loop body")   # fails today

Every program is converted and run on Python values, which must give the
original's results, printed output, exception types and arguments
afterwards (test_python_corpus.py). `tensor=True` marks a program whose
arguments may also be tensors: `runtime.function` on tensors must give the
same values (test_equivalence.py; the ONNX, JAX and XLA checks use these
too). `xfail` (True or a one-line reason) marks a program the converter gets
wrong today; the test runs it under `pytest.mark.xfail(strict=True)`, so the
mark must be removed once it passes.
"""

import collections
import sys

# `module`: the corpus file that registers the program (golden_targets.py
# functions are registered from constructs.py).
Case = collections.namedtuple("Case", ["fn", "inputs", "tensor", "xfail", "module"])

CORPUS = []


def case(*inputs, tensor=False, xfail=False):
    """Register the decorated function with its argument tuples."""
    assert inputs and all(isinstance(args, tuple) for args in inputs), inputs

    module = sys._getframe(1).f_globals["__name__"]

    def register(fn):
        CORPUS.append(Case(fn, inputs, tensor, xfail, module))
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
