"""--closures: lambdas and nested defs over variables branches and loops assign."""

from .gen_default import MOD
from .gen_modes import _ModeGenerator


class ClosureGenerator(_ModeGenerator):
    """--closures: lambdas and nested defs reading variables that branches
    and loops assign, called later (late binding); closures made in a loop
    and called after it, over the loop target or with it bound as a
    default; `nonlocal` writes from nested functions called in loops."""

    in_body = False          # inside a closure's body: no calls (no recursion)

    def special_atom(self, names):
        if self.in_body:
            return None
        return self.rng.choice(["f0()", "f1()", "g0(x)", "g0(y)", "g1(a)", "acc",
                                "get()", "len(fs)", "by_abs(x)", "by_step(y)",
                                "twice(g1)(a)"])

    def special(self, names, depth, in_loop):
        self.in_body = True
        try:
            return self._special(names, depth, in_loop)
        finally:
            self.in_body = False

    def _special(self, names, depth, in_loop):
        r = self.rng.random()
        loop_targets = [n for n in names if n.startswith("j")]
        free = [n for n in names if not n.startswith("j")]
        if r < 0.25:
            return [f"bump({self.expr(free)})"]
        if r < 0.35:
            return [f"{self.rng.choice(self.SCALARS)} = bump({self.expr(free)}) % {MOD}"]
        if r < 0.42 and self.with_sety:
            return [f"sety({self.expr(free)})"]
        if r < 0.62:       # rebind a closure; over a loop target when inside a loop
            f = self.rng.choice(["f0", "f1"])
            if loop_targets and self.rng.random() < 0.7:
                j = self.rng.choice(loop_targets)
                if self.rng.random() < 0.3:
                    return [f"{f} = lambda {j}={j}: ({j} + {self.expr(free, 1)}) % {MOD}"]
                return [f"{f} = lambda: ({j} * 2 + {self.expr(free, 1)}) % {MOD}"]
            return [f"{f} = lambda: {self.expr(free, 1)} % {MOD}"]
        if r < 0.8:        # collect closures; called after the loop
            if loop_targets:
                j = self.rng.choice(loop_targets)
                if self.rng.random() < 0.3:
                    return [f"fs.append(lambda {j}={j}: ({j} + x) % {MOD})"]
                return [f"fs.append(lambda: ({j} + {self.expr(free, 1)}) % {MOD})"]
            return [f"fs.append(lambda: {self.expr(free, 1)} % {MOD})"]
        if r < 0.9:        # a nested def in the middle of the control flow
            return ["def g1(p):",
                    f"    if p > {self.rng.choice(free)}:",
                    f"        return (p - {self.rng.choice(free)}) % {MOD}",
                    f"    return (p + {self.expr(free, 1)}) % {MOD}"]
        return ["print('f', f0(), acc)"]

    def __init__(self, seed):
        super().__init__(seed)
        # a nonlocal write to main's own `y`: in a third of the programs, so
        # that what it breaks does not hide everything else
        self.with_sety = self.rng.random() < 0.3

    def prelude(self):
        # One closure code object for every `twice(h)`: a library callee (abs) in
        # one closure's cell and a user function (step) in another's must both
        # work; closures made at import are converted on their own, not as part
        # of a converted `twice`.
        return ["def twice(h):",
                "    def inner(p):",
                f"        return (h(p) + h(p + 1)) % {MOD}",
                "    return inner",
                "",
                "def step(p):",
                "    if p > 50:",
                "        return p - 50",
                "    return p + 3",
                "",
                "by_abs = twice(abs)      # closures made by plain Python, at import",
                "by_step = twice(step)",
                ""]

    def setup(self):
        sety = (["def sety(p):", "    nonlocal y", f"    y = p % {MOD}"]
                if self.with_sety else [])
        return ["acc = 0",
                "def bump(p):",
                "    nonlocal acc",
                f"    acc = (acc + p) % {MOD}",
                "    return acc"] + sety + [
                "def get():",
                f"    return (x + acc) % {MOD}",
                "f0 = lambda: x",
                f"f1 = lambda: (y + 1) % {MOD}",
                "def g0(p):",
                f"    return (p * x + y) % {MOD}",
                "def g1(p):",
                f"    return (p + 1) % {MOD}",
                "fs = []"]

    def readers(self):
        return ["f0()", "f1()", "g0(3)", "g1(5)", "acc", "get()", "len(fs)",
                "sum(f() for f in fs)", "by_abs(x)", "by_step(y)"]
