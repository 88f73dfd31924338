"""The transpiler's workloads: the first call of a new 30-line function
(convert, trace, optimize, compile, run) and `to_code` of a 1,000-line
module. `generated_module` also feeds the JAX conversion row."""

import atexit
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
    firsts = []
    for fn in fns:  # a fresh function each time: the first call converts and traces
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
    return dict(eager=None, graph=first, numpy=None,
                extra={"convert_trace_30_lines": first, "first_call_ok": first < 5e-3,
                       "to_code_module": module_t, "module_lines": lines},
                ok=first < 5e-3 and module_t < 1.0,
                note=f"first call of a new 30-line fn (convert, trace, optimize, compile, "
                     f"run; thread CPU time) {first * 1e3:.2f} ms (target < 5 ms: "
                     f"{'met' if first < 5e-3 else 'NOT met'}); "
                     f"to_code of {lines} lines {module_t:.3f} s (target < 1 s)")
