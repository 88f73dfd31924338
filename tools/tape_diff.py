"""Differential check of `GradientTape` against real TensorFlow (a developer tool).

    $BENCH_TF_PYTHON tools/tape_diff.py [--only PATTERN] [-v]

Runs each small tape program of `PROGRAMS` with our runtime and with
TensorFlow, eagerly and as a `tf.function`, and prints one line per
difference:

    MISMATCH <mode> <program>: <what differs>

(a gradient's value, dtype or shape; None on one side only; one side raising
where the other does not, or a different error class), then a summary, and
exits 1 when anything differs beyond the differences `EXPECTED` explains.
Warnings are not compared: TensorFlow logs its tape warnings (an integer
tensor watched) to its logger, we raise Python warnings.
TensorFlow is never a dependency of the project: run this with a throwaway
virtualenv that has it (and numpy and gast for our runtime).

The programs are in tools/tape_diff_programs/, one module per family;
this module runs and compares them. A program is `fn(tf) -> run`: it
creates what must exist before a `tf.function` is traced (Variables) with
the library `tf` it is given and returns `run()`, whose result (a nested structure of tensors, None and
Python values) is compared. TensorFlow's IndexedSlices gradients are
compared as the dense tensors they stand for.
"""

import argparse
import fnmatch
import os
import pathlib
import sys
import warnings

import numpy as np

from tape_diff_programs import PROGRAMS

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Differences we keep on purpose: program -> why.
EXPECTED = {
    "numpy_source": "TensorFlow fails with an accidental AttributeError; we raise a TypeError "
                    "that names the source",
    "custom_gradient_wrong_count": "in a graph TensorFlow raises an InternalError about the "
                                   "recorded op; we raise the ValueError it raises eagerly",
    "python_number_target": "TensorFlow fails with an accidental AttributeError; we raise a "
                            "TypeError that names the target",
}


# ---------------------------------------------------------------- running

class Outcome:
    """What one run gave: flat leaves (None, or (value, dtype, shape)) or an
    error class name."""

    def __init__(self, leaves=None, error=None, message=""):
        self.leaves, self.error, self.message = leaves, error, message


def _error_class(exc):
    """A name comparable across both libraries (see tools/tf_diff.py)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins" or any(b.__name__ == "OpError" for b in cls.__mro__):
            return cls.__name__
    return type(exc).__name__


def _leaves(tf, out):
    if out is None:
        return [None]
    if isinstance(out, dict):
        return [leaf for k in sorted(out) for leaf in _leaves(tf, out[k])]
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in _leaves(tf, item)]
    if type(out).__name__ == "IndexedSlices":
        out = tf.convert_to_tensor(out)
    if tf.is_tensor(out):
        value = np.asarray(out.numpy())
        return [(value, out.dtype.name, value.shape)]
    return [(np.asarray(out), "python:" + type(out).__name__, np.shape(out))]


def run_program(tf, build, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn = build(tf)
            out = fn() if mode == "eager" else tf.function(fn)()
            return Outcome(_leaves(tf, out))
        except Exception as e:  # noqa: BLE001 - the error class is what is compared
            return Outcome(error=_error_class(e), message=str(e).splitlines()[0][:160])


def compare(ours, theirs):
    """'' when both outcomes agree, else what differs."""
    if ours.error or theirs.error:
        if ours.error != theirs.error:
            return (f"ours {ours.error or 'ran'} ({ours.message}), "
                    f"TF {theirs.error or 'ran'} ({theirs.message})")
        return ""
    if len(ours.leaves) != len(theirs.leaves):
        return f"{len(ours.leaves)} results, TF {len(theirs.leaves)}"
    for k, (a, b) in enumerate(zip(ours.leaves, theirs.leaves)):
        if (a is None) != (b is None):
            return f"result {k}: ours {'None' if a is None else 'a value'}, " \
                   f"TF {'None' if b is None else 'a value'}"
        if a is None:
            continue
        if a[1] != b[1] or a[2] != b[2]:
            return f"result {k}: ours {a[1]}{list(a[2])}, TF {b[1]}{list(b[2])}"
        if a[0].dtype.kind in "fc":
            if not np.allclose(a[0], b[0], rtol=1e-5, atol=1e-6, equal_nan=True):
                return f"result {k}: ours {a[0].tolist()}, TF {b[0].tolist()}"
        elif not np.array_equal(a[0], b[0]):
            return f"result {k}: ours {a[0].tolist()}, TF {b[0].tolist()}"
    return ""


def run(ours, theirs, pattern="*", verbose=False, out=sys.stdout):
    """Compare every program matching `pattern`; returns the mismatch lines."""
    mismatches, checked, expected = [], 0, 0
    for name, build in PROGRAMS.items():
        if not fnmatch.fnmatch(name, pattern):
            continue
        for mode in ("eager", "function"):
            checked += 1
            diff = compare(run_program(ours, build, mode), run_program(theirs, build, mode))
            if diff and name in EXPECTED:
                expected += 1
                if verbose:
                    print(f"expected {mode} {name}: {diff} ({EXPECTED[name]})", file=out)
            elif diff:
                line = f"MISMATCH {mode} {name}: {diff}"
                mismatches.append(line)
                print(line, file=out)
            elif verbose:
                print(f"ok       {mode} {name}", file=out)
    print(f"\n{checked} checks, {len(mismatches)} mismatches, {expected} expected differences",
          file=out)
    return mismatches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="*", help="fnmatch pattern on the program name")
    parser.add_argument("-v", "--verbose", action="store_true", help="list agreeing checks too")
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    sys.path.insert(0, str(ROOT))
    import runtime as ours
    import tensorflow as theirs
    theirs.get_logger().setLevel("CRITICAL")
    return 1 if run(ours, theirs, args.only, args.verbose) else 0


if __name__ == "__main__":
    sys.exit(main())
