"""Fresh names for generated code that never clash with the user's names.

    namer = Namer({"x", "retval_"})
    namer.new("retval_")   # 'retval_1'
    namer.new("if_body")   # 'if_body'

A name is never reused within one function, and never shadows a builtin or a
keyword.
"""

import builtins
import keyword
import types

# What hasattr(builtins, name) finds besides the module's own names (the
# module type's attributes: a type's are fixed).
_MODULE_ATTRS = frozenset(dir(types.ModuleType))


def _builtin(name):
    """hasattr(builtins, name), without the exception a missing name raises
    inside hasattr (asked of every name made)."""
    names = builtins.__dict__
    return name in names or name in _MODULE_ATTRS or (
        "__getattr__" in names and hasattr(builtins, name))


class Namer:
    """Hands out names not in `taken` (the names a function already uses)."""

    def __init__(self, taken=()):
        self.taken = set(taken)
        self.made = set()         # the names handed out
        self._next = {}           # base -> the suffix to try first (the ones before are taken)

    def new(self, base):
        n = self._next.get(base, 0)
        candidate = base if n == 0 else self._numbered(base, n)
        n += 1
        while candidate in self.taken or keyword.iskeyword(candidate) or _builtin(candidate):
            candidate = self._numbered(base, n)
            n += 1
        self._next[base] = n
        self.taken.add(candidate)
        self.made.add(candidate)
        return candidate

    @staticmethod
    def _numbered(base, n):
        return f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
