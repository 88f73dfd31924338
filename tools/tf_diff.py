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

A recipe is `Recipe(family, cases)`: `cases(rng)` yields `Case`s, each the
positional and keyword arguments of one call. numpy arrays (also inside
lists) become tensors (graph inputs inside `tf.function`); anything else is
passed as it is.
"""

import argparse
import fnmatch
import importlib.util
import os
import pathlib
import sys
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent

F32, F64, F16, I32, I64 = np.float32, np.float64, np.float16, np.int32, np.int64

# Per-dtype tolerance (rtol, atol) for value comparisons; other dtypes exact.
TOLERANCE = {"float16": (1e-2, 1e-2), "float32": (2e-5, 2e-5), "float64": (1e-10, 1e-12)}


class Case:
    """One call: `op(*args, **kwargs)`; `label` names it in mismatch lines."""

    def __init__(self, label, *args, **kwargs):
        self.label, self.args, self.kwargs = label, args, kwargs

    def __repr__(self):
        return self.label


class Recipe:
    """How to call an op: its family (for the summary) and `cases(rng)`;
    `up_to_sign`: results are compared by absolute value (eigenvectors and
    singular vectors are unique only up to sign)."""

    def __init__(self, family, cases, up_to_sign=False):
        self.family, self.cases, self.up_to_sign = family, cases, up_to_sign


RECIPES = {}       # leaf name ("sin") or dotted name ("nn.top_k") -> Recipe


def recipe(family, names, up_to_sign=False):
    """Register the decorated `cases(rng)` (or `cases(rng, name)`) for `names`."""
    def register(fn):
        for name in names.split():
            takes_name = fn.__code__.co_argcount == 2
            RECIPES[name] = Recipe(family, (lambda rng, fn=fn, name=name: fn(rng, name))
                                   if takes_name else fn, up_to_sign)
        return fn
    return register


def _u(rng, shape, dtype=F32, lo=-3.0, hi=3.0):
    return rng.uniform(lo, hi, shape).astype(dtype)


def _i(rng, shape, dtype=I32, lo=-6, hi=7):
    return rng.randint(lo, hi, shape).astype(dtype)


SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e30, -1e-30],
                   np.float32)

# ---------------------------------------------------------------- elementwise

UNARY_FLOAT = ("sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh exp expm1 log "
               "log1p sqrt rsqrt reciprocal floor ceil round rint erf erfc softplus softsign "
               "sigmoid log_sigmoid is_nan is_inf is_finite")
UNARY_ANY = "abs negative sign square"


@recipe("unary", UNARY_FLOAT + " " + UNARY_ANY)
def _unary(rng, name):
    yield Case("f32[3,4]", _u(rng, (3, 4)))
    yield Case("f64[5]", _u(rng, (5,), F64))
    yield Case("f16[4]", _u(rng, (4,), F16, -2, 2))
    yield Case("f32 special", SPECIAL)
    yield Case("f32 scalar", F32(0.75))
    yield Case("f32[0,3]", np.zeros((0, 3), F32))
    yield Case("halves", np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], F32))
    yield Case("i32[2,3]", _i(rng, (2, 3)))
    yield Case("i64[4]", _i(rng, (4,), I64))
    yield Case("python float", 0.3)


BINARY_FLOAT = "atan2"
BINARY_ANY = ("add subtract multiply divide truediv maximum minimum pow squared_difference "
              "floordiv floormod mod equal not_equal less less_equal greater greater_equal")


@recipe("binary", BINARY_FLOAT + " " + BINARY_ANY)
def _binary(rng, name):
    yield Case("f32[3,4] f32[4]", _u(rng, (3, 4)), _u(rng, (4,)))
    yield Case("f32[2,1] f32[1,3]", _u(rng, (2, 1)), _u(rng, (1, 3)))
    yield Case("f64 scalar f64[3]", F64(1.5), _u(rng, (3,), F64))
    yield Case("f32[0,3] f32[3]", np.zeros((0, 3), F32), _u(rng, (3,)))
    yield Case("f32 special", SPECIAL, SPECIAL[::-1].copy())
    yield Case("f16[4] f16[4]", _u(rng, (4,), F16, 0.5, 2), _u(rng, (4,), F16, 0.5, 2))
    nonzero = np.array([3, -2, 5, -7, 1, -1], I32)
    yield Case("i32 i32", np.array([7, -7, 0, 9, -9, 4], I32), nonzero)
    yield Case("i64 i64", np.array([7, -7, 0, 9, -9, 4], I64), nonzero.astype(I64))
    yield Case("f32 python float", _u(rng, (3,)), 2.0)
    yield Case("i32 python int", np.array([5, -5, 3], I32), 2)
    yield Case("f32 i32 (dtype clash)", _u(rng, (3,)), np.array([1, 2, 3], I32))
    yield Case("f32[3] f32[4] (shape clash)", _u(rng, (3,)), _u(rng, (4,)))


@recipe("binary", "logical_and logical_or logical_xor")
def _logical(rng):
    a = np.array([True, False, True, False])
    yield Case("bool bool", a, np.array([True, True, False, False]))
    yield Case("bool[2,1] bool[3]", a[:2].reshape(2, 1), a[:3])
    yield Case("bool[0]", np.zeros(0, bool), np.zeros(0, bool))


@recipe("unary", "logical_not")
def _logical_not(rng):
    yield Case("bool", np.array([True, False]))
    yield Case("bool scalar", np.bool_(True))


@recipe("binary", "bitwise_and bitwise_or bitwise_xor left_shift right_shift")
def _bitwise(rng, name):
    shift = name.endswith("shift")
    yield Case("i32 i32", _i(rng, (6,), I32, -50, 50),
               _i(rng, (6,), I32, 0, 8) if shift else _i(rng, (6,), I32, -50, 50))
    yield Case("u8 u8", _i(rng, (4,), np.uint8, 0, 255), _i(rng, (4,), np.uint8, 0, 7))
    yield Case("i64[2,3] i64[3]", _i(rng, (2, 3), I64, -9, 9), _i(rng, (3,), I64, 0, 5))
    yield Case("f32 (not integer)", _u(rng, (3,)), _u(rng, (3,)))


@recipe("unary", "invert")
def _invert(rng):
    yield Case("i32", _i(rng, (5,), I32, -50, 50))
    yield Case("u8", _i(rng, (5,), np.uint8, 0, 255))
    yield Case("i8 scalar", np.int8(5))


@recipe("elementwise", "add_n")
def _add_n(rng):
    yield Case("3 x f32[2,3]", [_u(rng, (2, 3)) for _ in range(3)])
    yield Case("1 x i32[4]", [_i(rng, (4,))])
    yield Case("f32 scalars", [F32(1.5), F32(2.0)])
    yield Case("shape clash", [_u(rng, (2,)), _u(rng, (3,))])


@recipe("elementwise", "clip_by_value")
def _clip(rng):
    yield Case("f32 scalar bounds", _u(rng, (3, 4)), -1.0, 1.0)
    yield Case("f32 tensor bounds", _u(rng, (3, 4)), _u(rng, (4,), F32, -3, -1),
               _u(rng, (4,), F32, 1, 3))
    yield Case("i32", _i(rng, (6,)), 0, 3)
    yield Case("f32[0]", np.zeros(0, F32), 0.0, 1.0)


@recipe("elementwise", "cast")
def _cast(rng):
    yield Case("f32 -> i32", SPECIAL[3:9], "int32")
    yield Case("f32 -> u8", np.array([-1.5, 2.7, 300.0], F32), "uint8")
    yield Case("i32 -> bool", np.array([0, 2, -1], I32), "bool")
    yield Case("f64 -> f16", _u(rng, (4,), F64), "float16")
    yield Case("bool -> f32", np.array([True, False]), "float32")


# ---------------------------------------------------------------- reductions

@recipe("reduction", "reduce_sum reduce_prod reduce_max reduce_min reduce_mean "
        "reduce_logsumexp reduce_std reduce_variance reduce_euclidean_norm")
def _reduce(rng, name):
    x = _u(rng, (3, 4))
    yield Case("f32 all", x)
    yield Case("f32 axis=0", x, axis=0)
    yield Case("f32 axis=-1 keepdims", x, axis=-1, keepdims=True)
    yield Case("f32 axis=[0,1]", x, axis=[0, 1])
    yield Case("f32 axis=(-1,0) keepdims", x, axis=(-1, 0), keepdims=True)
    yield Case("f64[2,3,2] axis=1", _u(rng, (2, 3, 2), F64), axis=1)
    yield Case("f32 scalar", F32(2.5))
    yield Case("f32[0,3] axis=0", np.zeros((0, 3), F32), axis=0)
    yield Case("f32[0,3] all", np.zeros((0, 3), F32))
    yield Case("i32 axis=1", _i(rng, (3, 4)), axis=1)
    yield Case("f32 special", SPECIAL)
    yield Case("axis out of range", x, axis=2)


@recipe("reduction", "reduce_all reduce_any")
def _reduce_bool(rng):
    x = rng.uniform(size=(3, 4)) > 0.5
    yield Case("bool all", x)
    yield Case("bool axis=1 keepdims", x, axis=1, keepdims=True)
    yield Case("bool[0]", np.zeros(0, bool))


@recipe("reduction", "argmax argmin")
def _arg(rng):
    x = _u(rng, (3, 4))
    yield Case("f32 default axis", x)
    yield Case("f32 axis=1", x, axis=1)
    yield Case("f32 axis=-1 int32", x, axis=-1, output_type="int32")
    yield Case("i32 ties", np.array([1, 3, 3, 1], I32))
    yield Case("f32 nan", np.array([1.0, np.nan, 3.0], F32))


@recipe("reduction", "count_nonzero")
def _count_nonzero(rng):
    x = _i(rng, (3, 4), I32, -1, 2)
    yield Case("i32 all", x)
    yield Case("i32 axis=1 keepdims", x, axis=1, keepdims=True)
    yield Case("f32 dtype=int32", _u(rng, (4,)).round(), dtype="int32")
    yield Case("bool", x > 0)


@recipe("scan", "cumsum cumprod")
def _scan(rng):
    x = _u(rng, (3, 4), F32, 0.5, 1.5)
    for exclusive in (False, True):
        for reverse in (False, True):
            yield Case(f"f32 axis=1 exclusive={exclusive} reverse={reverse}", x, axis=1,
                       exclusive=exclusive, reverse=reverse)
    yield Case("f32 default axis", x)
    yield Case("i32 axis=-1", _i(rng, (2, 3)), axis=-1)
    yield Case("f32 scalar", F32(2.0))
    yield Case("f32[0]", np.zeros(0, F32))


@recipe("reduction", "norm")
def _norm(rng):
    x = _u(rng, (3, 4))
    yield Case("default", x)
    for ord_ in (1, 2, np.inf, "euclidean"):
        yield Case(f"ord={ord_} axis=1", x, ord=ord_, axis=1)
    yield Case("ord=fro axis=[0,1]", x, ord="fro", axis=[0, 1])
    yield Case("ord=1 axis=[-2,-1]", x, ord=1, axis=[-2, -1])
    yield Case("ord=inf axis=[0,1] keepdims", x, ord=np.inf, axis=[0, 1], keepdims=True)
    yield Case("ord=3 axis=0", x, ord=3, axis=0)


@recipe("reduction", "l2_normalize")
def _l2n(rng):
    yield Case("f32 axis=1", _u(rng, (3, 4)), axis=1)
    yield Case("f32 all", _u(rng, (3, 4)))
    yield Case("zeros", np.zeros(3, F32), axis=0)


@recipe("reduction", "nn.moments")
def _moments(rng):
    yield Case("axes=[0]", _u(rng, (3, 4)), axes=[0])
    yield Case("axes=[0,1] keepdims", _u(rng, (3, 4)), axes=[0, 1], keepdims=True)


# ---------------------------------------------------------------- shapes and indexing

@recipe("shape", "reshape")
def _reshape(rng):
    x = _u(rng, (2, 6))
    yield Case("[3,4]", x, [3, 4])
    yield Case("[-1]", x, [-1])
    yield Case("[4,-1]", x, [4, -1])
    yield Case("scalar to [1,1]", F32(1.0), [1, 1])
    yield Case("[0,3] to [3,0]", np.zeros((0, 3), F32), [3, 0])
    yield Case("bad size", x, [5, 2])
    yield Case("two -1", x, [-1, -1])


@recipe("shape", "transpose")
def _transpose(rng):
    yield Case("default", _u(rng, (2, 3, 4)))
    yield Case("perm", _u(rng, (2, 3, 4)), [1, 0, 2])
    yield Case("scalar", F32(1.0))
    yield Case("bad perm", _u(rng, (2, 3)), [0, 0])


@recipe("shape", "expand_dims")
def _expand_dims(rng):
    for axis in (0, 1, -1, -3):
        yield Case(f"axis={axis}", _u(rng, (2, 3)), axis)
    yield Case("axis=3 out of range", _u(rng, (2, 3)), 3)


@recipe("shape", "squeeze")
def _squeeze(rng):
    x = _u(rng, (1, 3, 1))
    yield Case("all", x)
    yield Case("axis=[2]", x, [2])
    yield Case("axis=-1", x, -1)
    yield Case("axis not 1", x, [1])


@recipe("shape", "concat stack")
def _concat(rng, name):
    a, b = _u(rng, (2, 3)), _u(rng, (2, 3))
    yield Case("axis=0", [a, b], 0)
    yield Case("axis=-1", [a, b], -1)
    yield Case("single", [a], 1)
    yield Case("i32 scalars", [I32(1), I32(2)], 0)
    yield Case("shape clash", [a, _u(rng, (3, 3))], 1)
    yield Case("dtype clash", [a, _i(rng, (2, 3))], 0)


@recipe("shape", "unstack")
def _unstack(rng):
    yield Case("axis=0", _u(rng, (3, 2)))
    yield Case("axis=-1", _u(rng, (3, 2)), axis=-1)
    yield Case("num", _u(rng, (3, 2)), num=3)


@recipe("shape", "tile")
def _tile(rng):
    yield Case("[2,1]", _u(rng, (2, 3)), [2, 1])
    yield Case("[0,2]", _u(rng, (2, 3)), [0, 2])
    yield Case("wrong length", _u(rng, (2, 3)), [2])


@recipe("shape", "pad")
def _pad(rng):
    x = _u(rng, (3, 4))
    yield Case("constant", x, [[1, 2], [0, 1]])
    yield Case("constant value", x, [[1, 0], [2, 2]], constant_values=7.5)
    yield Case("reflect", x, [[2, 1], [3, 0]], mode="REFLECT")
    yield Case("symmetric", x, [[3, 1], [4, 2]], mode="SYMMETRIC")
    yield Case("lowercase mode", x, [[1, 1], [1, 1]], mode="reflect")
    yield Case("reflect too wide", x, [[3, 0], [0, 0]], mode="REFLECT")
    yield Case("i32 constant", _i(rng, (2,)), [[1, 1]])
    yield Case("bad paddings shape", x, [[1, 1]])


@recipe("shape", "reverse")
def _reverse(rng):
    yield Case("axis=[0]", _u(rng, (2, 3)), [0])
    yield Case("axis=[-1,0]", _u(rng, (2, 3)), [-1, 0])
    yield Case("axis=[]", _u(rng, (2, 3)), [])


@recipe("shape", "roll")
def _roll(rng):
    yield Case("shift=1 axis=0", _u(rng, (4,)), 1, 0)
    yield Case("shift=[1,-2] axis=[0,1]", _u(rng, (3, 4)), [1, -2], [0, 1])
    yield Case("same axis twice", _u(rng, (3, 4)), [1, 2], [1, 1])
    yield Case("shift=7", _u(rng, (3,)), 7, 0)


@recipe("shape", "repeat")
def _repeat(rng):
    yield Case("2 axis=0", _u(rng, (2, 3)), 2, axis=0)
    yield Case("[1,0,2] axis=1", _u(rng, (2, 3)), [1, 0, 2], axis=1)
    yield Case("flat", _u(rng, (2, 3)), 2)
    yield Case("scalar", F32(1.0), 3)


@recipe("shape", "split")
def _split(rng):
    yield Case("3 even", _u(rng, (6, 2)), 3)
    yield Case("sizes axis=1", _u(rng, (2, 6)), [1, 2, 3], axis=1)
    yield Case("sizes with -1", _u(rng, (6,)), [2, -1])
    yield Case("uneven", _u(rng, (5,)), 2)


@recipe("shape", "slice")
def _slice(rng):
    yield Case("basic", _u(rng, (3, 4)), [1, 0], [2, 3])
    yield Case("size -1", _u(rng, (3, 4)), [1, 1], [-1, -1])
    yield Case("out of bounds", _u(rng, (3, 4)), [2, 0], [2, 1])


@recipe("shape", "strided_slice")
def _strided_slice(rng):
    x = _u(rng, (4, 5, 3))
    yield Case("basic", x, [1, 0, 0], [3, 5, 3], [1, 2, 1])
    yield Case("negative stride", x, [3, 4, 2], [0, 0, 0], [-1, -2, -1])
    yield Case("begin_mask end_mask", x, [1, 1, 1], [2, 2, 2], [1, 1, 1], begin_mask=5, end_mask=2)
    yield Case("shrink_axis_mask", x, [1, 0, 2], [2, 5, 3], [1, 1, 1], shrink_axis_mask=5)
    yield Case("new_axis_mask", x, [0, 0, 0], [1, 5, 3], [1, 1, 1], new_axis_mask=2)
    yield Case("ellipsis_mask", x, [0, 1], [1, 2], [1, 1], ellipsis_mask=1)
    yield Case("clamped", x, [-10, 2, 0], [10, 100, 3], [1, 1, 1])


@recipe("shape", "gather")
def _gather(rng):
    x = _u(rng, (4, 3))
    yield Case("axis=0", x, np.array([3, 0, 0], I32))
    yield Case("axis=1 2-d indices", x, np.array([[2, 1], [0, 0]], I64), axis=1)
    yield Case("batch_dims=1", x, np.array([[1], [0], [2], [2]], I32), axis=1, batch_dims=1)
    yield Case("out of range", x, np.array([4], I32))
    yield Case("negative index", x, np.array([-1], I32))


@recipe("shape", "gather_nd")
def _gather_nd(rng):
    x = _u(rng, (3, 4))
    yield Case("full index", x, np.array([[0, 1], [2, 3]], I32))
    yield Case("row index", x, np.array([[2], [0]], I32))
    yield Case("out of range", x, np.array([[3, 0]], I32))


@recipe("shape", "boolean_mask")
def _boolean_mask(rng):
    x = _u(rng, (3, 4))
    yield Case("1-d mask", x, np.array([True, False, True]))
    yield Case("2-d mask", x, rng.uniform(size=(3, 4)) > 0.5)
    yield Case("axis=1", x, np.array([True, False, True, True]), axis=1)
    yield Case("bad mask shape", x, np.array([True, False]))


@recipe("shape", "where")
def _where(rng):
    c = rng.uniform(size=(3, 4)) > 0.5
    yield Case("one argument", c)
    yield Case("one argument f32", np.array([[0.0, 1.5], [2.0, 0.0]], F32))
    yield Case("three arguments broadcast", c, _u(rng, (3, 4)), _u(rng, (4,)))
    yield Case("dtype clash", c, _u(rng, (3, 4)), _i(rng, (3, 4)))


@recipe("shape", "broadcast_to")
def _broadcast_to(rng):
    yield Case("[3] -> [2,3]", _u(rng, (3,)), [2, 3])
    yield Case("scalar -> [2]", F32(1.0), [2])
    yield Case("incompatible", _u(rng, (3,)), [2, 4])


@recipe("shape", "one_hot")
def _one_hot(rng):
    yield Case("depth 4", np.array([0, 3, -1, 5], I32), 4)
    yield Case("on/off axis=0", np.array([1, 2], I64), 3, on_value=5.0, off_value=-1.0, axis=0)
    yield Case("dtype int32", np.array([[1], [0]], I32), 2, dtype="int32")


@recipe("shape", "fill")
def _fill(rng):
    yield Case("f32", [2, 3], 1.5)
    yield Case("i32 tensor value", [2], np.int32(4))
    yield Case("negative dim", [-1, 2], 0.0)


@recipe("shape", "zeros ones")
def _zeros(rng):
    yield Case("[2,3]", [2, 3])
    yield Case("int32", [2], dtype="int32")
    yield Case("scalar", [])


@recipe("shape", "zeros_like ones_like identity shape size rank")
def _like(rng):
    yield Case("f32[2,3]", _u(rng, (2, 3)))
    yield Case("i64 scalar", np.int64(3))
    yield Case("bool[0]", np.zeros(0, bool))


@recipe("shape", "range")
def _range(rng):
    yield Case("5", 5)
    yield Case("2, 9, 3", 2, 9, 3)
    yield Case("float", 0.5, 2.0, 0.25)
    yield Case("negative delta", 5, 0, -2)
    yield Case("empty", 3, 3)
    yield Case("delta 0", 0, 5, 0)


@recipe("shape", "linspace")
def _linspace(rng):
    yield Case("f32 5", F32(0.0), F32(1.0), 5)
    yield Case("f64 1", F64(2.0), F64(3.0), 1)
    yield Case("vector ends", np.array([0.0, 1.0], F32), np.array([1.0, 3.0], F32), 3)


@recipe("shape", "meshgrid")
def _meshgrid(rng):
    yield Case("xy", _u(rng, (3,)), _u(rng, (2,)))
    yield Case("ij", _u(rng, (3,)), _u(rng, (2,)), indexing="ij")


@recipe("shape", "sequence_mask")
def _sequence_mask(rng):
    yield Case("lengths", np.array([1, 3, 0], I32))
    yield Case("maxlen", np.array([1, 3, 0], I32), 4)
    yield Case("2-d dtype", np.array([[1, 2], [0, 1]], I64), 3, dtype="float32")


@recipe("shape", "eye")
def _eye(rng):
    yield Case("3", 3)
    yield Case("2x4", 2, 4)
    yield Case("batch", 2, batch_shape=[3], dtype="int32")


@recipe("shape", "broadcast_dynamic_shape")
def _broadcast_dynamic_shape(rng):
    yield Case("[2,1] [3]", np.array([2, 1], I32), np.array([3], I32))
    yield Case("incompatible", np.array([2], I32), np.array([3], I32))


@recipe("shape", "broadcast_static_shape")
def _broadcast_static_shape(rng):
    yield Case("[2,1] [3]", Shape([2, 1]), Shape([3]))
    yield Case("unknown dim", Shape([None, 1]), Shape([1, 4]))
    yield Case("incompatible", Shape([2]), Shape([3]))


@recipe("dtype", "bitcast")
def _bitcast(rng):
    yield Case("f32 -> i32", _u(rng, (3,)), "int32")
    yield Case("i32 -> u8", np.array([1, 256], I32), "uint8")
    yield Case("u8[2,4] -> i32", _i(rng, (2, 4), np.uint8, 0, 255), "int32")
    yield Case("u8[3] -> i32 bad", _i(rng, (3,), np.uint8, 0, 255), "int32")


# ---------------------------------------------------------------- scatter

@recipe("scatter", "scatter_nd")
def _scatter_nd(rng):
    yield Case("1-d", np.array([[1], [3], [1]], I32), _u(rng, (3,)), [5])
    yield Case("rows", np.array([[0], [2]], I32), _u(rng, (2, 3)), [4, 3])
    yield Case("out of range", np.array([[5]], I32), _u(rng, (1,)), [5])


@recipe("scatter", "tensor_scatter_nd_update tensor_scatter_nd_add tensor_scatter_nd_sub "
        "tensor_scatter_nd_max tensor_scatter_nd_min")
def _tensor_scatter(rng, name):
    yield Case("elements", _u(rng, (4, 3)), np.array([[0, 1], [3, 2]], I32), _u(rng, (2,)))
    yield Case("rows i32", _i(rng, (4, 3)), np.array([[1], [3]], I64), _i(rng, (2, 3)))
    yield Case("out of range", _u(rng, (4,)), np.array([[4]], I32), _u(rng, (1,)))
    yield Case("bad updates shape", _u(rng, (4,)), np.array([[1]], I32), _u(rng, (2,)))


# ---------------------------------------------------------------- sorting

@recipe("sort", "sort argsort")
def _sort(rng, name):
    yield Case("f32 default", _u(rng, (3, 4)))
    yield Case("DESCENDING axis=0", _u(rng, (3, 4)), axis=0, direction="DESCENDING")
    yield Case("i32 ties", np.array([3, 1, 3, 2, 1], I32))
    yield Case("nan", np.array([1.0, np.nan, -1.0], F32))
    yield Case("bad direction", _u(rng, (3,)), direction="UP")


@recipe("sort", "top_k")
def _top_k(rng):
    yield Case("k=2", _u(rng, (3, 5)), 2)
    yield Case("ties", np.array([1, 3, 3, 2], I32), 3)
    yield Case("k too large", _u(rng, (3,)), 4)
    yield Case("sorted=False", _u(rng, (4,)), k=1, sorted=False)


@recipe("sort", "unique unique_with_counts")
def _unique(rng, name):
    yield Case("i32", np.array([3, 1, 3, 2, 1], I32))
    yield Case("f32 empty", np.zeros(0, F32))
    yield Case("out_idx int64", np.array([1, 1, 2], I32), out_idx="int64")
    yield Case("2-d", np.array([[1, 2]], I32))


@recipe("sort", "searchsorted")
def _searchsorted(rng):
    seq = np.sort(_u(rng, (2, 5)), axis=-1)
    yield Case("left", seq, _u(rng, (2, 3)))
    yield Case("right", seq, seq[:, :3].copy(), side="right")
    yield Case("1-d int", np.array([1, 3, 3, 7], I32), np.array([0, 3, 8], I32))


# ---------------------------------------------------------------- contractions

@recipe("linalg", "matmul")
def _matmul(rng):
    yield Case("2-d", _u(rng, (2, 3)), _u(rng, (3, 4)))
    yield Case("batch broadcast", _u(rng, (2, 2, 3)), _u(rng, (3, 4)))
    yield Case("transpose_a", _u(rng, (3, 2)), _u(rng, (3, 4)), transpose_a=True)
    yield Case("adjoint_b", _u(rng, (2, 3)), _u(rng, (4, 3)), adjoint_b=True)
    yield Case("i32", _i(rng, (2, 2)), _i(rng, (2, 2)))
    yield Case("shape clash", _u(rng, (2, 3)), _u(rng, (2, 3)))
    yield Case("1-d", _u(rng, (3,)), _u(rng, (3, 2)))


@recipe("einsum", "einsum")
def _einsum(rng):
    yield Case("matmul", "ij,jk->ik", _u(rng, (2, 3)), _u(rng, (3, 4)))
    yield Case("trace", "ii", _u(rng, (3, 3)))
    yield Case("implicit", "ij,jk", _u(rng, (2, 3)), _u(rng, (3, 4)))
    yield Case("ellipsis", "...ij,...jk->...ik", _u(rng, (2, 2, 3)), _u(rng, (2, 3, 2)))
    yield Case("outer", "i,j->ij", _u(rng, (2,)), _u(rng, (3,)))
    yield Case("sum", "ij->", _u(rng, (2, 3)))
    yield Case("bad", "ij,jk->ik", _u(rng, (2, 3)), _u(rng, (2, 4)))


@recipe("einsum", "tensordot")
def _tensordot(rng):
    yield Case("axes=1", _u(rng, (2, 3)), _u(rng, (3, 4)), 1)
    yield Case("axes=0", _u(rng, (2,)), _u(rng, (3,)), 0)
    yield Case("axes lists", _u(rng, (2, 3, 4)), _u(rng, (4, 3)), [[1, 2], [1, 0]])


# ---------------------------------------------------------------- nn

@recipe("nn", "relu relu6 elu selu gelu silu swish softplus softsign sigmoid tanh "
        "nn.leaky_relu")
def _activation(rng, name):
    yield Case("f32[3,4]", _u(rng, (3, 4), F32, -8, 8))
    yield Case("f64", _u(rng, (5,), F64, -8, 8))
    yield Case("f32 special", SPECIAL)
    yield Case("f32[0]", np.zeros(0, F32))
    yield Case("i32", _i(rng, (4,)))


@recipe("nn", "softmax log_softmax")
def _softmax(rng, name):
    yield Case("last axis", _u(rng, (3, 4)))
    yield Case("axis=0", _u(rng, (3, 4)), axis=0)
    yield Case("f64 1-d", _u(rng, (5,), F64))
    yield Case("large", np.array([1000.0, 0.0, -1000.0], F32))


@recipe("nn", "bias_add")
def _bias_add(rng):
    yield Case("NHWC", _u(rng, (2, 3, 4)), _u(rng, (4,)))
    yield Case("bad bias", _u(rng, (2, 3)), _u(rng, (2,)))


@recipe("nn", "l2_loss")
def _l2_loss(rng):
    yield Case("f32", _u(rng, (3, 4)))
    yield Case("f32 scalar", F32(2.0))


@recipe("nn", "sigmoid_cross_entropy_with_logits")
def _sig_ce(rng):
    yield Case("f32", labels=(rng.uniform(size=(3, 4)) > 0.5).astype(F32),
               logits=_u(rng, (3, 4), F32, -30, 30))
    yield Case("shape clash", labels=np.zeros(3, F32), logits=np.zeros(4, F32))


@recipe("nn", "weighted_cross_entropy_with_logits")
def _weighted_ce(rng):
    yield Case("f32", labels=(rng.uniform(size=(3, 4)) > 0.5).astype(F32),
               logits=_u(rng, (3, 4), F32, -30, 30), pos_weight=2.5)


@recipe("nn", "softmax_cross_entropy_with_logits")
def _softmax_ce(rng):
    labels = rng.dirichlet(np.ones(4), size=3).astype(F32)
    yield Case("f32", labels=labels, logits=_u(rng, (3, 4)))
    yield Case("axis=0", labels=labels.T.copy(), logits=_u(rng, (4, 3)), axis=0)


@recipe("nn", "sparse_softmax_cross_entropy_with_logits")
def _sparse_ce(rng):
    yield Case("f32", labels=np.array([0, 3, 1], I32), logits=_u(rng, (3, 4)))
    yield Case("label out of range", labels=np.array([4], I32), logits=_u(rng, (1, 4)))


@recipe("nn", "embedding_lookup")
def _embedding(rng):
    yield Case("ids", _u(rng, (5, 3)), np.array([[0, 4], [2, 2]], I32))


@recipe("nn", "batch_normalization")
def _batch_norm(rng):
    yield Case("f32", _u(rng, (2, 3)), _u(rng, (3,)), _u(rng, (3,), F32, 0.5, 2),
               _u(rng, (3,)), _u(rng, (3,)), 1e-3)


@recipe("nn", "conv2d")
def _conv2d(rng):
    x, w = _u(rng, (1, 5, 5, 2)), _u(rng, (3, 3, 2, 3))
    yield Case("VALID", x, w, 1, "VALID")
    yield Case("SAME stride 2", x, w, 2, "SAME")
    yield Case("dilations", x, w, 1, "SAME", dilations=2)


@recipe("nn", "conv1d")
def _conv1d(rng):
    yield Case("SAME", _u(rng, (2, 6, 2)), _u(rng, (3, 2, 4)), 1, "SAME")
    yield Case("VALID stride 2", _u(rng, (2, 7, 2)), _u(rng, (3, 2, 4)), 2, "VALID")


@recipe("nn", "max_pool2d avg_pool2d")
def _pool(rng, name):
    yield Case("2x2 VALID", _u(rng, (1, 4, 5, 2)), 2, 2, "VALID")
    yield Case("3x3 SAME stride 2", _u(rng, (1, 5, 5, 1)), 3, 2, "SAME")


# ---------------------------------------------------------------- linalg

def _spd(rng, n, batch=()):
    a = _u(rng, batch + (n, n), F64)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


@recipe("linalg", "inv det slogdet logdet cholesky eigvalsh")
def _square(rng, name):
    yield Case("f64 spd", _spd(rng, 3))
    yield Case("f32 batch spd", _spd(rng, 3, (2,)).astype(F32))
    yield Case("not square", _u(rng, (2, 3), F64))


@recipe("linalg", "eigh qr svd", up_to_sign=True)
def _decompositions(rng, name):
    yield Case("f64 spd", _spd(rng, 3))
    yield Case("f32 batch spd", _spd(rng, 3, (2,)).astype(F32))
    yield Case("not square", _u(rng, (2, 3), F64))


@recipe("linalg", "trace diag_part matrix_transpose adjoint")
def _matrix_views(rng, name):
    yield Case("square", _u(rng, (3, 3)))
    yield Case("batch rect", _u(rng, (2, 3, 4)))


@recipe("linalg", "linalg.diag")
def _diag(rng):
    yield Case("vector", _u(rng, (3,)))
    yield Case("batch", _u(rng, (2, 3)))


@recipe("linalg", "band_part")
def _band_part(rng):
    yield Case("lower", _u(rng, (4, 4)), -1, 0)
    yield Case("band", _u(rng, (3, 5)), 1, 2)


@recipe("linalg", "matvec")
def _matvec(rng):
    yield Case("2-d", _u(rng, (2, 3)), _u(rng, (3,)))
    yield Case("transpose_a", _u(rng, (3, 2)), _u(rng, (3,)), transpose_a=True)


@recipe("linalg", "solve cholesky_solve triangular_solve lstsq")
def _solve(rng, name):
    a = _spd(rng, 3)
    if name == "cholesky_solve":
        a = np.linalg.cholesky(a)
    if name == "triangular_solve":
        a = np.tril(a)
    yield Case("f64", a, _u(rng, (3, 2), F64))


# ---------------------------------------------------------------- dtypes

@recipe("dtype", "as_dtype")
def _as_dtype(rng):
    for spec in ("float32", "int64", "bool", "uint8", np.float16, np.int8):
        yield Case(repr(spec), spec)
    yield Case("unknown", "float128x")


# ---------------------------------------------------------------- everyday ops

@recipe("special", "lgamma digamma")
def _special_unary(rng, name):
    yield Case("f32 positive", _u(rng, (3, 4), F32, 0.1, 8.0))
    yield Case("f64 negative", np.array([-0.5, -2.5, -3.7, 1e-3], F64))
    yield Case("poles", np.array([0.0, -1.0, -2.0], F32))
    yield Case("i32 (not float)", np.array([1, 2], I32))


@recipe("special", "xlogy xlog1py divide_no_nan multiply_no_nan")
def _safe_binary(rng, name):
    yield Case("f32 zeros", np.array([0.0, 0.0, 2.0, 1.0], F32), np.array([0.0, 3.0, 0.0, 4.0], F32))
    yield Case("f64 broadcast", _u(rng, (2, 3), F64, 0.1, 3), _u(rng, (3,), F64, 0.1, 3))
    yield Case("f32 nan", np.array([0.0, np.nan], F32), np.array([np.nan, 0.0], F32))


@recipe("special", "cumulative_logsumexp")
def _cum_lse(rng):
    yield Case("axis 1", _u(rng, (2, 4)), axis=1)
    yield Case("exclusive reverse", _u(rng, (5,), F64), exclusive=True, reverse=True)


@recipe("special", "polyval")
def _polyval(rng):
    yield Case("3 coeffs", [1.0, -2.0, 3.0], _u(rng, (4,)))
    yield Case("no coeffs", [], _u(rng, (3,)))


@recipe("segment", "segment_sum segment_mean segment_max segment_min segment_prod")
def _segment(rng, name):
    yield Case("f32 rows", _u(rng, (4, 3)), np.array([0, 0, 1, 3], I32))
    yield Case("i32", _i(rng, (5,)), np.array([0, 1, 1, 1, 2], I64))
    yield Case("unsorted ids", _u(rng, (3,)), np.array([1, 0, 2], I32))


@recipe("segment", "unsorted_segment_sum unsorted_segment_mean unsorted_segment_max "
        "unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n")
def _unsorted_segment(rng, name):
    yield Case("f32 negative ids", _u(rng, (4, 3)), np.array([2, -1, 0, 2], I32), 4)
    yield Case("i32", _i(rng, (5,)), np.array([0, 3, 1, 3, 0], I32), 5)
    yield Case("id too large", _u(rng, (2,)), np.array([0, 3], I32), 2)


@recipe("segment", "bincount")
def _bincount(rng):
    yield Case("plain", np.array([1, 1, 3, 0], I32))
    yield Case("weights minlength", np.array([1, 1, 3], I32), weights=_u(rng, (3,)), minlength=6)
    yield Case("maxlength", np.array([1, 4, 3], I32), maxlength=3)
    yield Case("axis -1", np.array([[1, 1], [3, 0]], I32), axis=-1)


@recipe("segment", "confusion_matrix")
def _confusion(rng):
    yield Case("inferred classes", np.array([1, 2, 4], I32), np.array([2, 2, 4], I32))
    yield Case("weights", np.array([0, 1, 1], I32), np.array([1, 1, 0], I32), num_classes=3,
               weights=np.array([1.0, 2.0, 3.0], F32), dtype="float32")


@recipe("nn", "depthwise_conv2d")
def _depthwise(rng):
    yield Case("same", _u(rng, (2, 5, 5, 3)), _u(rng, (3, 3, 3, 2)), [1, 1, 1, 1], "SAME")
    yield Case("valid stride 2", _u(rng, (1, 6, 6, 2)), _u(rng, (2, 2, 2, 1)), [1, 2, 2, 1],
               "VALID")


@recipe("nn", "separable_conv2d")
def _separable(rng):
    yield Case("same", _u(rng, (2, 5, 5, 3)), _u(rng, (3, 3, 3, 2)), _u(rng, (1, 1, 6, 4)),
               [1, 1, 1, 1], "SAME")


@recipe("nn", "conv2d_transpose")
def _conv2d_transpose(rng):
    yield Case("same stride 2", _u(rng, (2, 5, 5, 3)), _u(rng, (3, 3, 4, 3)), [2, 10, 10, 4], 2)
    yield Case("valid", _u(rng, (1, 4, 4, 2)), _u(rng, (3, 3, 1, 2)), [1, 9, 9, 1], 2, "VALID")


@recipe("nn", "conv1d_transpose")
def _conv1d_transpose(rng):
    yield Case("same stride 2", _u(rng, (2, 6, 3)), _u(rng, (3, 2, 3)), [2, 12, 2], 2)


@recipe("nn", "local_response_normalization lrn")
def _lrn(rng, name):
    yield Case("radius 2", _u(rng, (2, 3, 3, 6)), 2, 1.0, 0.5, 0.75)
    yield Case("defaults", _u(rng, (1, 2, 2, 12)))


@recipe("nn", "compute_average_loss")
def _average_loss(rng):
    yield Case("batch", _u(rng, (4,)))
    yield Case("weights global", _u(rng, (4,)), sample_weight=_u(rng, (4,)), global_batch_size=8)


@recipe("nn", "scale_regularization_loss")
def _scale_reg(rng):
    yield Case("vector", _u(rng, (3,)))


@recipe("image", "image.resize")
def _resize(rng):
    yield Case("bilinear down", _u(rng, (1, 4, 5, 2)), [2, 3])
    yield Case("bilinear up", _u(rng, (4, 5, 1)), [7, 9])
    yield Case("nearest i32", _i(rng, (1, 4, 5, 1)), [3, 11], method="nearest")
    yield Case("u8 bilinear", _i(rng, (3, 5, 2), np.uint8, 0, 255), [4, 4])
    yield Case("aspect", _u(rng, (3, 5, 2)), [8, 3], preserve_aspect_ratio=True)


@recipe("image", "flip_left_right flip_up_down per_image_standardization")
def _image_unary(rng, name):
    yield Case("hwc f32", _u(rng, (3, 5, 2)))
    yield Case("nhwc u8", _i(rng, (2, 3, 4, 1), np.uint8, 0, 255))


@recipe("image", "rot90")
def _rot90(rng):
    for k in range(4):
        yield Case(f"k={k}", _u(rng, (3, 5, 2)), k)
    yield Case("batch", _u(rng, (2, 3, 4, 1)), 1)


@recipe("io", "serialize_tensor")
def _serialize(rng):
    yield Case("f32", _u(rng, (2, 3)))
    yield Case("i64 empty", np.zeros((0, 2), I64))
    yield Case("string", np.array([b"ab", b"c"], object))


@recipe("io", "parse_tensor")
def _parse(rng):
    yield Case("i32", np.array(b'\x08\x03\x12\x04\x12\x02\x08\x03"\x0c\x01\x00\x00\x00'
                               b'\x02\x00\x00\x00\x03\x00\x00\x00', object), out_type="int32")
    yield Case("wrong type", np.array(b'\x08\x03\x12\x00"\x04\x01\x00\x00\x00', object),
               out_type="float32")


@recipe("misc", "ensure_shape")
def _ensure_shape(rng):
    yield Case("compatible", _u(rng, (2, 3)), [None, 3])
    yield Case("incompatible", _u(rng, (2, 3)), [3])


@recipe("misc", "identity_n")
def _identity_n(rng):
    yield Case("two", [_u(rng, (2,)), _i(rng, (3,))])


# ---------------------------------------------------------------- strings

_TEXT = np.array([b"a b  c", b"", b" d ", "h\u00e9llo".encode()], object)


@recipe("strings", "strings.split")
def _str_split(rng):
    yield Case("whitespace", _TEXT)
    yield Case("sep", np.array([b"a,b,,c", b"", b"x"], object), sep=",")
    yield Case("maxsplit", np.array([b"a,b,,c"], object), ",", 1)
    yield Case("scalar", np.array(b"a b", object))
    yield Case("matrix", np.array([[b"a b", b"c"]], object))


@recipe("strings", "strings.length strings.lower strings.upper strings.strip "
        "strings.bytes_split")
def _str_unary(rng, name):
    yield Case("vector", _TEXT)
    yield Case("scalar", np.array(b" Hi ", object))


@recipe("strings", "strings.unicode_split strings.unicode_decode")
def _str_unicode(rng, name):
    yield Case("utf-8", _TEXT, "UTF-8")


@recipe("strings", "strings.join")
def _str_join(rng):
    yield Case("two", [np.array([b"a", b"b"], object), np.array([b"c", b"d"], object)],
               separator="-")


@recipe("strings", "strings.reduce_join")
def _str_reduce_join(rng):
    m = np.array([[b"a", b"b"], [b"c", b"d"]], object)
    yield Case("all", m)
    yield Case("axis 1 sep", m, axis=1, separator=",")
    yield Case("axis 0 keepdims", m, axis=0, keepdims=True)


@recipe("strings", "strings.substr")
def _str_substr(rng):
    yield Case("bytes", np.array([b"hello", b"hi"], object), 1, 3)
    yield Case("negative", np.array(b"hello", object), -3, 2)
    yield Case("out of range", np.array(b"hi", object), 5, 1)


@recipe("strings", "strings.regex_replace")
def _str_regex_replace(rng):
    yield Case("global", np.array([b"aaa bab"], object), "a+", "X")
    yield Case("first", np.array(b"aaa", object), "a", "b", replace_global=False)
    yield Case("group", np.array(b"abc", object), "(b)", r"[\1]")


@recipe("strings", "strings.regex_full_match")
def _str_full_match(rng):
    yield Case("dot", np.array([b"abc", b"abcd"], object), "a.c")


@recipe("strings", "strings.to_number")
def _str_to_number(rng):
    yield Case("floats", np.array([b"1.5", b"-2", b"3e2"], object))
    yield Case("ints", np.array([b"12", b"-3"], object), out_type="int32")
    yield Case("bad", np.array([b"abc"], object))


@recipe("strings", "strings.as_string")
def _str_as_string(rng):
    yield Case("f32", _u(rng, (3,)))
    yield Case("i32", _i(rng, (3,)))
    yield Case("precision", _u(rng, (2,), F64), precision=2)
    yield Case("shortest", np.array([1e10, 0.5, 3.0], F32), shortest=True)
    yield Case("width fill", np.array([7, 123], I32), width=4, fill="0")
    yield Case("bool", np.array([True, False]))


@recipe("strings", "strings.to_hash_bucket_fast")
def _str_hash(rng):
    texts = [("x" * n).encode() for n in (0, 1, 3, 7, 12, 16, 20, 32, 40, 64, 65, 100, 300)]
    yield Case("lengths", np.array(texts, object), 1000003)


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


class Shape(list):
    """A static shape argument: becomes the library's TensorShape."""


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
