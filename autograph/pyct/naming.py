"""Fresh names for generated code that never clash with the user's names.

    namer = Namer({"x", "retval_"})
    namer.new("retval_")   # 'retval_1'
    namer.new("if_body")   # 'if_body'

A name is never reused within one function, and never shadows a builtin or a
keyword.
"""

import builtins
import keyword


class Namer:
    """Hands out names not in `taken` (the names a function already uses)."""

    def __init__(self, taken=()):
        self.taken = set(taken)
        self.made = set()         # the names handed out

    def new(self, base):
        candidate = base
        n = 1
        while (candidate in self.taken or keyword.iskeyword(candidate)
               or hasattr(builtins, candidate)):
            candidate = f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
            n += 1
        self.taken.add(candidate)
        self.made.add(candidate)
        return candidate
