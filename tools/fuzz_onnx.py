"""Differential fuzzing of the ONNX exporter: random programs (tools/fuzz.py's
generators) run natively and as exported ONNX models in ONNX Runtime.

Each program's `main(a, b, v)` is traced with `runtime.function` on int32
tensors (one trace per length of `v`), exported with
`runtime.onnx.from_function`, checked by `onnx.checker`, run by ONNX Runtime
and compared with the plain Python result. Rows where Python itself raises,
or where our runtime refuses to trace, are skipped (the runtime fuzzer judges
those), as are programs with an `assert` (the exporter refuses asserts by
design); any other op the exporter refuses is counted as refused with its
reason.

    python tools/fuzz_onnx.py --count 200 --seed 1 [--composites | --closures] [--strict]

Exit status 1 when a program disagrees (printed with its inputs), and with
`--strict` (CI, .ci/fuzz) also when the exporter refuses one.
"""

import argparse
import contextlib
import io
import os
import sys
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (ROOT, os.path.join(ROOT, "tools")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from fuzzing import runner as fuzz  # the fuzzer's generators, loader and runs
from fuzzing.gen_default import INPUTS

MODES = ("default", "composites", "closures")

# Refusals the exporter makes by design (documented in README's ONNX section):
# a program using them is skipped, not counted as refused.
BY_DESIGN = ("ONNX has no assertion",)


def _structured(concrete, flat):
    """The concrete function's structured outputs with its tensors replaced
    by ONNX Runtime's arrays, in order."""
    import runtime as tf
    leaves = tf.nest.flatten(concrete.structured_outputs)
    it = iter(flat)
    filled = [next(it) if isinstance(leaf, tf.Tensor) else leaf for leaf in leaves]
    return tf.nest.pack_sequence_as(concrete.structured_outputs, filled)


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def onnx_row(main, a, b, v, exported=None):
    """(verdict, detail) of one input triple: 'ok', 'skipped', 'refused' or
    'mismatch'. `exported` (a dict) keeps the trace, export and session per
    length of `v` across the calls for one program: the a and b values do not
    change the graph, so each program is traced and exported once per length."""
    import runtime as tf
    from autograph.operators import side_effects
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        native = fuzz._outcome4(lambda: main(a, b, list(v)), plain=lambda x: x)
        if native[0] != "ok":
            return "skipped", "python raised"
        args = (tf.constant(a), tf.constant(b), tf.constant(np.asarray(v, np.int32)))
        exported = {} if exported is None else exported
        if len(v) not in exported:
            exported[len(v)] = _export(main, args)
        verdict, concrete, session = exported[len(v)]
        if verdict is not None:
            return verdict
        try:
            with contextlib.redirect_stdout(io.StringIO()), side_effects.strict():
                expected = concrete(*args)
        except Exception as e:  # noqa: BLE001 - the runtime fuzzer judges these
            return "skipped", f"runtime: {type(e).__name__}"
        feeds = dict(zip([i.name for i in session.get_inputs()],
                         [np.asarray(x.numpy()) for x in args]))
        try:
            got = _structured(concrete, session.run(None, feeds))
        except Exception as e:  # noqa: BLE001 - ONNX Runtime failing is a mismatch
            return "mismatch", f"onnxruntime raised {type(e).__name__}: {str(e)[:300]}"
    want, mine = _plain(native[1]), _plain(got)
    if mine == want:
        return "ok", None
    ours = _plain(tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t,
                                        expected))
    return "mismatch", f"python={want!r} onnx={mine!r} runtime={ours!r}"


def _export(main, args):
    """(verdict or None, concrete function, ONNX Runtime session) of `main`
    traced on `args`: a verdict where it cannot be traced or exported."""
    import onnxruntime
    import runtime as tf
    from autograph.operators import side_effects
    from runtime.onnx import ExportError, from_function
    try:
        # Exactness against Python: a side effect in a staged statement is
        # refused (autograph's strict side effects, as tools/fuzz.py runs).
        with contextlib.redirect_stdout(io.StringIO()), side_effects.strict():
            concrete = tf.function(main).get_concrete_function(*args)
    except Exception as e:  # noqa: BLE001 - the runtime fuzzer judges these
        return ("skipped", f"runtime: {type(e).__name__}"), None, None
    try:
        model, _ = from_function(concrete)
    except ExportError as e:
        reason = str(e).split(" to ONNX: ")[-1].splitlines()[0]
        if reason.startswith(BY_DESIGN):
            return ("skipped", f"by design: {reason}"), None, None
        return ("refused", reason), None, None
    options = onnxruntime.SessionOptions()      # one thread: a pool costs more than the run
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options,
                                           providers=["CPUExecutionProvider"])
    return None, concrete, session


def run(count, seed, mode="default", quiet=False):
    """Fuzz `count` programs; returns {'programs', 'mismatches', 'refused',
    'refusals': {reason: n}, 'failing': [(seed, source, detail)]}."""
    gen = fuzz.GENERATORS[mode]
    stats = {"programs": count, "mismatches": 0, "refused": 0, "refusals": {}, "failing": []}
    for k in range(count):
        s = seed * 1_000_003 + k
        source = gen(s).program()
        main = fuzz.load(source, s)["main"]
        exported = {}
        verdicts = [onnx_row(main, a, b, v, exported) for a, b, v in INPUTS]
        bad = [(inputs, d) for inputs, (verdict, d) in zip(INPUTS, verdicts)
               if verdict == "mismatch"]
        for verdict, detail in verdicts:
            if verdict == "refused":
                stats["refusals"][detail] = stats["refusals"].get(detail, 0) + 1
        if bad:
            stats["mismatches"] += 1
            stats["failing"].append((s, source, bad))
            if not quiet:
                print(f"MISMATCH (seed {s}, backend onnx)\n{source}")
                for inputs, detail in bad:
                    print(f"  inputs {inputs}: {detail}")
        elif any(v == "refused" for v, _ in verdicts):
            stats["refused"] += 1
    return stats


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    modes = parser.add_mutually_exclusive_group()
    for mode in MODES[1:]:
        modes.add_argument(f"--{mode}", dest="mode", action="store_const", const=mode)
    parser.add_argument("--strict", action="store_true", help="a refused program fails too")
    args = parser.parse_args(argv)
    mode = args.mode or "default"
    stats = run(args.count, args.seed, mode)
    for reason, n in sorted(stats["refusals"].items(), key=lambda e: -e[1]):
        print(f"REFUSED x{n}: {reason}")
    print(f"fuzz: {args.count} programs, seed {args.seed}, mode {mode}, backend onnx, "
          f"{stats['mismatches']} mismatches, {stats['refused']} refused")
    return 1 if stats["mismatches"] or (args.strict and stats["refused"]) else 0


if __name__ == "__main__":
    sys.exit(main())
