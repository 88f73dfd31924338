"""Error helpers shared by the staging operators: errors name the user's
statement, and the return slot is called "the return value", never by its
generated name.

    with located(where):          # where = (file, line, text) of the statement
        backend.cond(...)         # a TypeError gets " (file:line: text)" appended
"""

from .. import source_map
from .variables import is_return_slot

__all__ = ["display_names", "located", "mark"]


def display_names(names):
    """The names the backend shows in errors (the return slot is not a user name)."""
    return tuple("the return value" if is_return_slot(n) else n for n in names)


class located:
    """Append the user's statement to TypeError/ValueError raised by the
    backend while staging it (not to errors raised inside its bodies, which
    carry their own line)."""

    def __init__(self, where):
        self.where = where

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        if kind not in (TypeError, ValueError) or not self.where:
            return False
        if getattr(error, "__autograph_located__", False):
            return False
        text = source_map.describe(self.where)
        new = kind(f"{error}{text}")
        new.__autograph_located__ = True
        raise new.with_traceback(tb) from None


def mark(error):
    """Errors from inside a body already name their own line."""
    try:
        error.__autograph_located__ = True
    except AttributeError:
        pass
