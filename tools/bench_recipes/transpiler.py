"""The transpiler's workloads: the first call of a new 30-line function
(convert, trace, optimize, compile, run) and `to_code` of a 1,000-line
module. `generated_module` also feeds the JAX conversion row."""

import ast
import atexit
import copy
import os
import shutil
import time

import runtime as tf
from tools.bench_recipes import base
from tools.bench_recipes.base import Unavailable, constant


_THIRTY_LINES = '''
def f_{i}(x, n):
    """A 30-line function with nested loops and branches (block {i})."""
    total = x * 0
    i = 0
    while i < n:
        j = 0
        while j < 3:
            if x > 0:
                total += x * j
            elif x < -5:
                total -= 1
            else:
                total += 2
            j += 1
        if total > 100:
            break
        i += 1
    for k in range(4):
        if k % 2 == 0:
            continue
        total += k
    if total > 50:
        total = total - 50
    else:
        total = total + 1
    while total > 1000:
        total = total // 2
    return total

'''


def generated_module(blocks):
    """Import a module of `blocks` generated 30-line functions; return them."""
    import importlib.util
    import tempfile
    src = "".join(_THIRTY_LINES.format(i=i) for i in range(blocks))
    folder = tempfile.mkdtemp(prefix="bench_ag_")
    atexit.register(shutil.rmtree, folder, True)     # read (for conversion) until exit
    path = os.path.join(folder, f"gen_{blocks}.py")
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location(f"gen_{blocks}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [getattr(module, f"f_{i}") for i in range(blocks)], src.count("\n")


# --- a machine-speed reference -----------------------------------------------------
#
# The first call is Python work (parsing, tree walks, dicts, compile()), so its
# thread CPU time moves with the machine: the same code printed 6.4 ms on the
# README table's machine and 20-27 ms on a later, slower (shared) one. To tell
# the code's speed from the machine's, the row also times a fixed pure-Python
# workload of the same kind, standard library only (it never changes with the
# project): parse a 30-line function, copy its tree, walk it with a visitor,
# unparse it and compile the text (mostly Python bytecode, as the first call
# is, so that instructions take about as long in both). The first call
# in units of that reference, times the reference's time on the README table's
# machine, is what the first call would take there.
#
# REFERENCE_README_S is that time, estimated (the machine is gone) from
# callgrind: the reference is 10.05 M instructions and a first call was 62.7 M
# instructions in 6.43 ms there (0.1026 ns per instruction of this kind of
# work), so 10.05e6 * 6.43e-3 / 62.7e6 s = 1.03 ms. A check by time: that
# tree (commit c259931) and this reference, timed in one process (7 runs on the
# later, loaded machine), gave first calls of 6.1 to 9.3 references (median
# 7.2), i.e. 6.43 / 7.2 = 0.90 ms; the larger estimate is kept (it does not
# flatter). Re-count the reference with `valgrind --tool=callgrind` if it
# changes. The row times one reference before each first call, so that both
# minimums come from the same stretch of the machine's load.
#
# The goal (< 5 ms) was set against the 6.4 ms that tree printed on the README
# machine, so the row's verdict is the machine-normalized figure; the raw time
# is printed next to it. A check of the normalization against that tree: this
# row's own procedure, run on c259931's runtime and autograph on a later 2-core
# machine, printed 11.0 to 11.4 ms raw and 7.8x to 7.9x the reference, i.e.
# 8.0 to 8.1 ms "at the README machine's speed" where it measured 6.43 ms: the
# normalized figure overstates a first call by about a quarter, never flatters.
REFERENCE_README_S = 10.05e6 * 6.43e-3 / 62.7e6


def reference_workload():
    """The fixed pure-Python reference: what a conversion does, with the
    standard library's own tools: parse a 30-line def, copy its tree, walk it
    with a visitor, unparse it and compile the text."""
    tree = copy.deepcopy(ast.parse(_THIRTY_LINES.format(i=0)))
    counter = _NameCounter()
    counter.visit(tree)
    compile(ast.unparse(tree), "<reference>", "exec")
    return counter.names


class _NameCounter(ast.NodeVisitor):
    def __init__(self):
        self.names = {}

    def visit_Name(self, node):
        self.names[node.id] = self.names.get(node.id, 0) + 1


def reference_time(repeat):
    """Best thread CPU time of one reference workload in `repeat` tries of 10."""
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        for _ in range(10):
            reference_workload()
        best = min(best, (time.thread_time() - start) / 10)
    return best


def bench_transpiler():
    try:
        import autograph
    except ImportError as e:
        raise Unavailable(f"transpiler not available ({e})") from None
    to_code = getattr(autograph, "to_code", None)
    if to_code is None or getattr(tf, "function", None) is None:
        raise Unavailable("transpiler not available (autograph.to_code or tf.function missing)")
    fns, _ = generated_module(base.REPEAT)
    x, n = constant(3), constant(5)
    firsts, references = [], []
    for fn in fns:  # a fresh function each time: the first call converts and traces
        references.append(reference_time(1))   # interleaved: both see the same load
        f = tf.function(fn)
        start = time.thread_time()     # the thread's CPU time: the machine may be shared
        f(x, n)
        firsts.append(time.thread_time() - start)
    module_fns, lines = generated_module(34)
    start = time.perf_counter()
    for fn in module_fns:
        to_code(fn)
    module_t = time.perf_counter() - start
    first = min(firsts)
    reference = min(references)
    units = first / reference
    at_readme = units * REFERENCE_README_S
    return dict(eager=None, graph=first, numpy=None,
                extra={"convert_trace_30_lines": first, "first_call_ok": at_readme < 5e-3,
                       "reference_s": reference, "first_call_in_references": units,
                       "first_call_at_readme_speed": at_readme,
                       "to_code_module": module_t, "module_lines": lines},
                ok=at_readme < 5e-3 and module_t < 1.0,
                note=f"first call of a new 30-line fn (convert, trace, optimize, run): "
                     f"{units:.1f}x a fixed pure-Python reference (parse+copy+visit+unparse+"
                     f"compile a 30-line def, {reference * 1e3:.3f} ms here, est. "
                     f"{REFERENCE_README_S * 1e3:.3f} ms on the README machine) = "
                     f"~{at_readme * 1e3:.2f} ms at the README machine's speed "
                     f"(target < 5 ms: {'met' if at_readme < 5e-3 else 'NOT met'}); "
                     f"{first * 1e3:.2f} ms of thread CPU time on this machine; "
                     f"to_code of {lines} lines {module_t:.3f} s (target < 1 s)")
