"""Running programs and counting results: each program is written to a file,
loaded, and run in each way its mode compares (see tools/fuzz.py for the
modes); disagreements are shrunk (shrinker.py) and reported.

    rows = four_runs(source, seed)        # [(inputs, native, converted, eager, graph)]
    run_mode(300, 0, "composites")        # {'mismatches': 0, 'refused': 137, ...}
"""

import atexit
import contextlib
import io
import os
import re
import shutil
import tempfile
import warnings

from . import shrinker
from .gen_closures import ClosureGenerator
from .gen_composites import CompositeGenerator
from .gen_default import INPUTS, Generator
from .gen_mutations import MutationGenerator
from .gen_variables import VariableGenerator
from .judging import (RUNS, _judge_jax_program, bad_rows, is_refusal, judge_jax,
                      judge_program, mismatches, refusal_key, signature)
from .numpy_tf import _NativeTF


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


GENERATORS = {"default": Generator, "composites": CompositeGenerator,
              "closures": ClosureGenerator, "mutations": MutationGenerator,
              "variables": VariableGenerator}


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
    exec(compile(source, path, "exec"), namespace)  # noqa: S102 - runs the program it wrote
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


def report(source, seed, rows):
    print(f"MISMATCH (seed {seed})")
    print(source)
    for inputs, orig, conv, graph in mismatches(rows):
        print(f"  inputs {inputs}: original={orig} converted={conv} graph={graph}")


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
                source = shrinker.shrink4(source, s, inputs, 60.0, runs,
                                          ints=runs is four_runs)
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
                source = shrinker.shrink(source, s, three_runs)
                rows = three_runs(source, s)
            report(source, s, rows)
        elif verbose:
            print(f"seed {s}: ok")
    return failures


VAR_INPUTS = [
    (([0.5, -1.0, 2.0], [1.0, 0.25, -0.5], 0), ([1.5, 0.0, -0.75], [0.5, 0.5, 2.0], 1),
     [0.25, 1.0, -1.5]),
    (([-0.25, 1.5, 0.75], [2.0, -1.0, 0.5], 3), ([1.0, 1.0, -1.0], [-0.5, 0.75, 1.25], 2),
     [1.0, -0.5, 0.0]),
    (([1.0, 2.0, -2.0], [0.0, -1.5, 1.0], 1), ([0.25, -0.25, 0.5], [1.0, 2.0, -1.0], 3),
     [-1.0, 0.75, 2.0]),
]


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
                source = shrinker.shrink_jax(source, s, inputs, 60.0, jax_runs)
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
