"""Differential check of our ops against real TensorFlow (a developer tool).

    $BENCH_TF_PYTHON tools/tf_diff.py [--ops PATTERN] [--seed S] [--count N] [--gradients]
    $BENCH_TF_PYTHON tools/tf_diff.py --prints
    $BENCH_TF_PYTHON tools/tf_diff.py --special [--section S] [--ops PATTERN] [--record]

Walks our public namespaces (`tf`, `tf.math`, `tf.nn`, `tf.linalg`, ...,
as tools/api_listing.py does) and, for each name that TensorFlow also has
and that `RECIPES` knows how to call, runs ours and TF's on the same inputs,
eagerly and inside `tf.function`. It prints one line per mismatch:

    MISMATCH <mode> <tf.name> <case>: <what differs>

(value beyond the dtype's tolerance, dtype, shape, or one side raising where
the other does not, or raising a different error class), then a summary per
family, and exits 1 when anything differs.

`--gradients` compares gradients instead of values: for each case whose op
both libraries run, a `GradientTape` watches every floating-point input and
takes the gradient of sum(output * w) (w: 1, 2, 3, 1, ... over each float
output), eagerly and inside `tf.function`. Values, dtypes, shapes, `None` for
an input the output does not depend on, and the error class (an op without a
gradient: LookupError) must agree. TensorFlow is never a dependency
of the project: run this with a throwaway virtualenv that has it (and numpy
and gast for our runtime). The recipe table's structure is tested without
TensorFlow by tests/tools/test_tf_diff.py.

`--prints` compares what users read instead of op values: the text of
dtypes, tensors, concrete functions and function types, and the error class
(and first words) of the binding and tracing errors: the probes of
tools/tf_diff_prints.py.

`--special` runs the special-point cases of tools/tf_special.py (every op
with a gradient rule at 0, +-1, ties, bounds, saturation, zero vectors, empty
segments, -inf ...) with both libraries, values and gradients, eagerly and
inside `tf.function`; `--section keras` runs tools/tf_special_keras.py's
instead (every Keras loss, activation and weighted layer, with the gradients
of the layer's weights). With `--record` it writes TF's results to
tests/data/tf_special_points/<section>.json instead, which
tests/runtime/test_tf_special_points.py replays without TensorFlow (the
format is in tools/tf_special.py's docstring).

The recipes (how to call each op) are in tools/tf_diff_recipes/, one module
per family of ops; this module runs and compares them. A recipe is
`Recipe(family, cases)`: `cases(rng)` yields `Case`s, each the positional and
keyword arguments of one call. numpy arrays (also inside lists) become
tensors (graph inputs inside `tf.function`); `Shape`s become TensorShapes;
anything else is passed as it is.
"""

import argparse
import fnmatch
import importlib.util
import os
import pathlib
import sys
import warnings

import numpy as np

from tf_diff_recipes import RECIPES, Case, Recipe  # noqa: F401 - Case, Recipe: the tools' API
from tf_diff_recipes.base import Shape

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Per-dtype tolerance (rtol, atol) for value comparisons; other dtypes exact.
TOLERANCE = {"float16": (1e-2, 1e-2), "float32": (2e-5, 2e-5), "float64": (1e-10, 1e-12)}


# ---------------------------------------------------------------- running

class Outcome:
    """What one call gave: flat (value, dtype, shape) leaves, or an error class."""

    def __init__(self, leaves=None, error=None, message=""):
        self.leaves, self.error, self.message = leaves, error, message


def _error_class(exc):
    """A name comparable across both libraries: the OpError subclass's name, or the
    first builtin exception class (our errors and TF's differ by module)."""
    for cls in type(exc).__mro__:
        if cls.__name__.endswith("Error") and cls.__module__ != "builtins" and any(
                base.__name__ == "OpError" for base in cls.__mro__):
            return cls.__name__
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(exc).__name__


def _leaves(lib, out):
    """Flatten an op's result into (numpy value, dtype name, shape) leaves."""
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in _leaves(lib, item)]
    if isinstance(out, lib.DType):
        return [(None, "dtype:" + out.name, None)]
    if isinstance(out, lib.TensorShape):
        dims = out.as_list() if out.rank is not None else None
        return [(np.array(dims if dims is not None else [], object), "TensorShape",
                 None if dims is None else (len(dims),))]
    if type(out).__name__ == "RaggedTensor":            # its components
        return _leaves(lib, [out.flat_values] + list(out.nested_row_splits))
    if lib.is_tensor(out):
        value = np.asarray(out.numpy())
        return [(value, out.dtype.name, value.shape)]
    value = np.asarray(out)
    return [(value, "python:" + type(out).__name__, value.shape)]


def _convert(lib, value, dtypes_as):
    """numpy arrays (also inside lists) -> tensors; `Shape`s -> TensorShapes."""
    if isinstance(value, Shape):
        return lib.TensorShape(list(value))
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return lib.constant(value)
    if isinstance(value, list) and any(isinstance(v, (np.ndarray, np.generic)) for v in value):
        return [_convert(lib, v, dtypes_as) for v in value]
    return value


_DTYPE_ARGS = {"dtype", "output_type", "out_idx", "out_type"}


def _fix_dtype_args(lib, case):
    """Dtype names given as strings in `kwargs` (and `cast`/`bitcast`'s second
    argument) become the library's DType objects."""
    kwargs = {k: (lib.as_dtype(v) if k in _DTYPE_ARGS and isinstance(v, str) else v)
              for k, v in case.kwargs.items()}
    return kwargs


def _call(lib, op, case, mode, name):
    args = [_convert(lib, a, None) for a in case.args]
    if name in ("cast", "bitcast") and len(args) == 2 and isinstance(args[1], str):
        args[1] = lib.as_dtype(args[1])
    kwargs = {k: _convert(lib, v, None) for k, v in _fix_dtype_args(lib, case).items()}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if mode == "eager":
                out = op(*args, **kwargs)
            else:
                out = _in_function(lib, op, args, kwargs)
        return Outcome(_leaves(lib, out))
    except Exception as exc:                           # noqa: BLE001 - compared below
        return Outcome(error=_error_class(exc), message=str(exc).splitlines()[0][:120]
                       if str(exc) else "")


def _in_function(lib, op, args, kwargs):
    """`op` inside `lib.function`, tensors (also inside lists) passed as inputs."""
    flat, where = [], []
    for pos, a in list(enumerate(args)) + list(kwargs.items()):
        if lib.is_tensor(a):
            where.append((pos, None))
            flat.append(a)
        elif isinstance(a, list) and a and all(lib.is_tensor(v) for v in a):
            for i, v in enumerate(a):
                where.append((pos, i))
                flat.append(v)

    def body(*tensors):
        a2, k2 = list(args), dict(kwargs)
        lists = {}
        for (pos, i), t in zip(where, tensors):
            target = a2 if isinstance(pos, int) else k2
            if i is None:
                target[pos] = t
            else:
                lists.setdefault(pos, list(target[pos]))[i] = t
                target[pos] = lists[pos]
        out = op(*a2, **k2)
        if isinstance(out, (lib.DType, lib.TensorShape)):
            static.append(out)                 # a static result: compare it as is
            return lib.constant(0)
        return out
    static = []
    out = lib.function(body)(*flat)
    return static[0] if static else out


def _grad_call(lib, op, case, mode, name, variables=()):
    """The tape's gradients of sum(op(...) * w) for each float input (None where
    the output does not depend on it), then for each of `variables` (a layer's
    weights), as an Outcome; None when the case has no float input and no
    variable, or the op fails (the value comparison judges that). `mode`:
    "eager", "function" (the tape inside a `tf.function`) or "taped" (an
    eager tape around a `tf.function` of `op`)."""
    args = [_convert(lib, a, None) for a in case.args]
    kwargs = {k: _convert(lib, v, None) for k, v in _fix_dtype_args(lib, case).items()}
    flat = [t for a in args + list(kwargs.values())
            for t in (a if isinstance(a, list) else [a]) if lib.is_tensor(t)]
    if not any(t.dtype.is_floating for t in flat) and not variables:
        return None
    call = lib.function(op) if mode == "taped" else op

    def grads(*tensors):
        swap = {id(old): new for old, new in zip(flat, tensors)}
        a2 = [[swap.get(id(t), t) for t in a] if isinstance(a, list) else swap.get(id(a), a)
              for a in args]
        k2 = {k: ([swap.get(id(t), t) for t in v] if isinstance(v, list) else swap.get(id(v), v))
              for k, v in kwargs.items()}
        watched = [t for t in tensors if t.dtype.is_floating]
        with lib.GradientTape() as tape:
            tape.watch(watched)
            out = call(*a2, **k2)
            leaves = [t for t in (out if isinstance(out, (tuple, list)) else [out])
                      if lib.is_tensor(t) and t.dtype.is_floating]
            if not leaves:
                return [lib.constant(0)]
            total = lib.add_n([lib.reduce_sum(t * lib.reshape(
                lib.cast(lib.range(lib.size(t)) % 3 + 1, t.dtype), lib.shape(t)))
                for t in leaves])
        sparse = getattr(lib, "IndexedSlices", ())   # TF's gather gradient: made dense
        return [lib.convert_to_tensor(g) if isinstance(g, sparse) else g
                for g in tape.gradient(total, watched + list(variables))]

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = lib.function(grads)(*flat) if mode == "function" else grads(*flat)
        return Outcome([(None, "None", None) if g is None else _leaves(lib, g)[0] for g in out])
    except Exception as exc:                           # noqa: BLE001 - compared below
        return Outcome(error=_error_class(exc), message=str(exc).splitlines()[0][:120]
                       if str(exc) else "")


def _compare(ours, theirs, up_to_sign=False, tolerance=None):
    """A description of the first difference, or None when they agree;
    `tolerance` (a dtype name) sets the TOLERANCE of every float leaf."""
    if ours.error or theirs.error:
        if ours.error and theirs.error:
            if ours.error != theirs.error:
                return f"error class: ours {ours.error} ({ours.message}), TF {theirs.error}"
            return None
        if ours.error:
            return f"ours raises {ours.error} ({ours.message}), TF does not"
        return f"TF raises {theirs.error} ({theirs.message}), ours does not"
    if len(ours.leaves) != len(theirs.leaves):
        return f"result count: ours {len(ours.leaves)}, TF {len(theirs.leaves)}"
    for i, ((ov, od, os_), (tv, td, ts)) in enumerate(zip(ours.leaves, theirs.leaves)):
        at = f"result {i}: " if len(ours.leaves) > 1 else ""
        if od != td:
            return f"{at}dtype: ours {od}, TF {td}"
        if os_ != ts:
            return f"{at}shape: ours {os_}, TF {ts}"
        if ov is None:
            continue
        if od in TOLERANCE:
            rtol, atol = TOLERANCE[tolerance or od]
            if up_to_sign:
                ov, tv = np.abs(ov), np.abs(tv)
            if not np.allclose(ov.astype(np.float64), tv.astype(np.float64), rtol=rtol,
                               atol=atol, equal_nan=True):
                return f"{at}value: ours {_show(ov)}, TF {_show(tv)}"
        elif not np.array_equal(ov, tv):
            return f"{at}value: ours {_show(ov)}, TF {_show(tv)}"
    return None


def _show(value):
    return np.array2string(np.asarray(value), threshold=8, precision=5).replace("\n", "")


def resolve(root, dotted):
    """The object at a dotted path under `root` ("math.sin"), or None."""
    obj = root
    for part in dotted.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


# The namespaces compared (tf.random is random, tf.keras is another library in TF 2.21).
NAMESPACES = ("tf", "tf.math", "tf.nn", "tf.linalg", "tf.bitwise", "tf.dtypes", "tf.image",
              "tf.io", "tf.strings")


def covered(ours):
    """(dotted name "tf.math.sin", Recipe) for each of our names that has a recipe."""
    api = _load_api_listing()
    found = []
    for label, module in api.namespaces(ours):
        if label not in NAMESPACES:
            continue
        ns = label[len("tf."):] if label != "tf" else ""
        for name in api.public_names(module):
            rec = RECIPES.get(f"{ns.split('.')[-1]}.{name}" if ns else name) or RECIPES.get(name)
            if rec is not None:
                found.append((f"{label}.{name}", rec))
    return found


def _load_api_listing():
    spec = importlib.util.spec_from_file_location("api_listing", ROOT / "tools" / "api_listing.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(ours, theirs, pattern="*", seed=0, count=1, out=sys.stdout, gradients=False):
    """Compare every covered op matching `pattern` (their values, or with
    `gradients` their gradients); returns the mismatch lines."""
    mismatches, checked, per_family = [], 0, {}
    for dotted, rec in covered(ours):
        if not fnmatch.fnmatch(dotted, pattern) and not fnmatch.fnmatch(dotted[3:], pattern):
            continue
        their_op = resolve(theirs, dotted)
        if their_op is None:
            continue
        our_op = resolve(ours, dotted)
        leaf = dotted.rsplit(".", 1)[1]
        for draw in range(count):
            rng = np.random.RandomState(seed + draw)
            for case in rec.cases(rng):
                for mode in ("eager", "function"):
                    if gradients:
                        pair = [_grad_call(lib, op, case, mode, leaf)
                                for lib, op in ((ours, our_op), (theirs, their_op))]
                        if None in pair or rec.up_to_sign:
                            continue
                        diff = _compare(*pair)
                    else:
                        diff = _compare(_call(ours, our_op, case, mode, leaf),
                                        _call(theirs, their_op, case, mode, leaf),
                                        rec.up_to_sign)
                    checked += 1
                    fam = per_family.setdefault(rec.family, [0, 0])
                    fam[0] += 1
                    if diff:
                        fam[1] += 1
                        line = f"MISMATCH {mode} {dotted} [{case.label}]: {diff}"
                        mismatches.append(line)
                        print(line, file=out)
    print(f"\n{checked} checks, {len(mismatches)} mismatches", file=out)
    for family, (n, bad) in sorted(per_family.items()):
        print(f"  {family:12s} {n:5d} checks {bad:4d} mismatches", file=out)
    return mismatches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default="*",
                        help="fnmatch pattern on the dotted name, e.g. 'math.*' or '*pad'")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument("--count", type=int, default=1,
                        help="random draws per recipe (seeds seed .. seed+count-1)")
    parser.add_argument("--gradients", action="store_true",
                        help="compare the tape's gradients of each case instead of its values")
    parser.add_argument("--special", action="store_true",
                        help="compare values and gradients at special points (tools/tf_special.py)")
    parser.add_argument("--record", action="store_true",
                        help="with --special: write TF's results to the recorded JSON")
    parser.add_argument("--section", default="ops",
                        help="with --special: the case table, ops (tools/tf_special.py) or "
                             "keras (tools/tf_special_keras.py; any S: tools/tf_special_<S>.py), "
                             "recorded as S.json")
    parser.add_argument("--prints", action="store_true",
                        help="compare printed text and error types (tools/tf_diff_prints.py)")
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    sys.path.insert(0, str(ROOT))
    import runtime as ours
    import tensorflow as theirs
    theirs.get_logger().setLevel("ERROR")
    if args.special:
        return _special(ours, theirs, args.ops, args.record, args.section)
    if args.prints:
        sys.path.insert(0, str(ROOT / "tools"))
        import tf_diff_prints
        return 1 if tf_diff_prints.run(ours, theirs) else 0
    return 1 if run(ours, theirs, args.ops, args.seed, args.count,
                    gradients=args.gradients) else 0


def _special(ours, theirs, pattern, record, section="ops"):
    sys.path.insert(0, str(ROOT / "tools"))
    import importlib
    import tf_special
    table = importlib.import_module("tf_special" if section == "ops" else f"tf_special_{section}")
    tool = sys.modules[__name__]
    if record:
        doc = tf_special.record(tool, theirs, pattern, table)
        path = tf_special.DATA_DIR / f"{section}.json"
        tf_special.write(doc, path)
        print(f"{len(doc['records'])} records written to {path}")
        return 0
    return 1 if tf_special.live(tool, ours, theirs, pattern, table=table) else 0


if __name__ == "__main__":
    sys.exit(main())
