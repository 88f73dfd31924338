"""The contract between converted code and a tensor library.

Converted code calls `autograph.operators`, which run plain Python semantics
unless a value is a tensor of a registered backend; then they call that
backend's methods. `runtime` registers one (`runtime/autograph_backend.py`);
tests register fakes. A backend implements the methods of `Backend` below.

    class MyBackend(Backend):
        def is_tensor(self, value): ...
    register_backend(MyBackend())
"""

import abc

__all__ = ["Backend", "register_backend", "backends", "backend_of"]

_BACKENDS = []


class Backend(abc.ABC):
    """What the operators need from a tensor library.

    `names` arguments are the user's variable names (e.g. `('x', 'd['b']')`),
    one per value, so errors can name them.
    """

    @abc.abstractmethod
    def is_tensor(self, value):
        """True when `value` is this backend's tensor (or variable)."""

    @abc.abstractmethod
    def cond(self, pred, true_fn, false_fn, names):
        """Stage `true_fn() if pred else false_fn()`; both return a tuple of
        values, one per name; returns the tuple produced at run time."""

    @abc.abstractmethod
    def while_loop(self, cond_fn, body_fn, loop_vars, names):
        """Stage `while cond_fn(*vars): vars = body_fn(*vars)`; returns vars."""


def register_backend(backend):
    """Make converted code dispatch `backend`'s tensors to it."""
    if not isinstance(backend, Backend):
        raise TypeError(f"expected an autograph.backend.Backend, got {type(backend).__name__}")
    if backend not in _BACKENDS:
        _BACKENDS.append(backend)


def backends():
    return tuple(_BACKENDS)


def backend_of(*values):
    """The backend owning the first tensor among `values`, else None."""
    for b in _BACKENDS:
        for v in values:
            if b.is_tensor(v):
                return b
    return None
