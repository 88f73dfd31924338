"""--composites: state in dict keys, object attributes and list slots."""

from .gen_default import MOD
from .gen_modes import _ModeGenerator


class CompositeGenerator(_ModeGenerator):
    """--composites: state in dict keys, object attributes and list slots,
    nested (`d['n']['k']`, `o.b.c`, `m[1][0]`) and aliased (`e = d`, `p = o`,
    `m[0] is l`); slots created in one branch only or only inside a loop,
    read back with `.get`, `in`, `hasattr`, `getattr` and `len`."""

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
        if self.rng.random() < 0.8:
            return self.rng.choice(self.SLOTS_R)
        return self.rng.choice(self.MAYBE_R)

    def test(self, names, depth=0):
        if depth < 1 and self.rng.random() < 0.1:
            t = self.rng.choice(["'w' in d", "'w' in e['n']", "hasattr(o, 'w')",
                                 "hasattr(p.b, 'w')", "len(d) > 3"])
            return t if self.rng.random() < 0.7 else f"not {t}"
        return super().test(names, depth)

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
        return ["class Box:", "    pass", ""]

    def setup(self):
        return ["d = {'k': a % 97, 'j': b % 97}", "e = d", "d['n'] = {'k': 1}",
                "o = Box()", "o.a = x", "o.b = Box()", "o.b.c = y", "p = o",
                "l = [a % 97, b % 97, 0]", "m = [l, [0, 1]]"]

    def readers(self):
        return self.SLOTS_R + self.MAYBE_R
