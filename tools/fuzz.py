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
"""

import argparse
import atexit
import contextlib
import io
import os
import random
import shutil
import sys
import tempfile
import textwrap
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:          # `python tools/fuzz.py` from anywhere
    sys.path.insert(0, ROOT)

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


# --- the three runs ---------------------------------------------------------------

_program_dir = []       # [the folder of this process's program files], made on first use


def _programs_folder():
    """A private temporary folder for the program files, removed at exit."""
    if not _program_dir:
        folder = tempfile.mkdtemp(prefix="autograph_fuzz_")
        atexit.register(shutil.rmtree, folder, True)
        _program_dir.append(folder)
    return _program_dir[0]


def load(source, seed):
    """Exec `source` from a real file (so inspect.getsource works); return its namespace."""
    path = os.path.join(_programs_folder(), f"fuzz_prog_{seed}_{abs(hash(source))}.py")
    with open(path, "w") as fh:
        fh.write(source)
    namespace = {"__name__": f"fuzz_prog_{seed}", "__file__": path}
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
        if "def main" not in source:
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", action="store_true", help="print one program and exit")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.show:
        print(Generator(args.seed).program())
        return 0
    failures = run(args.count, args.seed, args.verbose, not args.no_shrink)
    print(f"fuzz: {args.count} programs, seed {args.seed}, {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
