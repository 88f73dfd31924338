"""The statement mix every extra mode shares (--composites, --closures,
--mutations, --variables): each mode is a `_ModeGenerator` subclass with its
own statements (`special`), atoms, module prelude, setup lines and readers.

Each mode is a Generator subclass: the default mode's Generator is not
touched, so its programs (and its output) for a seed stay what they were.
`main(a, b, v)` keeps its signature; the state lives in containers, closures
or mutated lists, and main's return line reads all of it into one int
(`r = (r + <slot>) % 97`, one line per slot, so the shrinker can drop the
slots a mismatch does not need).
"""

from .gen_default import MOD, Generator, _indent


class _ModeGenerator(Generator):
    """Shared statement mix: scalar assignments, if/elif/else, bounded while
    and for loops, break/continue/early return, plus the mode's own
    statements (`special`) and atoms (`special_atom`)."""

    SCALARS = ["x", "y"]
    SPECIAL = 0.35           # chance that a statement is one of the mode's own

    def __init__(self, seed):
        super().__init__(seed)
        self.has_v = True

    def atom(self, names):
        r = self.rng.random()
        if r < 0.3:
            special = self.special_atom(names)
            if special is not None:
                return special
        return super().atom(names)

    def special_atom(self, names):
        return None

    def statement(self, names, depth, in_loop):
        r = self.rng.random()
        if r < self.SPECIAL:
            return self.special(names, depth, in_loop)
        if depth >= 3 or r < 0.5:
            return [f"{self.rng.choice(self.SCALARS)} = {self.expr(names)} % {MOD}"]
        if r < 0.65:
            return self.if_stmt(names, depth, in_loop)
        if r < 0.77:
            return self.while_stmt(names, depth)
        if r < 0.9:
            return self.for_stmt(names, depth)
        if in_loop and r < 0.95:
            return [f"if {self.test(names)}:", "    " + self.rng.choice(["break", "continue"])]
        return [f"if {self.test(names)}:", f"    return {self.expr(names)} % {MOD}"]

    def special(self, names, depth, in_loop):
        """The mode's own statements (dict slots, closures, mutating calls)."""
        raise NotImplementedError(f"{type(self).__name__} must define special()")

    def prelude(self):
        """Module-level lines before main."""
        return []

    def setup(self):
        """main's first lines, after `x = a` and `y = b`."""
        return []

    def readers(self):
        """Expressions main's return sums up."""
        return []

    def program(self):
        lines = self.prelude()
        body = ["x = a", "y = b"] + self.setup()
        body += self.block(["a", "b", "x", "y"], 0, False, 5)
        body.append(f"r = (x + y) % {MOD}")
        body += [f"r = (r + {term}) % {MOD}" for term in self.readers()]
        body.append("return r")
        lines.append("def main(a, b, v):")
        lines += _indent(body)
        return "\n".join(lines) + "\n"
