"""Differential fuzzing of `tf.function(jit_compile=True)`: random programs
(tools/fuzz.py's generators) run natively and compiled with XLA through JAX
(runtime/_src/jit).

Each program's `main(a, b, v)` is traced with `runtime.function(...,
jit_compile=True)` on int32 tensors and compared with the plain Python result.
Rows where Python raises, or where the executor refuses or fails to run the
program, are skipped (the runtime fuzzer judges those). A program that falls
back to the executor (a `JitCompileWarning`) is counted as refused, with the
warning's reason.

    python tools/fuzz_xla.py --count 200 --seed 1 [--composites | --closures | --mutations]
    python tools/fuzz.py --backend xla ...       # the same
    python tools/fuzz_xla.py --corpus            # tests/autograph/corpus/'s
                                                 # tensor cases, compiled
    python tools/fuzz_xla.py --records           # the op records of tests/runtime,
                                                 # compiled vs the executor

Exit status 1 when a program disagrees (printed with its inputs).
"""

import argparse
import contextlib
import io
import os
import re
import sys
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (ROOT, os.path.join(ROOT, "tools")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from fuzzing import runner as fuzz  # noqa: E402 - the fuzzer's generators, loader and runs
from fuzzing.gen_default import INPUTS  # noqa: E402
from fuzz_onnx import _plain  # noqa: E402

MODES = ("default", "composites", "closures", "mutations")


def _values(result):
    import runtime as tf
    return _plain(tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t,
                                        result))


def _reason(message):
    """The part of a fallback warning that says why (lines and names dropped)."""
    reason = message.split("not compiled with XLA: ")[-1]
    return re.sub(r" at \S+:\d+", "", reason)[:120]


class Program:
    """One program's `tf.function` and its `jit_compile=True` twin, made once
    for all its input triples (they have the same shapes: one trace and one
    XLA compile serve every row, as the runtime fuzzer's one tf.function
    does). A fallback warns once, at the first compile; the rows after it
    run on the executor too and count as refused for the same reason."""

    def __init__(self, main):
        import runtime as tf
        self.main = main
        self.graph = tf.function(main)
        self.jit = tf.function(main, jit_compile=True)
        self.fallback = None


def xla_row(program, a, b, v):
    """(verdict, detail) of one input triple of `program` (a Program, or a
    program's `main`): 'ok', 'skipped', 'refused' or 'mismatch'."""
    import runtime as tf
    from autograph.operators import side_effects
    from runtime._src.jit.program import JitCompileWarning
    if not isinstance(program, Program):
        program = Program(program)
    main = program.main
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        native = fuzz._outcome4(lambda: main(a, b, list(v)), plain=lambda x: x)
        if native[0] != "ok":
            return "skipped", "python raised"
        args = (tf.constant(a), tf.constant(b), tf.constant(np.asarray(v, np.int32)))
        try:
            with contextlib.redirect_stdout(io.StringIO()), side_effects.strict():
                expected = _values(program.graph(*args))
        except Exception as e:  # noqa: BLE001 - the runtime fuzzer judges these
            return "skipped", f"runtime: {type(e).__name__}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        warnings.simplefilter("always", JitCompileWarning)
        try:
            with contextlib.redirect_stdout(io.StringIO()), side_effects.strict():
                got = _values(program.jit(*args))
        except Exception as e:  # noqa: BLE001 - the compiled path failing is a mismatch
            return "mismatch", f"jit_compile raised {type(e).__name__}: {str(e)[:300]}"
    fallback = [w for w in caught if issubclass(w.category, JitCompileWarning)]
    if fallback:
        program.fallback = _reason(str(fallback[0].message))
    want = _plain(native[1])
    if got != want:
        return "mismatch", f"python={want!r} xla={got!r} runtime={expected!r}"
    if program.fallback:
        return "refused", program.fallback
    return "ok", None


def run(count, seed, mode="default", quiet=False):
    """Fuzz `count` programs; returns {'programs', 'mismatches', 'refused',
    'refusals': {reason: n}, 'failing': [(seed, source, detail)]}."""
    gen = fuzz.GENERATORS[mode]
    stats = {"programs": count, "mismatches": 0, "refused": 0, "refusals": {}, "failing": []}
    for k in range(count):
        s = seed * 1_000_003 + k
        source = gen(s).program()
        program = Program(fuzz.load(source, s)["main"])
        verdicts = [xla_row(program, a, b, v) for a, b, v in INPUTS]
        bad = [(inputs, d) for inputs, (verdict, d) in zip(INPUTS, verdicts)
               if verdict == "mismatch"]
        for verdict, detail in verdicts:
            if verdict == "refused":
                stats["refusals"][detail] = stats["refusals"].get(detail, 0) + 1
        if bad:
            stats["mismatches"] += 1
            stats["failing"].append((s, source, bad))
            if not quiet:
                print(f"MISMATCH (seed {s}, backend xla)\n{source}")
                for inputs, detail in bad:
                    print(f"  inputs {inputs}: {detail}")
        elif any(v == "refused" for v, _ in verdicts):
            stats["refused"] += 1
    return stats


def corpus():
    """The autograph corpus's tensor cases (tests/autograph/corpus/)
    compiled with jit_compile=True against the executor's values; returns
    {'cases', 'ok', 'refused': {reason: n}, 'mismatches': [(name, detail)]}."""
    import runtime as tf
    from runtime._src.jit.program import JitCompileWarning
    from tests.autograph.corpus import tensor_cases
    stats = {"cases": 0, "ok": 0, "refused": {}, "mismatches": []}
    for fn, cases, *_ in tensor_cases():
        for args in cases:
            stats["cases"] += 1
            feeds = [tf.constant(np.array(a, np.int32) if isinstance(a, list) else a)
                     for a in args]
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = _values(tf.function(fn)(*feeds))
                warnings.simplefilter("error", JitCompileWarning)
                try:
                    got = _values(tf.function(fn, jit_compile=True)(*feeds))
                except JitCompileWarning as w:
                    reason = _reason(str(w))
                    stats["refused"][reason] = stats["refused"].get(reason, 0) + 1
                    continue
                except Exception as e:  # noqa: BLE001 - a failure is a mismatch
                    got = f"raised {type(e).__name__}: {e}"
            if got == want:
                stats["ok"] += 1
            else:
                stats["mismatches"].append((f"{fn.__name__}{args}", f"{got!r} != {want!r}"))
    return stats


RECORD_MODULES = ("ops.math.test_clip_truncate", "ops.test_everyday_ops", "ops.math.test_linalg",
                  "ops.nn.test_nn_conv_pool", "ops.nn.test_rnn_ops", "ops.math.test_math_elementwise",
                  "ops.nn.test_nn_activations_losses", "ops.math.test_reductions_scans",
                  "ops.array.test_shapes_indexing", "ops.test_ops")


def _record_call(module, rec):
    """(function, input arrays) of an op record, whichever of the suite's
    record classes it is."""
    if hasattr(module, "_split"):
        return module._split(rec)[::-1]
    kw = getattr(rec, "kw", None) or getattr(rec, "kwargs", None) or {}
    return (lambda *a: rec.fn(*a, **kw)), rec.args


# Float tolerance per dtype: a few units in the last place (XLA's own
# approximations of the transcendental functions).
_RTOL = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 1e-5, "complex64": 1e-5,
         "float64": 1e-10, "complex128": 1e-10}


def _close(got, want):
    """The compiled result equals the executor's to float rounding."""
    import runtime as tf
    got, want = tf.nest.flatten(got), tf.nest.flatten(want)
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        if g.dtype != w.dtype or g.shape != w.shape:
            return False
        if w.dtype.kind in "fc":
            rtol = _RTOL.get(np.dtype(w.dtype).name, 1e-5)
            finite = np.abs(w[np.isfinite(w)])
            scale = max(float(finite.max(initial=0.0)), 1.0)
            if not np.allclose(g, w, rtol=rtol, atol=rtol * scale, equal_nan=True):
                return False
        elif not np.array_equal(g, w):
            return False
    return True


def records():
    """Every op record of tests/runtime (`RECORDS`: TF's values) run with
    jit_compile=True against the same record on the executor; returns
    {'records', 'ok', 'refused': {reason: n}, 'mismatches': [(name, detail)]}."""
    import importlib
    import runtime as tf
    from runtime._src.jit.program import JitCompileWarning
    stats = {"records": 0, "ok": 0, "refused": {}, "mismatches": []}
    for name in RECORD_MODULES:
        module = importlib.import_module(f"tests.runtime.{name}")
        for rec in module.RECORDS:
            stats["records"] += 1
            call, args = _record_call(module, rec)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = tf.function(call)(*[tf.constant(a) for a in args])
                except Exception:  # noqa: BLE001 - a record of an error: nothing to compile
                    stats["records"] -= 1
                    continue
                warnings.simplefilter("error", JitCompileWarning)
                try:
                    got = tf.function(call, jit_compile=True)(*[tf.constant(a) for a in args])
                except JitCompileWarning as w:
                    reason = _reason(str(w))
                    stats["refused"][reason] = stats["refused"].get(reason, 0) + 1
                    continue
                except Exception as e:  # noqa: BLE001 - a failure is a mismatch
                    got = f"{type(e).__name__}: {str(e)[:200]}"
            if not isinstance(got, str) and _close(got, want):
                stats["ok"] += 1
            else:
                detail = got if isinstance(got, str) else f"{_values(got)!r} != {_values(want)!r}"
                stats["mismatches"].append((f"{name}:{rec.name}", str(detail)[:300]))
    return stats


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    modes = parser.add_mutually_exclusive_group()
    for mode in MODES[1:]:
        modes.add_argument(f"--{mode}", dest="mode", action="store_const", const=mode)
    parser.add_argument("--corpus", action="store_true",
                        help="the equivalence corpus instead of random programs")
    parser.add_argument("--records", action="store_true",
                        help="the op records of tests/runtime instead of random programs")
    args = parser.parse_args(argv)
    if args.records:
        stats = records()
        for reason, n in sorted(stats["refused"].items(), key=lambda e: -e[1]):
            print(f"REFUSED x{n}: {reason}")
        for name, detail in stats["mismatches"]:
            print(f"MISMATCH {name}: {detail}")
        print(f"records: {stats['records']} op records, {stats['ok']} compiled and equal, "
              f"{sum(stats['refused'].values())} refused, {len(stats['mismatches'])} mismatches")
        return 1 if stats["mismatches"] else 0
    if args.corpus:
        stats = corpus()
        for reason, n in sorted(stats["refused"].items(), key=lambda e: -e[1]):
            print(f"REFUSED x{n}: {reason}")
        for name, detail in stats["mismatches"]:
            print(f"MISMATCH {name}: {detail}")
        print(f"corpus: {stats['cases']} tensor cases, {stats['ok']} compiled and equal, "
              f"{sum(stats['refused'].values())} refused, {len(stats['mismatches'])} mismatches")
        return 1 if stats["mismatches"] else 0
    mode = args.mode or "default"
    stats = run(args.count, args.seed, mode)
    for reason, n in sorted(stats["refusals"].items(), key=lambda e: -e[1]):
        print(f"REFUSED x{n}: {reason}")
    print(f"fuzz: {args.count} programs, seed {args.seed}, mode {mode}, backend xla, "
          f"{stats['mismatches']} mismatches, {stats['refused']} refused")
    return 1 if stats["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
