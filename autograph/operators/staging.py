"""Which staged statements are being traced right now (innermost last).

While a tensor `if` traces its branches, or a tensor loop its body, code
runs once for the graph, not once per run or per branch taken. Operators
that must refuse Python effects there ask `current()`:

    with inside("if statement", where):     # the operators, around tracing
        true_fn()
    outer_writes("bump", ("acc",))           # top of a function rebinding
                                             # nonlocal/global names
"""

import contextlib
import threading

from .. import source_map
from .errors import mark

__all__ = ["inside", "current", "outer_writes"]

_LOCAL = threading.local()


def _stack():
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


@contextlib.contextmanager
def inside(kind, where):
    """Mark code run in this block as traced for a staged `kind` at `where`."""
    stack = _stack()
    stack.append((kind, where))
    try:
        yield
    finally:
        stack.pop()


def current():
    """(kind, where) of the innermost staged statement being traced, or None."""
    stack = _stack()
    return stack[-1] if stack else None


def outer_writes(function, names):
    """Called first by a converted function that rebinds `names`, declared
    global or nonlocal: refused while a staged statement traces it, since the
    rebinding would happen once at trace time whatever happens at run time
    (and would leak a graph value out of the trace)."""
    top = current()
    if top is None:
        return
    kind, where = top
    listed = ", ".join(f"'{n}'" for n in names)
    here = source_map.current_location(2)
    error = ValueError(
        f"{function}(){source_map.describe(here)} rebinds the global or nonlocal {listed} and is "
        f"called inside a tensor {kind}{source_map.describe(where)}: the call is traced once, "
        f"so the change would not follow the tensor condition or loop. Return the value "
        f"instead, or keep it in a tf.Variable.")
    mark(error)
    raise error
