"""Python side effects inside staged statements: run while tracing, as in
TensorFlow, with one warning per call site; or refused, in strict mode.

A tensor `if` traces both branches (the true branch first), a tensor loop
traces its body once. A call that changes Python state there
(`log.append(x)`, `d.update(...)`, `next(it)`, a helper rebinding a global)
therefore runs once per trace, not once per branch taken or per iteration,
and what it stores is a symbolic tensor of the trace:

    l = []
    @tf.function
    def f(x):
        for i in x:
            l.append(i)     # SideEffectWarning, once; l == [<symbolic i>]

A method that an object stages as a graph op instead (a lookup table's
`insert`) is not a side effect: the object's class names such methods in
`__autograph_staged_methods__` (control_flow.py reads it).

    report(where_call, call_text, kind, where_statement)   # warn, or raise
    with strict():                                         # refuse instead
        ...
    set_strict_side_effects(True)                          # refuse everywhere
"""

import contextlib
import threading
import warnings

from .. import source_map
from .errors import mark

__all__ = ["SideEffectWarning", "set_strict_side_effects", "is_strict_side_effects",
           "strict", "report"]


class SideEffectWarning(UserWarning):
    """A call changing Python state runs while a staged (tensor) `if` or loop
    is traced: once per trace, not once per branch taken or iteration."""


_STATE = {"strict": False}
_LOCAL = threading.local()
_WARNED = set()


def set_strict_side_effects(flag=True):
    """Strict: a Python side effect inside a staged statement is a ValueError
    (the conversion's fuzzer and exactness checks use it)."""
    _STATE["strict"] = bool(flag)


def is_strict_side_effects():
    return _STATE["strict"] or getattr(_LOCAL, "depth", 0) > 0


@contextlib.contextmanager
def strict():
    """Strict for the code run in this block (this thread only)."""
    _LOCAL.depth = getattr(_LOCAL, "depth", 0) + 1
    try:
        yield
    finally:
        _LOCAL.depth -= 1


def _observed(kind):
    if kind.startswith("if statement"):
        return ("both branches are traced (the true branch first), so it runs once for "
                "each branch whatever the condition is at run time")
    return "the body is traced once, so it runs once per trace, not once per iteration"


_CHANGES = "changes Python state"


def report(call, at, kind, where, how=_CHANGES):
    """`call` (its text, or a description) at `at` = (file, line) changes
    Python state inside the tensor `kind` ('for loop', 'if statement', ...)
    at `where` = (file, line, text): warns once per call site, or raises a
    ValueError in strict mode. `how`: what the call does."""
    filename, line = at
    if is_strict_side_effects():
        what = how + (" (an object, or a global or nonlocal variable)" if how == _CHANGES else "")
        error = ValueError(
            f"{call} ({filename}:{line}) {what} inside a tensor {kind}"
            f"{source_map.describe(where)}: "
            f"{_observed(kind)} (strict side effects are on). Keep the state in tensors "
            f"(return it from the function, or use tf.Variable or tf.TensorArray), or make "
            f"the condition a Python value.")
        mark(error)
        raise error
    key = (filename, line, call)
    if key in _WARNED:
        return
    _WARNED.add(key)
    message = (
        f"{call} ({filename}:{line}) {how} inside a tensor {kind}"
        f"{source_map.describe(where)}. As in TensorFlow it runs while tracing: "
        f"{_observed(kind)}; a value it stores is a symbolic tensor of the trace, not a "
        f"value of the run. Keep the state in tensors (tf.Variable, tf.TensorArray, or "
        f"values returned from the function), or call "
        f"autograph.set_strict_side_effects(True) to make this an error.")
    warnings.warn_explicit(message, SideEffectWarning, filename, line or 0)
