"""The default mode's programs: functions over int32 scalars and a short int
vector `v`, with if/elif/else, bounded while and for loops, break, continue,
early returns, helper calls, and/or/not and `a if c else b`; every
assignment is reduced `% 97` and divisors are `% 7 + 1`, so Python ints and
int32 tensors cannot disagree by overflow or division by zero. A seed's
program never changes (tests/reliability/test_fuzz.py pins them).

    Generator(seed).program()      # the source of one module with main(a, b, v)
"""

import random


MOD = 97


INPUTS = [(0, 0, [0, 0, 0]), (5, 3, [1, 2, 3]), (96, 41, [7, 0, 5]), (13, 88, [4, 4, 9])]


class Generator:
    """Builds one random program as a list of source lines."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.helpers = []
        self.has_v = False        # only main(a, b, v) sees the vector

    # --- expressions --------------------------------------------------------

    def atom(self, names):
        r = self.rng.random()
        if r < 0.25:
            return str(self.rng.randint(0, 20))
        if r < 0.32 and self.has_v:      # the vector: an element or its length
            return f"v[{self.rng.randint(-3, 2)}]" if r < 0.3 else "len(v)"
        return self.rng.choice(names)

    def expr(self, names, depth=0):
        r = self.rng.random()
        if depth >= 2 or r < 0.3:
            return self.atom(names)
        a, b = self.expr(names, depth + 1), self.expr(names, depth + 1)
        if r < 0.5:
            return f"({a} + {b})"
        if r < 0.65:
            return f"({a} - {b})"
        if r < 0.8:
            return f"({a} * {b})"
        if r < 0.87:
            return f"({a} // ({b} % 7 + 1))"
        if r < 0.92:
            return f"({a} if {self.test(names, 1)} else {b})"
        if self.helpers and depth == 0:
            # arguments reduced as every assignment is: a helper squares them,
            # and an unreduced product would leave int32 (where graphs wrap)
            return f"{self.rng.choice(self.helpers)}({a} % {MOD}, {b} % {MOD})"
        return f"({a} % ({b} % 5 + 1))"

    def test(self, names, depth=0):
        r = self.rng.random()
        if depth < 1 and r < 0.15:
            return f"not {self.test(names, depth + 1)}"
        if depth < 1 and r < 0.35:
            op = self.rng.choice(["and", "or"])
            return f"({self.test(names, depth + 1)} {op} {self.test(names, depth + 1)})"
        cmp = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        if self.rng.random() < 0.3:
            return f"{self.atom(names)} % 2 {cmp} 0"
        return f"{self.atom(names)} {cmp} {self.expr(names, 1)}"

    # --- statements ---------------------------------------------------------

    def block(self, names, depth, in_loop, budget):
        lines = []
        for _ in range(self.rng.randint(1, budget)):
            lines.extend(self.statement(names, depth, in_loop))
        return lines

    def statement(self, names, depth, in_loop):
        r = self.rng.random()
        # Loop targets (j0, j1, ...) are read-only: assigning one would make it
        # loop-carried in one path and not another.
        target = self.rng.choice([n for n in names if not n.startswith("j")])
        if depth >= 3 or r < 0.4:
            return [f"{target} = {self.expr(names)} % {MOD}"]
        if r < 0.6:
            return self.if_stmt(names, depth, in_loop)
        if r < 0.75:
            return self.while_stmt(names, depth)
        if r < 0.9:
            return self.for_stmt(names, depth)
        if in_loop and r < 0.95:
            return [f"if {self.test(names)}:", "    " + self.rng.choice(["break", "continue"])]
        return [f"if {self.test(names)}:", f"    return {self.expr(names)} % {MOD}"]

    def if_stmt(self, names, depth, in_loop):
        lines = [f"if {self.test(names)}:"]
        lines += _indent(self.block(names, depth + 1, in_loop, 2))
        if self.rng.random() < 0.3:
            lines.append(f"elif {self.test(names)}:")
            lines += _indent(self.block(names, depth + 1, in_loop, 2))
        if self.rng.random() < 0.6:
            lines.append("else:")
            lines += _indent(self.block(names, depth + 1, in_loop, 2))
        return lines

    def while_stmt(self, names, depth):
        counter = f"i{depth}"
        bound = self.rng.randint(0, 6)
        lines = [f"{counter} = 0", f"while {counter} < {bound} and {self.test(names)}:",
                 f"    {counter} = {counter} + 1"]
        lines += _indent(self.block(names, depth + 1, True, 3))
        return lines

    def for_stmt(self, names, depth):
        var = f"j{depth}"
        r = self.rng.random()
        if r < 0.4:
            head = f"for {var} in range({self.atom(names)} % 5):"
        elif r < 0.7 and self.has_v:
            head = f"for {var} in v:"
        else:
            head = f"for {var} in range({self.rng.randint(0, 4)}):"
        body = self.block(names + [var], depth + 1, True, 3)
        return [head] + _indent(body)

    # --- whole program ------------------------------------------------------

    def program(self):
        lines = []
        for k in range(self.rng.randint(0, 2)):
            name = f"h{k}"
            lines.append(f"def {name}(p, q):")
            body = self.block(["p", "q"], 2, False, 2)
            lines += _indent(body + [f"return {self.expr(['p', 'q'])} % {MOD}"])
            lines.append("")
            self.helpers.append(name)
        self.has_v = True
        lines.append("def main(a, b, v):")
        lines += _indent(["x = a", "y = b"] + self.block(["a", "b", "x", "y"], 0, False, 5)
                         + [f"return (x + y) % {MOD}"])
        return "\n".join(lines) + "\n"


def _indent(lines):
    return ["    " + ln for ln in lines]
