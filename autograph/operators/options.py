"""Conversion options that converted code consults while it runs.

`convert` / `to_graph` given `Feature.BUILTIN_FUNCTIONS` (or `Feature.ALL`)
run the converted function inside `using({"builtin_functions"})`; the
operators ask `enabled("builtin_functions")`:

    with using({"builtin_functions"}):
        g(x)        # print(tensor) in g prints the value when the graph runs
"""

import contextlib
import threading

__all__ = ["using", "enabled"]

_LOCAL = threading.local()


@contextlib.contextmanager
def using(names):
    """Turn the options `names` on for code run in this block (this thread)."""
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    stack.append(frozenset(names))
    try:
        yield
    finally:
        stack.pop()


def enabled(name):
    return any(name in names for names in getattr(_LOCAL, "stack", ()))
