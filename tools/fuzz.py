"""Differential fuzzing: random programs run three ways must agree.

Each seeded program is a small module of functions over int32 scalars (and a
short int vector `v`: iterated, indexed, measured with len) with
if/elif/else, while and for loops that always end, break, continue, early
returns, helper calls, and/or/not, `a if c else b`, and arithmetic kept
in range (every assignment is reduced `% 97`; divisors are `% 7 + 1`), so
Python ints and int32 tensors cannot disagree by overflow or division by zero.

The three runs of `main(a, b, v)`:
  1. the original function on Python ints and a list;
  2. `autograph.to_graph(main)` on the same Python values;
  3. `runtime.function(main)` on int32 tensors.

    python tools/fuzz.py --count 500 --seed 1

A mismatch prints the program (shrunk to the fewest statements that still
disagree), the inputs and the three results, and the exit status is 1.

Modes (the default mode above is unchanged; its programs and output for a
seed are what they were):

    --composites   state in dict keys, object attributes (a `Box` class in the
                   program module) and list slots, nested and aliased; slots
                   made in one branch only or only inside a loop, read back
                   with .get/in/hasattr/getattr/len; a slot as a for target
                   (`for d['k'] in v:`)
    --closures     lambdas and nested defs over variables that branches and
                   loops assign (late binding), closures made in a loop and
                   called after it, `nonlocal` writes called from loops, and
                   closures of one code object over a library function and
                   over a user function (`twice(abs)`, `twice(step)` made at import)
    --mutations    append/pop/extend/insert/del/update/setdefault/d.pop/slice
                   assignment/next(it)/a bound method, inside branches and loops
    --variables    float64 vectors and tf.Variables (module-level vectors, a
                   3x3 matrix and a scalar, and `w` passed in): reads
                   (`read_value`, `v + 0`, `tf.identity`, `value`,
                   `np.asarray` eagerly) held in locals across later
                   assign/assign_add/assign_sub (read_value=False too) in
                   branches and tensor loops, chained arithmetic whose
                   temporaries the graph overwrites (also of a length the
                   graph only knows at run time), temporaries read twice,
                   matmul, gradient tapes (persistent too, and a matmul
                   "training step") with an update before `tape.gradient`,
                   a nested tf.function, a Keras SGD step

The --variables mode checks that reusing memory (Variables updated in place,
temporaries overwritten: runtime/_src/function/variables.py and
runtime/_src/exec/codegen.py) never changes a value handed out earlier. Its
`main(x, y, n, w)` runs natively with a numpy stand-in for `tf` (reads are
copies: Python semantics), converted with the stand-in, eagerly and as a
graph; each run is a new module instance, calls main twice and only then
compares both calls' results (the locals, reads and temporaries main
returns), the Variables' final values and the arrays they started from.
Values are dyadic (k/4), so the float comparisons are exact.

Every mode checks exactness, so it runs with autograph's strict side effects
(`autograph.set_strict_side_effects`): a Python side effect inside a tensor
`if` or loop is a clear refusal, not run once while tracing as TensorFlow
runs it (the default).

A mode runs `main` four ways: native, converted on Python values,
eagerly (main called on runtime eager tensors) and as a graph
(`runtime.function`). Result, printed output (not for the graph, which prints
while it is traced) and exception type are compared. A clear refusal in the
eager or graph run (a ValueError/TypeError/NotImplementedError naming a
file:line) where Python succeeded is counted as "refused", printed once per
distinct message with its count; an internal-looking error (AttributeError,
KeyError, UnboundLocalError, NameError, "belongs to graph", "Undefined(",
"object has no attribute", "the transpiler failed") where Python did not
raise is an internal error, counted as a mismatch. Only the first two
programs of each kind of mismatch are shrunk. The last line:

    fuzz: N programs, seed S, mode M, K mismatches, R refused

--backend jax runs each program (of any mode but --variables) natively and as
`jax.jit(autograph.to_graph(main))` on int32 arrays (JAX installed): values
and exception types must agree; a clear refusal is counted apart with its
message; the last line adds "backend jax":

    python tools/fuzz.py --backend jax --count 2000
"""

import argparse
import atexit
import contextlib
import io
import os
import random
import re
import shutil
import sys
import tempfile
import textwrap
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:          # `python tools/fuzz.py` from anywhere
    sys.path.insert(0, ROOT)

MOD = 97


def _strict(runs):
    """Every mode checks exactness: a Python side effect inside a staged
    statement is refused (autograph's strict side effects), never run once
    while tracing as TensorFlow runs it."""
    def run(*args, **kwargs):
        from autograph.operators import side_effects
        with side_effects.strict():
            return runs(*args, **kwargs)
    run.__name__, run.__doc__ = runs.__name__, runs.__doc__
    return run


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
            return f"{self.rng.choice(self.helpers)}({a}, {b})"
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


# --- the extra modes: --composites, --closures, --mutations ------------------------
#
# Each mode is a Generator subclass: the default mode's Generator is not
# touched, so its programs (and its output) for a seed stay what they were.
# `main(a, b, v)` keeps its signature; the state lives in containers, closures
# or mutated lists, and main's return line reads all of it into one int
# (`r = (r + <slot>) % 97`, one line per slot, so the shrinker can drop the
# slots a mismatch does not need).

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
        return [f"print('f', f0(), acc)"]

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


class MutationGenerator(_ModeGenerator):
    """--mutations: mutating calls inside branches and loops: append, pop,
    extend, insert, del l[i], del d[k], d.update, d.setdefault, d.pop, slice
    assignment, next(it), a bound method (`emit = out.append`)."""

    def special_atom(self, names):
        return self.rng.choice(["len(l) % 97", "len(d)", "len(out) % 97", "(l[0] if l else 5)",
                                "(l[-1] if l else 6)", "d.get('w', 7)", "d['k']",
                                f"sum(l) % {MOD}"])

    def special(self, names, depth, in_loop):
        e = lambda: self.expr(names)
        return self.rng.choice([
            lambda: [f"l.append({e()} % {MOD})"],
            lambda: [f"emit({e()} % {MOD})"],
            lambda: [f"l.extend([{e()} % {MOD}, {self.rng.randint(0, 9)}])"],
            lambda: [f"l.insert({self.rng.choice([0, 1, -1])}, {e()} % {MOD})"],
            lambda: ["if l:", f"    {self.rng.choice(self.SCALARS)} = "
                              f"l.pop({self.rng.choice(['', '0', '-1'])}) % {MOD}"],
            lambda: ["if len(l) > 1:", f"    del l[{self.rng.choice([0, 1, -1])}]"],
            lambda: [f"d['w'] = {e()} % {MOD}"],
            lambda: [f"d.update({{'w': {e()} % {MOD}}})"],
            lambda: [f"d.update(k={e()} % {MOD})"],
            lambda: [f"{self.rng.choice(self.SCALARS)} = d.setdefault('w', {e()} % {MOD})"],
            lambda: [f"{self.rng.choice(self.SCALARS)} = d.pop('w', {e()}) % {MOD}"],
            lambda: ["if 'w' in d:", "    del d['w']"],
            lambda: [f"l[0:1] = [{e()} % {MOD}, {self.rng.randint(0, 9)}]"],
            lambda: ["l[:] = l[-4:]"],
            lambda: [f"{self.rng.choice(self.SCALARS)} = next(it, {e()}) % {MOD}"],
            lambda: [f"print('m', len(l), {self.rng.choice(self.SCALARS)})"],
        ])()

    def setup(self):
        return ["l = [a % 97, b % 97]", "d = {'k': a % 97}", "out = []",
                "emit = out.append", "it = iter([3, a % 97, b % 97, 7])"]

    def readers(self):
        return ["len(l)", f"sum(l) % {MOD}", "len(out)", f"sum(out) % {MOD}", "len(d)",
                f"sum(d.values()) % {MOD}", "(l[0] if l else 5)", "next(it, 9)"]


class VariableGenerator(_ModeGenerator):
    """--variables: float64 vectors (length 3) and tf.Variables (module-level
    `v0`, `v1`, a 3x3 `m`, and `w` passed in): reads held in locals across
    later assign/assign_add/assign_sub in branches and tensor loops, chained
    arithmetic whose temporaries the graph reuses, matmul, gradient tapes
    with an assignment between the forward pass and `tape.gradient`. Values
    are dyadic (k/4) and every value assigned in a loop is floored to a
    quarter and clipped, so float results are exact and compared with ==."""

    VECS = ["x", "y", "h0", "h1", "h2", "t0"]          # main's float64 vector locals
    VARS = ["v0", "v1", "w"]                            # vector Variables (m: 3x3)
    SPECIAL = 0.5

    def __init__(self, seed):
        super().__init__(seed)
        self.loop_vars = []

    def quarter(self):
        return f"{self.rng.randint(-8, 8) / 4!r}"

    def const_vec(self):
        return f"tf.constant([{', '.join(self.quarter() for _ in range(3))}], dtype=tf.float64)"

    def read(self, var=None):
        var = var or self.rng.choice(self.VARS)
        return self.rng.choice([
            f"{var}.read_value()", f"{var} + 0", f"tf.identity({var})", f"{var}.value()",
            f"(np.asarray({var}) if EAGER else {var}.read_value())"])

    def atom(self, names):
        r = self.rng.random()
        if r < 0.45:
            return self.rng.choice(self.VECS)
        if r < 0.6:
            return self.rng.choice(self.VARS)            # a Variable as an operand
        if r < 0.75:
            return self.read()
        if r < 0.85 and self.loop_vars:
            return f"tf.cast({self.rng.choice(self.loop_vars)}, tf.float64)"
        if r < 0.9:                                   # times a scalar Variable or local
            return f"({self.rng.choice(self.VECS)} * {self.rng.choice(['sv', 'c0'])})"
        return self.const_vec()

    def expr(self, names, depth=0):
        r = self.rng.random()
        if depth >= 2 or r < 0.25:
            a = self.atom(names)
            if a.startswith("tf.cast"):              # a scalar: made a vector
                return f"({a} + {self.rng.choice(self.VECS)})"
            # a whole expression is a value, never the Variable object itself
            return f"{a}.read_value()" if depth == 0 and a in self.VARS else a
        a, b = self.expr(names, depth + 1), self.expr(names, depth + 1)
        forms = [  # (up to this r, the expression): chains whose temporaries are reused
            (0.4, lambda: f"({a} + {b})"),
            (0.5, lambda: f"({a} - {b})"),
            (0.6, lambda: f"({a} * {b})"),
            (0.68, lambda: f"({a} * {self.rng.choice(['2.0', '0.5', '-1.0', '0.25'])})"),
            (0.72, lambda: f"({a} {self.rng.choice(['+', '-'])} {self.quarter()})"),
            (0.8, lambda: f"(({a} * 2.0 + {b}) - {self.rng.choice(self.VECS)})"),
            (0.9, lambda: f"tf.reshape(tf.matmul(m, tf.reshape({a}, [3, 1])), [3])"),
            (0.95, lambda: f"tf.reshape(tf.matmul(tf.reshape({a}, [1, 3]), m), [3])"),
            (1.0, lambda: f"(-{a})")]
        return next(make for bound, make in forms if r < bound)()

    def tame(self, e, in_loop):
        """`e` floored to a quarter and clipped: loops cannot grow values past
        exact float64 arithmetic. Outside loops only sometimes."""
        if in_loop or self.rng.random() < 0.75:
            return f"tf.clip_by_value(tf.floor(({e}) * 4.0) * 0.25, -64.0, 64.0)"
        return e

    def test(self, names, depth=0):
        cmp = self.rng.choice(["<", "<=", ">", ">="])
        return f"tf.reduce_sum({self.expr(names, 1)}) {cmp} {self.quarter()}"

    def statement(self, names, depth, in_loop):
        r = self.rng.random()
        if r < self.SPECIAL or depth >= 3:
            return self.special(names, depth, in_loop)
        if r < 0.68:
            return self.if_stmt(names, depth, in_loop)
        if r < 0.78:
            return self.while_stmt(names, depth)
        if r < 0.93:
            return self.for_stmt(names, depth)
        if in_loop:
            return [f"if {self.test(names)}:", "    " + self.rng.choice(["break", "continue"])]
        return self.tape(names, depth, in_loop)

    def while_stmt(self, names, depth):
        counter = f"i{depth}"
        head = f"while {counter} < n:" if self.rng.random() < 0.6 else \
            f"while {counter} < {self.rng.randint(1, 3)} and {self.test(names)}:"
        lines = [f"{counter} = 0", head, f"    {counter} = {counter} + 1"]
        lines += _indent(self.block(names, depth + 1, True, 3))
        return lines

    def for_stmt(self, names, depth):
        var = f"j{depth}"
        head = self.rng.choice([f"for {var} in tf.range(n):", f"for {var} in range(2):",
                                f"for {var} in tf.range({self.rng.randint(0, 3)}):"])
        self.loop_vars.append(var)
        try:
            body = self.block(names, depth + 1, True, 3)
        finally:
            self.loop_vars.pop()
        return [head] + _indent(body)

    def special(self, names, depth, in_loop):
        r = self.rng.random()
        var = self.rng.choice(self.VARS)
        if r < 0.25:                       # hold a read across what follows
            return [f"{self.rng.choice(['h0', 'h1', 'h2'])} = {self.read()}"]
        if r < 0.55:
            op = self.rng.choice(["assign_add", "assign_sub", "assign_add", "assign"])
            value = self.tame(self.expr(names), in_loop)
            r = self.rng.random()
            if r < 0.15:                   # the update's result, used at once (as TF's
                target = self.rng.choice(["h0", "h1", "h2"])    # lazily read result)
                return [f"{target} = {var}.{op}({value}) {self.rng.choice(['+ 0', '* 1.0'])}"]
            flag = ", read_value=False" if r < 0.3 else ""
            return [f"{var}.{op}({value}{flag})"]
        if r < 0.6:                        # one Variable's value into another
            return [f"{var}.{self.rng.choice(['assign', 'assign_add'])}"
                    f"({self.rng.choice(self.VARS + ['h0', 'h1'])})"]
        if r < 0.63:                       # the scalar Variable and the scalar local
            return self.rng.choice([
                lambda: [f"c0 = {self.read('sv')}"],
                lambda: [f"sv.{self.rng.choice(['assign_add', 'assign_sub', 'assign'])}("
                         f"tf.clip_by_value(tf.floor(tf.reduce_sum({self.expr(names, 1)})) * 0.25,"
                         f" -64.0, 64.0))"],
                lambda: [f"c0 = {self.tame('c0 * 2.0 + sv', True)}"],
                lambda: [f"sv.assign_sub(c0 * 0.5)"]])()
        if r < 0.65:                       # the matrix: an outer product update
            return [f"m.{self.rng.choice(['assign_add', 'assign_sub'])}(tf.clip_by_value("
                    f"tf.floor(tf.matmul(tf.reshape({self.expr(names, 1)}, [3, 1]), "
                    f"tf.reshape({self.expr(names, 1)}, [1, 3])) * 0.25), -2.0, 2.0))"]
        if r < 0.75:                       # a temporary used twice
            return [f"t0 = {self.tame(self.expr(names), in_loop)}",
                    f"{self.rng.choice(self.VECS[:3])} = "
                    f"{self.tame(f'(t0 * 0.5 + t0) - {self.atom(names)}', in_loop)}"]
        if r < 0.8 or depth >= 2:
            target = self.rng.choice(self.VECS)
            return [f"{target} = {self.tame(self.expr(names), in_loop)}"]
        if r < 0.83:                       # two locals, one array
            a, b = self.rng.sample(self.VECS, 2)
            return [f"{a} = {b}"]
        if r < 0.85 and not in_loop:       # a length only known when the graph runs
            target = self.rng.choice(self.VECS)
            return [f"{target} = tf.reshape({target}, [n * 0 + 3])"]
        if r < 0.88:                       # a nested tf.function that reads and updates
            target = self.rng.choice(["h0", "h1", "h2"])
            return [f"{target} = step({self.tame(self.expr(names, 1), True)})"]
        if r < 0.92:                       # a Keras optimizer step
            grads = [self.tame(self.expr(names, 1), True) for _ in range(2)]
            pair = self.rng.sample(self.VARS, 2)
            return [f"opt.apply_gradients(zip([{grads[0]}, {grads[1]}], [{pair[0]}, {pair[1]}]))"]
        return self.tape(names, depth, in_loop)

    def tape(self, names, depth, in_loop):
        """A GradientTape over Variables, the gradient taken after an update."""
        if self.rng.random() < 0.35:
            return self.dense_tape(in_loop)
        sources = self.rng.sample(self.VARS, self.rng.randint(1, 2))
        terms = []
        for src in sources:
            other = self.rng.choice(self.VECS + ["2.0"])
            terms.append(self.rng.choice([
                f"{src} * {src}", f"{src} * {other}", f"{other} * {src}",
                f"({src} * 2.0 - {other}) * {src}", f"{src} - {other}"]))
        persistent = self.rng.random() < 0.25
        lines = [f"with tf.GradientTape({'persistent=True' if persistent else ''}) as tape:",
                 f"    loss = tf.reduce_sum({' + '.join(terms)})"]
        if persistent:                     # a gradient before and after an update
            lines += [f"h0 = tape.gradient(loss, {sources[0]})",
                      f"{sources[0]}.assign_sub(h0 * 0.25)"]
        lines += self.rng.choice([
            [f"{sources[0]}.assign_sub({self.rng.choice(self.VECS)} * 0.25)"],
            [f"{sources[-1]}.assign_add({self.const_vec()})"],
            [f"{sources[0]}.assign({self.rng.choice(self.VECS)})"],
            []])
        if len(sources) == 1:
            lines.append(f"{self.rng.choice(['h1', 'h2'])} = tape.gradient(loss, {sources[0]})")
        else:
            lines += [f"g = tape.gradient(loss, [{sources[0]}, {sources[1]}])",
                      "h1 = g[0]", "h2 = g[1]"]
        lines.append(f"x = {self.tame('x + loss * 0.25', in_loop)}")
        return lines

    def dense_tape(self, in_loop):
        """A training step's shape: loss through a matmul with the matrix `m`,
        the gradient of m applied in place (by hand or by the optimizer)."""
        var, other = self.rng.choice(self.VARS), self.rng.choice(self.VECS)
        lines = ["with tf.GradientTape() as tape:",
                 f"    z = tf.reshape(tf.matmul(m, tf.reshape({var}, [3, 1])), [3])",
                 f"    loss = tf.reduce_sum(z * {other} + {var} * {var})",
                 f"g = tape.gradient(loss, [m, {var}])",
                 "h1 = g[1]"]
        step = "tf.clip_by_value(tf.floor(g[0]) * 0.25, -2.0, 2.0)"
        lines.append(self.rng.choice([f"m.assign_sub({step})",
                                      f"opt.apply_gradients(zip([{step}], [m]))"]))
        lines.append(f"h2 = {self.tame('z * 0.5 + h1', in_loop)}")
        return lines

    def program(self):
        lines = ["# `tf` is runtime, or (the native run) tools/fuzz.py's numpy stand-in;",
                 "# EAGER is True except in the graph run.", "import numpy as np", ""]
        for name, shape in (("v0", 3), ("v1", 3), ("m", 9)):
            vals = [self.quarter() for _ in range(shape)]
            if shape == 9:
                vals = [f"[{', '.join(vals[k:k + 3])}]" for k in (0, 3, 6)]
            lines.append(f"a_{name} = np.array([{', '.join(vals)}])")
            lines.append(f"{name} = tf.Variable(a_{name})")
        lines.append(f"sv = tf.Variable({self.quarter()}, dtype=tf.float64)")
        momentum = self.rng.choice(["0.0", "0.5"])
        nesterov = ", nesterov=True" if momentum != "0.0" and self.rng.random() < 0.5 else ""
        rate = self.rng.choice(["0.5", "0.25"])
        lines.append(f"opt = tf.keras.optimizers.SGD(learning_rate={rate}, "
                     f"momentum={momentum}{nesterov})")
        var = self.rng.choice(["v0", "v1"])
        lines += ["", "", "@tf.function", "def step(d):", f"    r = {var}.read_value()",
                  f"    {var}.{self.rng.choice(['assign_add', 'assign_sub'])}(d * 0.5)",
                  "    " + self.rng.choice(["return r", f"return {var}.read_value() - r",
                                             "return (r + d) * 0.5", f"return {var} * 1.0"])]
        body = ["h0 = v0.read_value()", "h1 = tf.identity(v1)", "h2 = x * 1.0", "t0 = y + 0.0",
                "c0 = sv + 0"]
        if self.rng.random() < 0.4:        # the graph knows x's length only when it runs
            body.insert(0, "x = tf.reshape(x, [n * 0 + 3])")
        body += self.block(["x"], 0, False, 6)
        body += ["out = []"]
        body += [f"out.append({name})" for name in self.VECS + ["c0"]]
        body += [f"out.append({var}.read_value())" for var in ("v0", "v1", "w", "m", "sv")]
        body += [f"out.append({self.expr(['x'])})", "return out"]
        lines.append("")
        lines.append("def main(x, y, n, w):")
        lines += _indent(body)
        return "\n".join(lines) + "\n"


GENERATORS = {"default": Generator, "composites": CompositeGenerator,
              "closures": ClosureGenerator, "mutations": MutationGenerator,
              "variables": VariableGenerator}


# --- the three runs ---------------------------------------------------------------

_program_dir = []       # [the folder of this process's program files], made on first use


def _programs_folder():
    """A private temporary folder for the program files, removed at exit."""
    if not _program_dir:
        folder = tempfile.mkdtemp(prefix="autograph_fuzz_")
        atexit.register(shutil.rmtree, folder, True)
        _program_dir.append(folder)
    return _program_dir[0]


def load(source, seed, env=None):
    """Exec `source` from a real file (so inspect.getsource works); return its
    namespace (which starts with the names in `env`)."""
    path = os.path.join(_programs_folder(), f"fuzz_prog_{seed}_{abs(hash(source))}.py")
    with open(path, "w") as fh:
        fh.write(source)
    namespace = {"__name__": f"fuzz_prog_{seed}", "__file__": path, **(env or {})}
    exec(compile(source, path, "exec"), namespace)
    return namespace


def _outcome(call):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = call()
        return ("ok", _plain(value))
    except Exception as e:  # noqa: BLE001 - the exception type is the result
        return ("raised", type(e).__name__ + ": " + str(e).splitlines()[0] if str(e) else "")


def _plain(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    try:
        return int(value)
    except (TypeError, ValueError):
        return repr(value)


@_strict
def three_runs(source, seed, inputs=INPUTS):
    """[(inputs, original, converted, graph)] for each input triple."""
    import autograph
    import runtime as tf
    ns = load(source, seed)
    main = ns["main"]
    converted = autograph.to_graph(main)
    graph_fn = tf.function(main)
    rows = []
    for a, b, v in inputs:
        orig = _outcome(lambda: main(a, b, list(v)))
        conv = _outcome(lambda: converted(a, b, list(v)))
        graph = _outcome(lambda: graph_fn(tf.constant(a), tf.constant(b), tf.constant(v)))
        rows.append(((a, b, v), orig, conv, graph))
    return rows


def mismatches(rows):
    return [r for r in rows if not (r[1] == r[2] == r[3])]


# --- shrinking ------------------------------------------------------------------

def shrink(source, seed):
    """Delete statements (and whole blocks) while the program still disagrees
    in the same way (see `_kind`) and the original still returns ints."""
    lines = source.splitlines()
    kind = _kind(three_runs(source, seed))
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            for j in range(len(lines), i, -1):
                candidate = lines[:i] + lines[j:]
                text = "\n".join(candidate) + "\n"
                if _still_fails(text, seed, kind):
                    lines, changed = candidate, True
                    break
            if changed:
                break
    return "\n".join(lines) + "\n"


def _kind(rows):
    """How the runs disagree: per mismatching row, 'ok' or the exception
    class of each run. A shrink step must keep it, so deleting a statement
    cannot swap a real bug for a different failure (for example a name the
    deletion left undefined in a branch only the graph traces)."""
    return {tuple(r[0] if r[0] == "ok" else r[1].split(":")[0] for r in row[1:])
            for row in mismatches(rows)}


def _still_fails(source, seed, kind=None):
    try:
        compile(source, "<shrink>", "exec")
        textwrap.dedent(source)
        if "def main" not in source or not terminates(source):
            return False
        rows = three_runs(source, seed)
        if not all(r[1][0] == "ok" and isinstance(r[1][1], int) for r in rows):
            return False
        return bool(mismatches(rows)) and (kind is None or _kind(rows) == kind)
    except Exception:  # noqa: BLE001 - an invalid candidate is simply rejected
        return False


def report(source, seed, rows):
    print(f"MISMATCH (seed {seed})")
    print(source)
    for inputs, orig, conv, graph in mismatches(rows):
        print(f"  inputs {inputs}: original={orig} converted={conv} graph={graph}")


# --- the four runs of the extra modes --------------------------------------------------
#
# native, converted (Python values), eager (main called on eager tensors) and
# graph (runtime.function). An outcome is ("ok", value, printed) or
# ("raised", "TypeName", message, printed). Printed output is compared for the
# converted and eager runs (tensors printed as their value); a graph prints
# while it is traced, once, as tf.function does, so its printing is not.

RUNS = ("native", "converted", "eager", "graph")
REFUSAL_TYPES = ("ValueError", "TypeError", "NotImplementedError", "AttributeError")
INTERNAL_TYPES = ("AttributeError", "KeyError", "UnboundLocalError", "NameError")
INTERNAL_TEXT = ("belongs to graph", "Undefined(", "object has no attribute",
                 "the transpiler failed")
# a ValueError/TypeError with a location is still no clear refusal when its
# message is an implementation's own complaint, not one naming the construct
LEAKED_TEXT = ("object is not subscriptable", "object is not iterable", "is not callable",
               "pred must be a scalar")
_LOCATION = re.compile(r"[\w./\\<>-]+\.py:\d+|<[\w ]+>:\d+")
_TENSOR_STR = re.compile(r"tf\.Tensor\(([^,()]+), shape=\(\), dtype=\w+\)")


RUN_TIMEOUT_S = 10.0      # a run that takes longer (a staged loop that never ends) fails


class RunTimeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds):
    """Raise RunTimeout in the main thread after `seconds` (where SIGALRM exists)."""
    import signal
    import threading
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise RunTimeout(f"the run took more than {seconds:g} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _outcome4(call, seconds=None, plain=_plain):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings(), \
                _time_limit(seconds or RUN_TIMEOUT_S):
            warnings.simplefilter("ignore")
            value = call()
        return ("ok", plain(value), _TENSOR_STR.sub(r"\1", out.getvalue()))
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return ("raised", type(e).__name__, str(e), _TENSOR_STR.sub(r"\1", out.getvalue()))


@_strict
def four_runs(source, seed, inputs=INPUTS):
    """[(inputs, native, converted, eager, graph)] for each input triple."""
    import autograph
    import runtime as tf
    ns = load(source, seed)
    main = ns["main"]
    made = {}
    for name, make in (("converted", lambda: autograph.to_graph(main)),
                       ("graph", lambda: tf.function(main))):
        try:
            made[name] = make()
        except Exception as e:  # noqa: BLE001 - a failed conversion is an outcome
            made[name] = e
    rows = []
    for a, b, v in inputs:
        def use(name, *args):
            fn = made[name]
            if isinstance(fn, Exception):
                raise fn
            return fn(*args)
        native = _outcome4(lambda: main(a, b, list(v)))
        conv = _outcome4(lambda: use("converted", a, b, list(v)))
        eager = _outcome4(lambda: main(tf.constant(a), tf.constant(b), tf.constant(v)))
        graph = _outcome4(lambda: use("graph", tf.constant(a), tf.constant(b), tf.constant(v)))
        rows.append(((a, b, v), native, conv, eager, graph))
    return rows


def _same(native, other, compare_printed=True):
    if native[0] != other[0]:
        return False
    if native[0] == "ok":
        return native[1] == other[1] and (not compare_printed or native[2] == other[2])
    return native[1] == other[1] and (not compare_printed or native[3] == other[3])


def is_internal(outcome):
    """An exception that looks like the transpiler's own failure (an
    AttributeError that names the user's file:line and is not Python's own
    "object has no attribute" is a clear error, not an internal one)."""
    if outcome[0] != "raised":
        return False
    if any(t in outcome[2] for t in INTERNAL_TEXT):
        return True
    if outcome[1] == "AttributeError" and _LOCATION.search(outcome[2]):
        return False
    return outcome[1] in INTERNAL_TYPES


def is_refusal(outcome):
    """A clear refusal: a ValueError/TypeError/NotImplementedError whose
    message names a file:line (and does not look internal), or the documented
    run-time check of a tensor loop that must run once to define a name."""
    if outcome[0] != "raised" or not _LOCATION.search(outcome[2]):
        return False
    if outcome[1] == "InvalidArgumentError":
        return "the loop must iterate at least once to define" in outcome[2]
    return (outcome[1] in REFUSAL_TYPES and not is_internal(outcome)
            and not any(t in outcome[2] for t in LEAKED_TEXT))


def judge(row):
    """'ok', 'refused', 'mismatch' or 'internal' (an internal error, also a
    mismatch) for one row of `four_runs`."""
    native, verdicts = row[1], []
    for name, outcome in zip(RUNS[1:], row[2:]):
        if _same(native, outcome, compare_printed=name != "graph"):
            continue
        if native[0] == "ok" and is_internal(outcome):
            verdicts.append("internal")
        elif native[0] == "ok" and name in ("eager", "graph") and is_refusal(outcome):
            verdicts.append("refused")
        else:
            verdicts.append("mismatch")
    for worst in ("internal", "mismatch", "refused"):
        if worst in verdicts:
            return worst
    return "ok"


def judge_program(rows):
    verdicts = {judge(r) for r in rows}
    for worst in ("internal", "mismatch", "refused"):
        if worst in verdicts:
            return worst
    return "ok"


def bad_rows(rows):
    return [r for r in rows if judge(r) in ("mismatch", "internal")]


def _kind4(rows):
    """Per mismatching row: '=' for a run that agrees with the native one,
    else 'ok' or the exception class (see `_kind`)."""
    kinds = set()
    for row in bad_rows(rows):
        native = row[1]
        kinds.add(tuple("=" if _same(native, o, name != "graph") else
                        ("ok" if o[0] == "ok" else o[1])
                        for name, o in zip(RUNS[1:], row[2:])))
    return kinds


def shrink4(source, seed, inputs=INPUTS, budget_s=60.0, runs=None):
    """`shrink` for the four-run modes: on the inputs that disagree, keeping
    the kind of disagreement; gives up (keeping the best so far) after
    `budget_s` seconds. `runs` is `four_runs` or `variable_runs`."""
    runs = runs or four_runs
    rows = runs(source, seed, inputs)
    inputs = [r[0] for r in bad_rows(rows)] or list(inputs)
    kind = _kind4(runs(source, seed, inputs))
    deadline = time.monotonic() + budget_s
    seen = {}

    def fails(text):
        if text not in seen:
            seen[text] = _still_fails4(text, seed, inputs, kind, runs)
        return seen[text]

    return _delete_lines(source, fails, deadline)


def _delete_lines(source, fails, deadline):
    """Delete runs of lines while `fails(text)` stays true, until `deadline`."""
    lines = source.splitlines()
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for i in range(len(lines)):
            for j in range(len(lines), i, -1):
                if time.monotonic() > deadline:
                    break
                candidate = lines[:i] + lines[j:]
                if fails("\n".join(candidate) + "\n"):
                    lines, changed = candidate, True
                    break
            if changed:
                break
    return "\n".join(lines) + "\n"


_WHILE = re.compile(r"^(\s*)while (i\d+) <")


def terminates(source):
    """Every generated `while iN < K and ...:` is followed by its
    `iN = iN + 1`; a candidate that deleted it could loop forever."""
    lines = source.splitlines()
    for k, line in enumerate(lines):
        m = _WHILE.match(line)
        if m and (k + 1 >= len(lines)
                  or lines[k + 1] != f"{m.group(1)}    {m.group(2)} = {m.group(2)} + 1"):
            return False
    return True


def names_are_bound(source):
    """Every name the program reads is bound somewhere in it (or is a
    builtin): a shrink step that deleted the only assignment of a name would
    turn a real bug into a NameError that only tracing both branches hits."""
    import ast
    import builtins
    tree = ast.parse(source)
    bound = set(dir(builtins))
    read = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read <= bound


def _still_fails4(source, seed, inputs, kind, runs=None):
    try:
        compile(source, "<shrink>", "exec")
        if "def main" not in source or not terminates(source) or not names_are_bound(source):
            return False
        rows = (runs or four_runs)(source, seed, inputs)
        if not all(r[1][0] == "ok" and (runs not in (None, four_runs)
                                        or isinstance(r[1][1], int)) for r in rows):
            return False
        return bool(bad_rows(rows)) and _kind4(rows) == kind
    except Exception:  # noqa: BLE001 - an invalid candidate is simply rejected
        return False


def _show(outcome, printed=True):
    if outcome[0] == "ok":
        text = f"ok {outcome[1]}"
    else:
        text = f"{outcome[1]}: {outcome[2].splitlines()[0] if outcome[2] else ''}"
    if printed and outcome[-1]:
        text += f" printed {outcome[-1]!r}"
    return text


def report4(source, seed, rows, mode):
    verdict = judge_program(rows)
    print(f"MISMATCH (seed {seed}, mode {mode}"
          + (", internal error)" if verdict == "internal" else ")"))
    print(source)
    for row in bad_rows(rows):
        print(f"  inputs {row[0]}: " + "  ".join(
            f"{name}=[{_show(o, name != 'graph')}]" for name, o in zip(RUNS, row[1:])))


def _cut_locations(text):
    """`text` without its '(file.py:N: source)' parentheticals."""
    while True:
        where = _LOCATION.search(text)
        if not where:
            return text
        open_at = text.rfind("(", 0, where.start())
        if open_at < 0:
            return text[:where.start()] + text[where.end():]
        depth, k = 0, open_at
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                break
            k += 1
        text = text[:open_at].rstrip() + text[k + 1:]


def refusal_key(message):
    """A refusal message without its file:line parts, object addresses and
    the quoted names or statements, so one refusal made by many programs
    (or of many names) is counted once."""
    first = message.splitlines()[0] if message else ""
    first = _cut_locations(first)
    first = re.sub(r"<function (?:\S*\.)?([^.\s]+) at 0x[0-9a-f]+>", r"<function \1>", first)
    first = re.sub(r"<(?:\S*\.)?(\w+) object at 0x[0-9a-f]+>", r"<\1 object>", first)
    # a quote ends a quoted name or statement where a space, the end or
    # closing punctuation follows it; other quotes are inside (d['w'])
    return re.sub(r"'(?:[^']|'(?!\s|$|[.:;)](?:\s|$)))*'", "'_'", first)


def signature(rows):
    """A coarse name for how a program disagrees (per run: agrees, another
    value, or the exception with names, numbers and locations blanked), so
    only the first programs of each kind are shrunk."""
    parts = set()
    for row in bad_rows(rows):
        sig = []
        for name, o in zip(RUNS[1:], row[2:]):
            if _same(row[1], o, name != "graph"):
                sig.append("=")
            elif o[0] == "ok":
                sig.append("value" if o[1] != row[1][1] else "printed")
            else:
                text = re.sub(r"\d+|<[^>]*>", "_", refusal_key(o[2]))[:70]
                sig.append(f"{o[1]}: {text}")
        parts.add(tuple(sig))
    return tuple(sorted(parts))


def run_mode(count, seed, mode, verbose=False, do_shrink=True, inputs=None, quiet=False,
             shrink_per_kind=2):
    """Fuzz `count` programs of `mode` from `seed`; returns a dict of counts:
    programs, mismatches, internal, refused, and refusals
    ({message without location: [count, first message]})."""
    gen = GENERATORS[mode]
    runs, mode_inputs = RUNNERS.get(mode, (four_runs, INPUTS))
    inputs = mode_inputs if inputs is None else inputs
    stats = {"programs": count, "mismatches": 0, "internal": 0, "refused": 0,
             "refusals": {}, "failing": [], "kinds": {}}
    for k in range(count):
        s = seed * 1_000_003 + k
        source = gen(s).program()
        rows = runs(source, s, inputs)
        verdict = judge_program(rows)
        keys = {}          # counted once per program
        for row in rows:
            for name, o in zip(RUNS[1:], row[2:]):
                if name in ("eager", "graph") and row[1][0] == "ok" and is_refusal(o):
                    keys.setdefault(f"{o[1]}: {refusal_key(o[2])}", f"{o[1]}: {o[2]}")
        for key, message in keys.items():
            stats["refusals"].setdefault(key, [0, message])[0] += 1
        if verdict in ("mismatch", "internal"):
            stats["mismatches"] += 1
            stats["internal"] += verdict == "internal"
            sig = signature(rows)
            seen = stats["kinds"].setdefault(sig, [])
            seen.append(s)
            if do_shrink and len(seen) <= shrink_per_kind:
                source = shrink4(source, s, inputs, runs=runs)
                rows = runs(source, s, inputs)
            elif len(seen) > shrink_per_kind:
                if not quiet:
                    print(f"MISMATCH (seed {s}, mode {mode}): as seed {seen[0]}, not shrunk")
                stats["failing"].append((s, source))
                continue
            stats["failing"].append((s, source))
            if not quiet:
                report4(source, s, rows, mode)
        else:
            stats["refused"] += verdict == "refused"
            if verbose and not quiet:
                print(f"seed {s}: {verdict}")
    return stats


def run(count, seed, verbose=False, do_shrink=True):
    """Fuzz `count` programs from `seed`; return the number of mismatches."""
    failures = 0
    for k in range(count):
        s = seed * 1_000_003 + k
        source = Generator(s).program()
        rows = three_runs(source, s)
        if mismatches(rows):
            failures += 1
            if do_shrink:
                source = shrink(source, s)
                rows = three_runs(source, s)
            report(source, s, rows)
        elif verbose:
            print(f"seed {s}: ok")
    return failures


# --- the --variables runs: a numpy stand-in for `tf` is the reference ---------------
#
# A program of VariableGenerator is loaded four times, each a new module
# instance with fresh Variables: natively (`tf` is the stand-in below, whose
# Variable reads return copies, so Python semantics are the reference),
# converted (autograph.to_graph(main) with the stand-in), eagerly (`tf` is
# runtime) and as a graph (runtime.function(main)). Each run calls main twice
# on the row's two inputs with one Variable `w` and only then converts what
# both calls returned, the Variables' final values and the module's initial
# arrays to floats: a value handed out earlier must not have changed since.

VAR_INPUTS = [
    (([0.5, -1.0, 2.0], [1.0, 0.25, -0.5], 0), ([1.5, 0.0, -0.75], [0.5, 0.5, 2.0], 1),
     [0.25, 1.0, -1.5]),
    (([-0.25, 1.5, 0.75], [2.0, -1.0, 0.5], 3), ([1.0, 1.0, -1.0], [-0.5, 0.75, 1.25], 2),
     [1.0, -0.5, 0.0]),
    (([1.0, 2.0, -2.0], [0.0, -1.5, 1.0], 1), ([0.25, -0.25, 0.5], [1.0, 2.0, -1.0], 3),
     [-1.0, 0.75, 2.0]),
]


def _np_value(x):
    import numpy as np
    if isinstance(x, _NativeVariable):
        return x._value.copy()
    if isinstance(x, _Traced):
        return x.value
    return np.asarray(x)


class _Traced:
    """A value computed from Variables read under a native GradientTape: its
    parents and their vector-Jacobian products, for the stand-in's gradient."""

    __array_ufunc__ = None       # ndarray * _Traced defers to _Traced.__rmul__

    def __init__(self, value, parents=(), variable=None):
        self.value, self.parents, self.variable = value, parents, variable

    def numpy(self):
        return self.value

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        return np.asarray(self.value, dtype=dtype)

    def _op(self, other, f, vjp_self, vjp_other):
        """f(self, other), recorded with the vjps (g, a, b) -> gradient of a or b."""
        a, b = self.value, _np_value(other)
        if not _NativeTF.tapes:
            return f(a, b)
        parents = [(self, lambda g: vjp_self(g, a, b))]
        if isinstance(other, _NativeVariable):
            other = other.read_value()
        if isinstance(other, _Traced):
            parents.append((other, lambda g: vjp_other(g, a, b)))
        return _Traced(f(a, b), parents)

    def __add__(self, o):
        return self._op(o, lambda a, b: a + b, lambda g, a, b: g, lambda g, a, b: g)

    def __radd__(self, o):
        return self + o

    def __sub__(self, o):
        return self._op(o, lambda a, b: a - b, lambda g, a, b: g, lambda g, a, b: -g)

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        return self._op(o, lambda a, b: a * b, lambda g, a, b: g * b, lambda g, a, b: g * a)

    def __rmul__(self, o):
        return self * o

    def __neg__(self):
        return self * -1.0


def _unbroadcast(g, shape):
    import numpy as np
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    return g


class _NativeTape:
    def __init__(self, persistent=False):
        self.persistent = persistent

    def __enter__(self):
        _NativeTF.tapes.append(self)
        return self

    def __exit__(self, *exc):
        _NativeTF.tapes.remove(self)

    def gradient(self, target, sources):
        import numpy as np
        many = isinstance(sources, (list, tuple))
        sources = list(sources) if many else [sources]
        grads = {id(s): None for s in sources}
        if isinstance(target, _Traced):
            order, seen = [], set()

            def visit(t):              # reverse topological order from the target
                if id(t) in seen:
                    return
                seen.add(id(t))
                for parent, _ in t.parents:
                    visit(parent)
                order.append(t)
            visit(target)
            upstream = {id(target): np.ones_like(target.value)}
            for t in reversed(order):
                g = upstream.get(id(t))
                if g is None:
                    continue
                if t.variable is not None and id(t.variable) in grads:
                    old = grads[id(t.variable)]
                    grads[id(t.variable)] = g if old is None else old + g
                for parent, vjp in t.parents:
                    pg = _unbroadcast(vjp(g), np.shape(parent.value))
                    old = upstream.get(id(parent))
                    upstream[id(parent)] = pg if old is None else old + pg
        out = [grads[id(s)] for s in sources]
        return out if many else out[0]


class _NativeVariable:
    """The stand-in tf.Variable: reads and `np.asarray` return copies."""

    __array_ufunc__ = None

    def __init__(self, initial_value, dtype=None):
        import numpy as np
        self._value = np.array(_np_value(initial_value), dtype=np.float64)

    def read_value(self):
        value = self._value.copy()
        return _Traced(value, variable=self) if _NativeTF.tapes else value

    value = read_value

    def numpy(self):
        return self._value.copy()

    def __array__(self, dtype=None, copy=None):
        return self._value.copy()

    def assign(self, value, read_value=True):
        import numpy as np
        new = np.array(_np_value(value), dtype=np.float64)
        if new.shape != self._value.shape:
            raise ValueError(f"Variable.assign: shape {new.shape} != {self._value.shape}")
        self._value = new
        return self.read_value() if read_value else None

    def assign_add(self, delta, read_value=True):
        return self.assign(self._value + _np_value(delta), read_value)

    def assign_sub(self, delta, read_value=True):
        return self.assign(self._value - _np_value(delta), read_value)

    def __add__(self, o):
        return self.read_value() + o

    def __radd__(self, o):
        return o + self.read_value()

    def __sub__(self, o):
        return self.read_value() - o

    def __rsub__(self, o):
        return o - self.read_value()

    def __mul__(self, o):
        return self.read_value() * o

    def __rmul__(self, o):
        return o * self.read_value()

    def __neg__(self):
        return -self.read_value()


class _NativeSGD:
    """Keras 3's SGD: m = momentum * m - lr * g; var += m (nesterov:
    var += momentum * m - lr * g); without momentum var -= lr * g."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False):
        self.lr, self.momentum, self.nesterov = learning_rate, momentum, nesterov
        self.slots = {}

    def apply_gradients(self, pairs):
        for grad, var in pairs:
            g = _np_value(grad)
            if not self.momentum:
                var.assign_sub(g * self.lr)
                continue
            m = self.slots.setdefault(id(var), _NativeVariable(var._value * 0.0))
            m.assign(m._value * self.momentum - g * self.lr)
            var.assign_add(m._value * self.momentum - g * self.lr if self.nesterov
                           else m._value)


class _NativeTF:
    """The names the --variables programs use from `tf`, on numpy values."""

    tapes = []
    float64 = "float64"
    Variable = _NativeVariable
    GradientTape = _NativeTape

    class keras:
        class optimizers:
            SGD = _NativeSGD

    @staticmethod
    def function(fn):
        return fn

    @staticmethod
    def constant(value, dtype=None):
        import numpy as np
        return np.array(value, dtype=np.float64)

    @staticmethod
    def identity(x):
        return _np_value(x).copy()

    @staticmethod
    def range(n):
        return range(int(n))

    @staticmethod
    def cast(x, dtype):
        import numpy as np
        return np.float64(x)

    @staticmethod
    def reshape(x, shape):
        import numpy as np
        value = np.reshape(_np_value(x), [int(d) for d in shape])
        if isinstance(x, _NativeVariable) and _NativeTF.tapes:
            x = x.read_value()
        if isinstance(x, _Traced) and _NativeTF.tapes:
            return _Traced(value, [(x, lambda g: np.reshape(g, np.shape(x.value)))])
        return value

    @staticmethod
    def matmul(a, b):
        import numpy as np
        if not _NativeTF.tapes:
            return np.matmul(_np_value(a), _np_value(b))
        a, b = [x.read_value() if isinstance(x, _NativeVariable) else x for x in (a, b)]
        av, bv = _np_value(a), _np_value(b)
        parents = [(t, vjp) for t, vjp in ((a, lambda g: g @ bv.T), (b, lambda g: av.T @ g))
                   if isinstance(t, _Traced)]
        return _Traced(av @ bv, parents) if parents else av @ bv

    @staticmethod
    def floor(x):
        import numpy as np
        return np.floor(_np_value(x))

    @staticmethod
    def clip_by_value(x, lo, hi):
        import numpy as np
        return np.clip(_np_value(x), lo, hi)

    @staticmethod
    def reduce_sum(x):
        import numpy as np
        if isinstance(x, _Traced) and _NativeTF.tapes:
            return _Traced(np.sum(x.value), [(x, lambda g: g * np.ones_like(x.value))])
        return np.sum(_np_value(x))


def _floats(value):
    """Everything a --variables run returned as nested lists of floats ('nan'
    for NaN, so two NaNs agree)."""
    import numpy as np
    if isinstance(value, (list, tuple)):
        return [_floats(v) for v in value]
    if value is None:
        return None
    if hasattr(value, "numpy"):
        value = value.numpy()
    flat = np.asarray(value, dtype=np.float64)
    return [("nan" if f != f else f) for f in flat.ravel().tolist()] + [list(flat.shape)]


@_strict
def variable_runs(source, seed, inputs=None):
    """[(inputs, native, converted, eager, graph)] for each row of VAR_INPUTS:
    each run on a new module instance, main called on both inputs of the row."""
    import autograph
    import runtime as tf
    inputs = VAR_INPUTS if inputs is None else inputs
    rows = []
    for first, second, w_init in inputs:
        outcomes = []
        for name in RUNS:
            tfm = _NativeTF if name in ("native", "converted") else tf

            def run(name=name, tfm=tfm):
                _NativeTF.tapes.clear()
                ns = load(source, seed, {"tf": tfm, "EAGER": name != "graph"})
                fn = {"native": lambda: ns["main"], "eager": lambda: ns["main"],
                      "converted": lambda: autograph.to_graph(ns["main"]),
                      "graph": lambda: tf.function(ns["main"])}[name]()
                w = tfm.Variable(tfm.constant(w_init, dtype=tfm.float64))
                args = [[tfm.constant(x, dtype=tfm.float64), tfm.constant(y, dtype=tfm.float64),
                         n if tfm is _NativeTF else tfm.constant(n)] for x, y, n in (first, second)]
                held = [fn(*args[0], w), fn(*args[1], w)]
                return held + [[ns["v0"], ns["v1"], ns["m"], ns["sv"], w],
                               [ns["a_v0"], ns["a_v1"], ns["a_m"]]]
            outcomes.append(_outcome4(run, plain=_floats))
        rows.append(((first, second, w_init), *outcomes))
    return rows


RUNNERS = {"variables": (variable_runs, VAR_INPUTS)}


# --- the JAX backend: --backend jax -------------------------------------------------------
#
# Each program runs natively and as `jax.jit(autograph.to_graph(main))` on int32
# arrays. A row is (inputs, native, jax); outcomes as in `_outcome4`. The jit
# prints while tracing, so printed output is not compared. A clear refusal
# (see `is_refusal`) where Python succeeded is counted apart.

JAX_RUN_TIMEOUT_S = 120.0     # the first call compiles: XLA takes seconds on a busy machine


@_strict
def jax_runs(source, seed, inputs=INPUTS):
    """[(inputs, native, jax)] for each input triple."""
    import jax
    import jax.numpy as jnp
    import autograph
    main = load(source, seed)["main"]
    try:
        jitted = jax.jit(autograph.to_graph(main))
    except Exception as e:  # noqa: BLE001 - a failed conversion is an outcome
        jitted = e
    rows = []
    for a, b, v in inputs:
        def staged():
            if isinstance(jitted, Exception):
                raise jitted
            return jitted(jnp.int32(a), jnp.int32(b), jnp.asarray(v, jnp.int32))
        rows.append(((a, b, v), _outcome4(lambda: main(a, b, list(v))),
                     _outcome4(staged, JAX_RUN_TIMEOUT_S)))
    return rows


def judge_jax(row):
    """'ok', 'refused', 'mismatch' or 'internal' for one row of `jax_runs`."""
    native, staged = row[1], row[2]
    if _same(native, staged, compare_printed=False):
        return "ok"
    if native[0] == "ok" and is_internal(staged):
        return "internal"
    if native[0] == "ok" and is_refusal(staged):
        return "refused"
    return "mismatch"


def _judge_jax_program(rows):
    verdicts = {judge_jax(r) for r in rows}
    return next((v for v in ("internal", "mismatch", "refused") if v in verdicts), "ok")


def shrink_jax(source, seed, inputs=INPUTS, budget_s=60.0):
    """Delete statements while the program still disagrees the same way."""
    def kind(rows):
        return {(judge_jax(r), r[2][1] if r[2][0] == "raised" else "value") for r in rows
                if judge_jax(r) != "ok"}
    want = kind(jax_runs(source, seed, inputs))

    def fails(text):
        try:
            compile(text, "<shrink>", "exec")
            if "def main" not in text or not terminates(text) or not names_are_bound(text):
                return False
            rows = jax_runs(text, seed, inputs)
            return all(r[1][0] == "ok" for r in rows) and kind(rows) == want
        except Exception:  # noqa: BLE001 - an invalid candidate is simply rejected
            return False
    return _delete_lines(source, fails, time.monotonic() + budget_s)


def run_jax(count, seed, mode="default", do_shrink=True, inputs=INPUTS, quiet=False):
    """Fuzz `count` programs on the JAX backend; a dict of counts as `run_mode`'s."""
    gen = GENERATORS[mode]
    stats = {"programs": count, "mismatches": 0, "internal": 0, "refused": 0,
             "refusals": {}, "failing": []}
    for k in range(count):
        s = seed * 1_000_003 + k
        source = gen(s).program()
        rows = jax_runs(source, s, inputs)
        verdict = _judge_jax_program(rows)
        keys = {f"{r[2][1]}: {refusal_key(r[2][2])}": f"{r[2][1]}: {r[2][2]}"
                for r in rows if judge_jax(r) == "refused"}
        for key, message in keys.items():
            stats["refusals"].setdefault(key, [0, message])[0] += 1
        if verdict in ("mismatch", "internal"):
            stats["mismatches"] += 1
            stats["internal"] += verdict == "internal"
            if do_shrink and len(stats["failing"]) < 3:
                source = shrink_jax(source, s, inputs)
                rows = jax_runs(source, s, inputs)
            stats["failing"].append((s, source))
            if not quiet:
                print(f"MISMATCH (seed {s}, backend jax"
                      + (", internal error)" if verdict == "internal" else ")"))
                print(source)
                for row in rows:
                    if judge_jax(row) != "ok":
                        print(f"  inputs {row[0]}: native=[{_show(row[1], False)}]  "
                              f"jax=[{_show(row[2], False)}]")
        else:
            stats["refused"] += verdict == "refused"
    return stats


def _print_refusals(stats):
    for key, (count, message) in sorted(stats["refusals"].items(), key=lambda e: -e[1][0]):
        print(f"REFUSED x{count}: {key}")
        print(f"    for example: {message.splitlines()[0]}")
    print(f"internal errors: {stats['internal']} (counted as mismatches)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", action="store_true", help="print one program and exit")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--composites", dest="mode", action="store_const", const="composites",
                       help="state in dicts, attributes and lists; aliases; nesting")
    modes.add_argument("--closures", dest="mode", action="store_const", const="closures",
                       help="lambdas and nested defs, late binding, nonlocal")
    modes.add_argument("--mutations", dest="mode", action="store_const", const="mutations",
                       help="append/pop/extend/insert/del/update/setdefault/next in control flow")
    modes.add_argument("--variables", dest="mode", action="store_const", const="variables",
                       help="float vectors and tf.Variables: reads held across updates, "
                            "reused temporaries, matmul, gradient tapes")
    parser.add_argument("--backend", choices=("runtime", "jax"), default="runtime",
                        help="jax: run each program natively and as "
                             "jax.jit(autograph.to_graph(main)) on int32 arrays")
    args = parser.parse_args(argv)
    mode = args.mode or "default"
    if args.show:
        print(GENERATORS[mode](args.seed).program())
        return 0
    if args.backend == "jax":
        if mode == "variables":
            parser.error("--variables runs on the runtime only (its programs use tf.Variable)")
        stats = run_jax(args.count, args.seed, mode, not args.no_shrink)
        _print_refusals(stats)
        print(f"fuzz: {args.count} programs, seed {args.seed}, mode {mode}, backend jax, "
              f"{stats['mismatches']} mismatches, {stats['refused']} refused")
        return 1 if stats["mismatches"] else 0
    if mode == "default":
        failures = run(args.count, args.seed, args.verbose, not args.no_shrink)
        print(f"fuzz: {args.count} programs, seed {args.seed}, {failures} mismatches")
        return 1 if failures else 0
    stats = run_mode(args.count, args.seed, mode, args.verbose, not args.no_shrink)
    _print_refusals(stats)
    print(f"fuzz: {args.count} programs, seed {args.seed}, mode {mode}, "
          f"{stats['mismatches']} mismatches, {stats['refused']} refused")
    return 1 if stats["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
