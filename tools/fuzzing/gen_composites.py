"""--composites: state in dict keys, object attributes and list slots; scalar
helpers with loops, called from main's expressions and loop conditions."""

from .gen_default import MOD, Generator, _indent
from .gen_modes import _ModeGenerator


class CompositeGenerator(_ModeGenerator):
    """--composites: state in dict keys, object attributes and list slots,
    nested (`d['n']['k']`, `o.b.c`, `m[1][0]`) and aliased (`e = d`, `p = o`,
    `m[0] is l`); slots created in one branch only or only inside a loop,
    read back with `.get`, `in`, `hasattr`, `getattr`, `len` and `vars`
    (and, in one program of ten, `int('x' in locals())`).

    Helpers `h0(p, q)`, `h1(p, q)` over scalars (the shape that once leaked an
    internal jump flag, `continue_`, into an error message): their
    loops hold `continue`/`break`, and they are called from main's
    expressions and conditions, loop conditions included. Main and the
    helpers hold a `for` over a tensor range with a `continue` inside a
    `while` that may run zero times (`nest`)."""

    in_helper = False        # building a helper's body: scalars only

    # slots that always exist: written anywhere, read anywhere
    SLOTS_W = ["d['k']", "d['j']", "e['j']", "o.a", "p.a", "o.b.c", "d['n']['k']",
               "l[0]", "l[1]", "l[-1]", "m[1][0]", "m[0][2]"]
    SLOTS_R = SLOTS_W + ["e['k']", "p.b.c", "e['n']['k']", "m[0][0]", "m[1][1]", "l[2]"]
    # slots that may not exist: only written directly
    MAYBE_W = ["d['w']", "e['w']", "d['n']['w']", "o.w", "p.w", "o.b.w"]
    MAYBE_R = ["d.get('w', 0)", "e.get('w', 1)", "d['n'].get('w', 2)", "getattr(o, 'w', 3)",
               "getattr(o.b, 'w', 4)", "len(d)", "len(e['n'])",
               "int('w' in d)", "int(hasattr(o, 'w'))", "int(hasattr(p.b, 'w'))"]

    def special_atom(self, names):
        if self.in_helper:
            return None
        if self.rng.random() < 0.8:
            return self.rng.choice(self.SLOTS_R)
        return self.rng.choice(self.MAYBE_R)

    def test(self, names, depth=0):
        r = self.rng.random()
        if depth < 1 and r < 0.1 and not self.in_helper:
            t = self.rng.choice(["'w' in d", "'w' in e['n']", "hasattr(o, 'w')",
                                 "hasattr(p.b, 'w')", "len(d) > 3", "'w' in vars(o)"])
            return t if self.rng.random() < 0.7 else f"not {t}"
        if depth < 1 and r < 0.2 and self.helpers:
            # a helper call in a condition (a loop's, too)
            call = f"{self.rng.choice(self.helpers)}({self.expr(names, 1)} % {MOD}, " \
                   f"{self.expr(names, 1)} % {MOD})"
            return f"{call} {self.rng.choice(['<', '>=', '!='])} {self.atom(names)}"
        return super().test(names, depth)

    def statement(self, names, depth, in_loop):
        if depth < 2 and self.rng.random() < 0.06:
            return self.nest(names, depth)
        if self.in_helper:
            return Generator.statement(self, names, depth, in_loop)
        return super().statement(names, depth, in_loop)

    def nest(self, names, depth):
        """A `for` over a tensor range with a `continue` inside a `while`
        that may run zero times (its condition is a tensor at run time)."""
        counter, var = f"i{depth}", f"j{depth + 1}"
        inner = names + [var]
        lines = [f"{counter} = 0",
                 f"while {counter} < {self.rng.randint(1, 3)} and {self.test(names)}:",
                 f"    {counter} = {counter} + 1",
                 f"    for {var} in range({self.rng.choice(names)} % 3):"]
        body = [f"if {self.test(inner)}:"]
        body += _indent(self.block(inner, depth + 2, True, 1) + ["continue"])
        body += self.block(inner, depth + 2, True, 2)
        if self.rng.random() < 0.3:
            body.append("continue")
        lines += _indent(_indent(body))
        if self.rng.random() < 0.3:
            lines += _indent([f"if {self.test(names)}:", "    break"])
        return lines

    def helper(self, name):
        """`def name(p, q):` over scalars, ending in a reduced return."""
        self.in_helper, self.has_v = True, False
        try:
            body = self.block(["p", "q"], 1, False, 3)
            body.append(f"return {self.expr(['p', 'q'])} % {MOD}")
        finally:
            self.in_helper, self.has_v = False, True
        return [f"def {name}(p, q):"] + _indent(body) + [""]

    def special(self, names, depth, in_loop):
        r = self.rng.random()
        if r < 0.55:
            return [f"{self.rng.choice(self.SLOTS_W)} = {self.expr(names)} % {MOD}"]
        if r < 0.8:
            return [f"{self.rng.choice(self.MAYBE_W)} = {self.expr(names)} % {MOD}"]
        if r < 0.88:       # a Python loop over keys: unrolled everywhere
            return ["for key in ['k', 'j']:",
                    f"    d[key] = (d[key] + {self.expr(names)}) % {MOD}"]
        if r < 0.92:       # rebinding breaks an alias (a copy) or restores it
            return [self.rng.choice(["e = dict(d)", "e = d", "p = o"])]
        if r < 0.96:
            return ["nb = Box()", f"nb.c = {self.expr(names)} % {MOD}", "o.b = nb"]
        if r < 0.98 and depth < 3:   # a slot as the loop target: a loop variable too
            target = self.rng.choice(["d['k']", "o.a", "l[0]", "d['n']['k']"])
            over = self.rng.choice(["v", f"range({self.rng.choice(names)} % 4)"])
            return [f"for {target} in {over}:",
                    f"    y = (y + {target} * {self.expr(names)}) % {MOD}"]
        return [f"print('c', {self.rng.choice(self.SLOTS_R)}, {self.rng.choice(self.MAYBE_R)})"]

    def prelude(self):
        lines = ["class Box:", "    pass", ""]
        for k in range(self.rng.randint(0, 2)):
            # made before main: a helper calls only the helpers before it
            lines += self.helper(f"h{k}")
            self.helpers.append(f"h{k}")
        return lines

    def setup(self):
        return ["d = {'k': a % 97, 'j': b % 97}", "e = d", "d['n'] = {'k': 1}",
                "o = Box()", "o.a = x", "o.b = Box()", "o.b.c = y", "p = o",
                "l = [a % 97, b % 97, 0]", "m = [l, [0, 1]]"]

    def readers(self):
        out = self.SLOTS_R + self.MAYBE_R + ["len(vars(o))", "len(vars(o.b))"]
        if self.rng.random() < 0.1:
            # main reads its own namespace: every local is live (not the
            # converter's flags, nor slots of objects not bound yet). Only
            # x is looked up: a loop target that a loop nested in a tensor
            # loop may leave unbound is a dummy in the graph, as in TF
            # (docs/tf_differences.md), and would be counted.
            out.append("int('x' in locals())")
        return out
