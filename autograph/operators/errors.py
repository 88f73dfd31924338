"""Error helpers shared by the staging operators: errors name the user's
statement, and the return slot is called "the return value", never by its
generated name.

    try:                          # where = (file, line, text) of the statement
        backend.cond(...)
    except (TypeError, ValueError) as e:
        relocate(e, where)        # raises it with " (file:line: text)" appended
        raise
"""

from .. import source_map
from .variables import is_return_slot

__all__ = ["display_names", "relocate", "mark"]


def display_names(names):
    """The names the backend shows in errors (the return slot is not a user name)."""
    return tuple("the return value" if is_return_slot(n) else n for n in names)


def relocate(error, where):
    """Raise `error`, a TypeError or ValueError the backend raised while
    staging the statement at `where`, again with the statement appended.
    Return for any other error, one raised inside a body (it names its own
    line already) or an unknown `where`: the caller re-raises it as it is.
    (Called in an `except` clause: a `with` block's context manager cost
    three calls for each statement staged.)"""
    kind = error.__class__
    if (kind is not TypeError and kind is not ValueError) or not where:
        return
    if getattr(error, "__autograph_located__", False):
        return
    new = kind(f"{error}{source_map.describe(where)}")
    new.__autograph_located__ = True
    raise new.with_traceback(error.__traceback__) from None


def mark(error):
    """Errors from inside a body already name their own line."""
    try:
        error.__autograph_located__ = True
    except AttributeError:
        pass
