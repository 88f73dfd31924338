"""Which staged statements are being traced right now (innermost last).

While a tensor `if` traces its branches, or a tensor loop its body, code
runs once for the graph, not once per run or per branch taken. Operators
that report Python effects there ask `current()`:

    with inside("if statement", where):     # the operators, around tracing
        true_fn()
    outer_writes("bump", ("acc",))           # top of a function rebinding
                                             # nonlocal/global names
    object_writes("bump", "f.py", ((5, "o.count += 1"),))
                                             # ag__.call, before a function that
                                             # changes objects it did not create
"""

import threading

from .. import source_map
from . import side_effects

__all__ = ["inside", "current", "outer_writes", "object_writes"]

_LOCAL = threading.local()


def _stack():
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


class inside:
    """`with inside(kind, where):` marks code run in the block as traced for
    a staged `kind` at `where`. (A class: cheaper to enter than a
    generator-based context manager, and entered for every staged if and
    loop traced.)"""

    __slots__ = ("entry", "stack")

    def __init__(self, kind, where):
        self.entry = (kind, where)

    def __enter__(self):
        self.stack = _stack()
        self.stack.append(self.entry)

    def __exit__(self, *exc):
        self.stack.pop()
        return False


def current():
    """(kind, where) of the innermost staged statement being traced, or None."""
    stack = _stack()
    return stack[-1] if stack else None


def outer_writes(function, names):
    """Called first by a converted function that rebinds `names`, declared
    global or nonlocal: while a staged statement traces it, the rebinding
    happens once at trace time whatever happens at run time (and may leave a
    graph value in the variable), as in TensorFlow: reported (see
    side_effects.py: a warning, or an error in strict mode)."""
    top = current()
    if top is None:
        return
    kind, where = top
    listed = ", ".join(f"'{n}'" for n in names)
    here = source_map.current_location(2)           # the def of `function`
    site = source_map.current_location(3)           # the call, in the caller
    defined = f" ({here[0]}:{here[1]})" if here else ""
    how = f"rebinds the global or nonlocal {listed}"
    if site is None:
        at, call = ((here[0], here[1]) if here else ("<unknown>", 0)), f"{function}()"
    else:
        at, call = (site[0], site[1]), f"'{site[2]}'"
        how = f"calls {function}(){defined}, which {how},"
    side_effects.report(call, at, kind, where, how=how)


def object_writes(function, filename, writes):
    """Called (by `ag__.call`) before a converted function that changes
    objects it did not create (`writes`: (line, text) of each statement, in
    `filename`) runs while a staged statement traces it: as in TensorFlow
    each change happens once while tracing; each is reported (see
    side_effects.py: a warning, or an error in strict mode)."""
    kind, where = current()
    site = source_map.current_location(3)            # the call, in the caller
    called = f", called at '{site[2]}' ({site[0]}:{site[1]})," if site else ""
    for line, text in writes:
        side_effects.report(f"'{text}'", (filename, line), kind, where,
                            how=f"in {function}(){called} changes Python state")
