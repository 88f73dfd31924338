"""Special points: TensorFlow 2.21's values and gradients where models sit,
recorded in the repository and replayed on our runtime (a developer tool).

    $BENCH_TF_PYTHON tools/tf_diff.py --special [--section S] [--ops PATTERN]  # live
    $BENCH_TF_PYTHON tools/tf_diff.py --special [--section S] --record   # rewrite S.json
    python3 -m pytest -n 0 -q tests/runtime/test_tf_special_points.py   # replay, no TF needed

Sections: `ops` (this module, the default) and `keras` (tools/tf_special_keras.py:
every Keras loss, activation and weighted layer).

Random inputs never land on the points where a formula takes a side: 0 and
+-1, ties (max/min, sorting, pooling, maximum(x, x)), each bound of a clip or
threshold, saturation (logits +-30, +-100), 0 and 1 as probabilities, zero
vectors and zero variance, empty segments and repeated indices, -inf in
logsumexp and softmax. `CASES` puts every op with a gradient rule at such
points (tests/runtime/test_tf_special_points.py checks that each op type of
the gradient registry appears in the traced graph of some case of any
section, or in `EXEMPT` with the reason). Each case runs in its `dtypes`
(float32 and float64 by default); its value and the gradient of
sum(output * w) for each floating-point input (w: 1, 2, 3, 1, ... over each
float output, as `tf_diff.py --gradients`) are compared within
`tf_diff.TOLERANCE`, eagerly and inside `tf.function`.

A case is `fn(tf, *inputs)`, written once for both libraries, and its inputs
(float64 numpy arrays, cast to each dtype; integer arrays stay as they are).
Its key names the op and the point ("nn.relu6 at 0 and 6"); a record is
`<key>|<dtype>`. Two options extend it (the Keras section uses both):

- `build=True`: `fn(tf)` is a builder, run once per library and mode, that
  returns `(call, variables)`: `call(*inputs)` is the function at the point
  (a built layer, its weights set) and the gradients cover `variables` (its
  trainable weights) after the float inputs. Such a case also runs in a
  third mode, "taped": an eager tape around a `tf.function` of `call` (a
  traced Keras `call` in a hand-written training loop), whose value and
  gradients must be TF's `tf.function` ones.
- `tolerance="float32"`: every float leaf is compared within float32's
  tolerance (a Keras loss computes in float32 whatever its inputs' dtype).

Recorded data (format 1), one JSON file per section under
tests/data/tf_special_points/: ops.json from this module's table. Another
section plugs in with its own table module, tools/tf_special_<section>.py,
defining `CASES` (filled by `case = tf_special.case_adder(CASES)`) and
`KNOWN` (keras.json: tools/tf_special_keras.py), and `tf_diff.py --special
--section <section> [--record]` compares it live or writes <section>.json;
the replay test picks up every JSON file there:

    {"format": 1, "source": "TensorFlow 2.21.0", "module": "tf_special",
     "records": [{"id": "<key>|float32", "key": "<key>", "dtype": "float32",
                  "inputs": [ARRAY, ...],
                  "value": OUTCOME, "grads": OUTCOME,
                  "value_function": OUTCOME, "grads_function": OUTCOME}, ...]}

    ARRAY   = {"dtype": "float32", "shape": [2], "data": [0.0, "nan", "-inf"]}
    OUTCOME = {"leaves": [LEAF, ...]} or {"error": "InvalidArgumentError"}
    LEAF    = ARRAY, or {"dtype": "None"} for a gradient that is None

`module` names the table under tools/ whose `CASES[key]` gives the function
(`fn(tf, *inputs)`, or its builder) and whose `KNOWN` lists the differences
kept on purpose (by record id, or "<id>@eager" / "<id>@function" /
"<id>@taped" for one mode), each as "docs/tf_differences.md: <words of its
line there>"; the replay marks those as expected failures (strict: fixing
one fails until its entry goes).
`value`/`grads` are TF's eager results; `*_function` are present only where
TF's `tf.function` result differs from its eager one beyond the tolerance
(its graph optimizer rounds differently).
"""

import fnmatch
import json
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "tests" / "data" / "tf_special_points"
OPS_JSON = DATA_DIR / "ops.json"
FLOAT_DTYPES = ("float32", "float64")

CASES = {}      # key -> Case


class Case:
    """`fn(tf, *inputs)` at one special point; `dtypes`: the float dtypes to run.
    With `build`, `fn(tf)` makes the case's objects once and returns `(call,
    variables)`: `call(*inputs)` is the function, `variables` its weights.
    `tolerance` (a dtype name) compares every float leaf within that dtype's
    tolerance (float64 results computed in float32)."""

    def __init__(self, fn, inputs, dtypes=FLOAT_DTYPES, build=False, tolerance=None):
        self.fn, self.inputs, self.dtypes = fn, inputs, dtypes
        self.build, self.tolerance = build, tolerance

    def inputs_as(self, dtype):
        return [np.asarray(v, dtype) if np.asarray(v).dtype.kind == "f" else np.asarray(v)
                for v in self.inputs]


def case_adder(cases):
    """`case(key, fn, *inputs, dtypes=..., build=False, tolerance=None)` adding
    to `cases` (a table's `CASES`)."""
    def case(key, fn, *inputs, dtypes=FLOAT_DTYPES, build=False, tolerance=None):
        if key in cases:
            raise ValueError(f"special case {key!r} defined twice")
        cases[key] = Case(fn, [np.asarray(v) for v in inputs], dtypes, build, tolerance)
    return case


case = case_adder(CASES)


def f(*values):
    return np.array(values, np.float64)


def i32(*values):
    return np.array(values, np.int32)


INF, NAN = np.inf, np.nan
# 0, +-1, a half, saturation: the points a unary function is checked at
POINTS = f(0.0, 1.0, -1.0, 0.5, 30.0, -30.0, 100.0, -100.0)
POSITIVE = f(0.0, 1.0, 0.5, 2.0, 30.0, 100.0)
UNIT = f(0.0, 1.0, -1.0, 0.5, -0.5)
PROBS = f(0.0, 1.0, 0.5, 1e-7, 1.0 - 1e-7)


def _second(tf, op, x):
    """The gradient of sum(op(x)) as a function of x: its gradient is op's second order."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(op(x))
    return tf.convert_to_tensor(tape.gradient(y, x))      # TF's gather gives IndexedSlices


# ---------------------------------------------------------------- elementwise unary

for _name in ("abs", "negative", "sign", "square", "exp", "expm1", "sin", "cos", "tan", "sinh",
              "cosh", "tanh", "atan", "asinh", "erf", "erfc", "sigmoid", "softplus",
              "softsign", "reciprocal"):
    case(f"math.{_name} at 0, +-1, +-30, +-100",
         lambda tf, x, n=_name: getattr(tf.math, n)(x), POINTS)
for _name in ("sqrt", "rsqrt", "log", "log1p", "lgamma", "digamma"):
    case(f"math.{_name} at 0, 1 and large", lambda tf, x, n=_name: getattr(tf.math, n)(x),
         POSITIVE)
for _name in ("asin", "acos", "atanh"):
    case(f"math.{_name} at 0 and +-1", lambda tf, x, n=_name: getattr(tf.math, n)(x), UNIT)
case("math.acosh at 1", lambda tf, x: tf.math.acosh(x), f(1.0, 2.0, 30.0))
case("math.log1p at -1", lambda tf, x: tf.math.log1p(x), f(-1.0, -0.5))
case("math.lgamma at poles", lambda tf, x: tf.math.lgamma(x), f(-1.0, -2.0, 1.0, 2.0))
case("math.log_sigmoid at 0, +-30, +-100", lambda tf, x: tf.math.log_sigmoid(x), POINTS)
case("math.sign at -0", lambda tf, x: tf.math.sign(x), f(-0.0, 0.0))
case("math.abs at -0", lambda tf, x: tf.math.abs(x), f(-0.0, 0.0))
for _name, _op in (("sqrt", "sqrt"), ("rsqrt", "rsqrt"), ("reciprocal", "reciprocal"),
                   ("tanh", "tanh"), ("sigmoid", "sigmoid"), ("digamma", "digamma")):
    case(f"math.{_name} second order", lambda tf, x, n=_op: _second(tf, getattr(tf.math, n), x),
         f(0.5, 1.0, 2.0))

# ---------------------------------------------------------------- activations

case("nn.relu at 0", lambda tf, x: tf.nn.relu(x), f(0.0, -0.0, 1.0, -1.0))
case("nn.relu second order at 0", lambda tf, x: _second(tf, tf.nn.relu, x), f(0.0, 1.0, -1.0))
case("nn.relu6 at 0 and 6", lambda tf, x: tf.nn.relu6(x), f(0.0, 6.0, -1.0, 3.0, 7.0))
case("nn.elu at 0", lambda tf, x: tf.nn.elu(x), POINTS)
case("nn.elu second order", lambda tf, x: _second(tf, tf.nn.elu, x), f(0.0, 1.0, -1.0))
case("nn.selu at 0", lambda tf, x: tf.nn.selu(x), POINTS)
case("nn.selu second order", lambda tf, x: _second(tf, tf.nn.selu, x), f(0.0, 1.0, -1.0))
case("nn.leaky_relu at 0", lambda tf, x: tf.nn.leaky_relu(x, 0.1), f(0.0, 1.0, -1.0, -100.0))
case("nn.gelu at 0 and tails", lambda tf, x: tf.nn.gelu(x), POINTS)
case("nn.gelu approximate", lambda tf, x: tf.nn.gelu(x, approximate=True), POINTS)
case("nn.silu at 0 and saturation", lambda tf, x: tf.nn.silu(x), POINTS)
case("nn.softmax with ties", lambda tf, x: tf.nn.softmax(x), f([1.0, 1.0, 1.0], [0.0, 0.0, 5.0]))
case("nn.softmax saturated", lambda tf, x: tf.nn.softmax(x),
     f([100.0, -100.0, 0.0], [30.0, -30.0, 30.0]))
case("nn.softmax with -inf", lambda tf, x: tf.nn.softmax(x), f([-INF, 0.0, 1.0], [-INF, 2.0, 2.0]))
case("nn.log_softmax with -inf", lambda tf, x: tf.nn.log_softmax(x),
     f([-INF, 0.0, 1.0], [0.0, 0.0, 0.0]))
case("nn.log_softmax saturated", lambda tf, x: tf.nn.log_softmax(x),
     f([100.0, -100.0, 0.0], [30.0, -30.0, 30.0]))
case("nn.softmax second order", lambda tf, x: _second(tf, lambda t: tf.nn.softmax(t) ** 2, x),
     f([1.0, 1.0, 1.0], [0.0, 0.0, 5.0]))

# ---------------------------------------------------------------- cross-entropies

_LOGITS = f([0.0, 0.0, 0.0, 0.0], [30.0, -30.0, 100.0, -100.0])
_LABELS = f([0.0, 1.0, 0.5, 1.0], [1.0, 0.0, 0.0, 1.0])
case("nn.sigmoid_cross_entropy_with_logits at 0 and saturation",
     lambda tf, z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
     _LABELS, _LOGITS)
case("nn.weighted_cross_entropy_with_logits at 0 and saturation",
     lambda tf, z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 2.0), _LABELS, _LOGITS)
case("nn.softmax_cross_entropy_with_logits at ties and saturation",
     lambda tf, z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
     f([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.5, 0.5, 0.0, 0.0]),
     f([0.0, 0.0, 0.0, 0.0], [100.0, -100.0, 0.0, 30.0], [30.0, 30.0, -30.0, 0.0]))
case("nn.sparse_softmax_cross_entropy_with_logits at ties and saturation",
     lambda tf, z, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
     i32(0, 2, 1), f([0.0, 0.0, 0.0, 0.0], [100.0, -100.0, 0.0, 30.0], [30.0, 30.0, -30.0, 0.0]))
case("nn.sparse_softmax_cross_entropy_with_logits second order",
     lambda tf, x: _second(tf, lambda t: tf.nn.sparse_softmax_cross_entropy_with_logits(
         labels=tf.constant([0, 2]), logits=t), x), f([0.0, 0.0, 0.0], [1.0, 1.0, 5.0]))
case("nn.l2_loss of zeros", lambda tf, x: tf.nn.l2_loss(x), f(0.0, 0.0, 0.0))
case("log of probabilities 0 and 1", lambda tf, p: tf.math.log(p), PROBS)
case("log1p(-p) of probabilities 0 and 1", lambda tf, p: tf.math.log1p(-p), PROBS)
case("xlogy(z, p) of probabilities 0 and 1", lambda tf, z, p: tf.math.xlogy(z, p),
     f(0.0, 1.0, 0.5, 0.0, 1.0), PROBS)
case("binary cross-entropy of probabilities 0 and 1",
     lambda tf, z, p: -(z * tf.math.log(p) + (1.0 - z) * tf.math.log(1.0 - p)),
     f(0.0, 1.0, 0.5, 0.0, 1.0), PROBS)
case("clipped log of probabilities 0 and 1",
     lambda tf, p: tf.math.log(tf.clip_by_value(p, 1e-7, 1.0 - 1e-7)), PROBS)
case("sparse cross-entropy of a probability 0",
     lambda tf, p: -tf.math.log(tf.gather(p, [1, 0], axis=1, batch_dims=0)),
     f([1.0, 0.0], [0.5, 0.5]))

# ---------------------------------------------------------------- binary elementwise

_A, _B = f(0.0, 0.0, 1.0, -1.0, 2.0, 0.0), f(0.0, 1.0, 1.0, 1.0, 2.0, -1.0)
for _name in ("add", "subtract", "multiply", "squared_difference", "divide_no_nan",
              "multiply_no_nan", "xlogy", "xlog1py", "atan2"):
    case(f"math.{_name} at 0 and ties", lambda tf, a, b, n=_name: getattr(tf.math, n)(a, b),
         _A, _B)
case("math.truediv by 0", lambda tf, a, b: tf.math.truediv(a, b), f(0.0, 1.0, -1.0, 2.0),
     f(0.0, 0.0, 0.0, 2.0))
case("math.pow at 0 and 1", lambda tf, a, b: tf.math.pow(a, b), f(0.0, 0.0, 0.0, 1.0, 2.0, -2.0),
     f(0.0, 1.0, 2.0, 0.0, 0.5, 2.0))
case("math.maximum at ties", lambda tf, a, b: tf.math.maximum(a, b), _A, _B)
case("math.minimum at ties", lambda tf, a, b: tf.math.minimum(a, b), _A, _B)
case("math.maximum(x, x)", lambda tf, x: tf.math.maximum(x, x), f(0.0, 1.0, -2.0))
case("math.minimum(x, x)", lambda tf, x: tf.math.minimum(x, x), f(0.0, 1.0, -2.0))
case("math.floormod at 0", lambda tf, a, b: tf.math.floormod(a, b), f(0.0, 3.0, -3.0, 2.5),
     f(1.0, 1.5, 1.5, -1.0))
case("truncatemod at 0", lambda tf, a, b: tf.truncatemod(a, b),
     f(0.0, 3.0, -3.0, 2.5), f(1.0, 1.5, 1.5, -1.0))
case("clip_by_value at each bound", lambda tf, x: tf.clip_by_value(x, -1.0, 1.0),
     f(-1.0, 1.0, 0.0, -2.0, 2.0))
case("clip_by_value tensor bounds at each bound", lambda tf, x, lo, hi: tf.clip_by_value(x, lo, hi),
     f(-1.0, 1.0, 0.0), f(-1.0, -1.0, 0.0), f(1.0, 1.0, 0.0))
case("where with NaN in the unselected branch",
     lambda tf, x: tf.where(x > 0.0, tf.sqrt(x), tf.zeros_like(x)), f(-1.0, 0.0, 4.0))
case("where safe-division trick",
     lambda tf, x: tf.where(x > 0.0, 1.0 / tf.where(x > 0.0, x, tf.ones_like(x)), x),
     f(-1.0, 0.0, 4.0))
case("add_n of one tensor twice", lambda tf, x: tf.add_n([x, x, x * 2.0]), f(0.0, 1.0))
case("cast to int and back", lambda tf, x: tf.cast(tf.cast(x, tf.int32), x.dtype) + x,
     f(0.5, -1.5, 0.0))
case("stop_gradient", lambda tf, x: tf.stop_gradient(x) * x, f(0.0, 2.0))
case("identity", lambda tf, x: tf.identity(x) * x, f(0.0, 2.0))

# ---------------------------------------------------------------- reductions and scans

_TIES = f([1.0, 3.0, 3.0], [2.0, 2.0, 2.0])
case("reduce_max with ties", lambda tf, x: tf.reduce_max(x, axis=1), _TIES)
case("reduce_min with ties", lambda tf, x: tf.reduce_min(x, axis=0), _TIES)
case("reduce_max of all, ties", lambda tf, x: tf.reduce_max(x), _TIES)
case("reduce_sum and reduce_mean", lambda tf, x: tf.reduce_mean(x, 0) + tf.reduce_sum(x, 1)[0],
     _TIES)
case("reduce_prod with zeros", lambda tf, x: tf.reduce_prod(x, axis=1),
     f([0.0, 2.0, 3.0], [0.0, 2.0, 0.0], [1.0, 2.0, 3.0]))
case("reduce_prod of all with one zero", lambda tf, x: tf.reduce_prod(x),
     f([1.0, 2.0], [0.0, 3.0]))
case("cumprod with zeros", lambda tf, x: tf.math.cumprod(x), f(2.0, 0.0, 3.0, 0.0))
case("cumprod exclusive reverse with a zero",
     lambda tf, x: tf.math.cumprod(x, exclusive=True, reverse=True), f(2.0, 0.0, 3.0, 0.5))
case("cumsum exclusive reverse", lambda tf, x: tf.math.cumsum(x, exclusive=True, reverse=True),
     f(0.0, 1.0, -1.0))
case("reduce_logsumexp with -inf", lambda tf, x: tf.reduce_logsumexp(x, axis=1),
     f([-INF, 0.0, 1.0], [-INF, -INF, -INF], [100.0, 100.0, -100.0]))
case("reduce_logsumexp of ties", lambda tf, x: tf.reduce_logsumexp(x), f(2.0, 2.0, 2.0))
case("cumulative_logsumexp with -inf", lambda tf, x: tf.math.cumulative_logsumexp(x),
     f(-INF, 0.0, -INF, 1.0))
case("reduce_euclidean_norm of zeros", lambda tf, x: tf.math.reduce_euclidean_norm(x, axis=1),
     f([0.0, 0.0], [3.0, 4.0]))
case("norm of a zero vector", lambda tf, x: tf.norm(x, axis=1), f([0.0, 0.0], [3.0, 4.0]))
case("norm ord 1 at 0", lambda tf, x: tf.norm(x, ord=1, axis=1), f([0.0, 1.0], [-2.0, 0.0]))
case("norm inf with ties", lambda tf, x: tf.norm(x, ord=np.inf), f(1.0, -3.0, 3.0))
case("l2_normalize of a zero vector", lambda tf, x: tf.math.l2_normalize(x, axis=1),
     f([0.0, 0.0], [3.0, 4.0]))
case("reduce_variance of equal values", lambda tf, x: tf.math.reduce_variance(x, axis=1),
     f([2.0, 2.0, 2.0], [1.0, 2.0, 3.0]))
case("reduce_std of equal values", lambda tf, x: tf.math.reduce_std(x, axis=1),
     f([2.0, 2.0, 2.0], [1.0, 2.0, 3.0]))
case("nn.moments of equal values", lambda tf, x: tf.nn.moments(x, axes=[0]),
     f([2.0, 1.0], [2.0, 3.0]))
case("nn.batch_normalization at zero variance",
     lambda tf, x, m, v: tf.nn.batch_normalization(x, m, v, None, None, 1e-3),
     f([2.0, 1.0], [2.0, 3.0]), f(2.0, 2.0), f(0.0, 1.0))
case("nn.batch_normalization of moments, equal values",
     lambda tf, x: tf.nn.batch_normalization(x, *tf.nn.moments(x, axes=[0]), None, None, 1e-3),
     f([2.0, 1.0], [2.0, 3.0]))

# ---------------------------------------------------------------- sorting, pooling

case("math.top_k with ties", lambda tf, x: tf.math.top_k(x, 2).values,
     f([1.0, 3.0, 3.0], [2.0, 2.0, 2.0]))
case("sort with ties", lambda tf, x: tf.sort(x), f(2.0, 1.0, 2.0, 0.0))
case("sort descending with ties", lambda tf, x: tf.sort(x, direction="DESCENDING"),
     f(2.0, 1.0, 2.0, 0.0))
_IMG = f([[[1.0], [1.0], [0.0]], [[1.0], [1.0], [0.0]], [[2.0], [2.0], [2.0]]])   # [1, 3, 3, 1]
case("nn.max_pool2d with ties", lambda tf, x: tf.nn.max_pool2d(x, 2, 1, "VALID"), _IMG)
case("nn.max_pool2d same padding with ties", lambda tf, x: tf.nn.max_pool2d(x, 2, 2, "SAME"),
     _IMG)
case("nn.max_pool2d second order",
     lambda tf, x: _second(tf, lambda t: tf.nn.max_pool2d(t, 2, 1, "VALID") ** 2, x), _IMG)
case("nn.avg_pool2d at 0", lambda tf, x: tf.nn.avg_pool2d(x, 2, 2, "SAME"), _IMG * 0.0)
case("nn.avg_pool2d second order",
     lambda tf, x: _second(tf, lambda t: tf.nn.avg_pool2d(t, 2, 1, "SAME") ** 2, x), _IMG)
case("nn.max_pool1d with ties", lambda tf, x: tf.nn.max_pool1d(x, 2, 1, "VALID"),
     f([[1.0], [1.0], [1.0], [0.0]]))

# ---------------------------------------------------------------- segments, gather, scatter

_SEG = f([1.0, 2.0], [1.0, -3.0], [0.0, 5.0], [4.0, 0.0], [-2.0, 0.0])
_SORTED, _UNSORTED = i32(0, 0, 2, 2, 3), i32(2, 0, 2, -1, 0)
for _name in ("segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"):
    case(f"math.{_name} with an empty segment and zeros",
         lambda tf, x, ids, n=_name: getattr(tf.math, n)(x, ids), _SEG, _SORTED)
for _name in ("unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max",
              "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n"):
    case(f"math.{_name} with empty segments and a dropped id",
         lambda tf, x, ids, n=_name: getattr(tf.math, n)(x, ids, 4), _SEG, _UNSORTED)
case("math.segment_max with ties", lambda tf, x: tf.math.segment_max(x, tf.constant([0, 0, 0])),
     f(2.0, 2.0, 1.0))
case("math.unsorted_segment_min with ties",
     lambda tf, x: tf.math.unsorted_segment_min(x, tf.constant([1, 1, 1]), 2), f(2.0, 2.0, 3.0))
case("gather with repeated indices", lambda tf, x: tf.gather(x, [2, 0, 2, 2]), f(1.0, 2.0, 3.0))
case("gather axis 1 with repeated indices", lambda tf, x: tf.gather(x, [1, 1], axis=1),
     f([1.0, 2.0], [3.0, 4.0]))
case("gather_nd with repeated indices", lambda tf, x: tf.gather_nd(x, [[0, 1], [0, 1], [1, 0]]),
     f([1.0, 2.0], [3.0, 4.0]))
case("scatter_nd with repeated indices", lambda tf, u: tf.scatter_nd([[1], [1], [3]], u, [4]),
     f(1.0, 2.0, 3.0))
case("tensor_scatter_nd_add with repeated indices",
     lambda tf, t, u: tf.tensor_scatter_nd_add(t, [[1], [1]], u), f(0.0, 0.0, 0.0), f(1.0, 2.0))
case("tensor_scatter_nd_sub with repeated indices",
     lambda tf, t, u: tf.tensor_scatter_nd_sub(t, [[1], [1]], u), f(0.0, 0.0, 0.0), f(1.0, 2.0))
case("tensor_scatter_nd_update", lambda tf, t, u: tf.tensor_scatter_nd_update(t, [[0], [2]], u),
     f(5.0, 6.0, 7.0), f(1.0, 2.0))
case("tensor_scatter_nd_max with ties",
     lambda tf, t, u: tf.tensor_scatter_nd_max(t, [[0], [1], [2]], u), f(1.0, 2.0, 0.0),
     f(1.0, 1.0, 0.0))
case("tensor_scatter_nd_min with ties",
     lambda tf, t, u: tf.tensor_scatter_nd_min(t, [[0], [1], [2]], u), f(1.0, 2.0, 0.0),
     f(1.0, 3.0, 0.0))
case("dynamic_stitch with a repeated index",
     lambda tf, a, b: tf.dynamic_stitch([[0, 2], [1, 2]], [a, b]), f(1.0, 2.0), f(3.0, 4.0))
case("dynamic_partition with an empty partition",
     lambda tf, x: tf.dynamic_partition(x, [0, 2, 0], 3), f(1.0, 2.0, 3.0))
case("embedding_lookup with repeated ids", lambda tf, p: tf.nn.embedding_lookup(p, [1, 1, 0]),
     f([1.0, 2.0], [3.0, 4.0]))
case("embedding_lookup with max_norm at the norm",
     lambda tf, p: tf.nn.embedding_lookup(p, [0, 1, 1], max_norm=5.0), f([3.0, 4.0], [0.0, 0.0]))
case("image.per_image_standardization of a constant image",
     lambda tf, x: tf.image.per_image_standardization(x), np.full((2, 2, 1), 3.0),
     dtypes=("float32",))     # TF's result is float32 for any input (docs/tf_differences.md)
case("math.confusion_matrix weights on one cell",
     lambda tf, w: tf.math.confusion_matrix([0, 0, 1], [1, 1, 0], 2, weights=w),
     f(1.0, 2.0, 0.0))

# ---------------------------------------------------------------- shapes

_M = f([0.0, 1.0, -1.0], [2.0, 0.0, 3.0])
case("reshape", lambda tf, x: tf.reshape(x, [3, 2]), _M)
case("transpose", lambda tf, x: tf.transpose(x), _M)
case("expand_dims and squeeze", lambda tf, x: tf.squeeze(tf.expand_dims(x, 0) * 2.0, [0]), _M)
case("stack and unstack", lambda tf, x: tf.stack(tf.unstack(x, axis=1)[::-1]), _M)
case("concat of x with itself", lambda tf, x: tf.concat([x, x], axis=0), _M)
case("split into equal parts", lambda tf, x: tf.split(x, 3, axis=1)[1], _M)
case("split by sizes with a 0", lambda tf, x: tf.split(x, [0, 2, 1], axis=1)[1], _M)
case("slice", lambda tf, x: tf.slice(x, [0, 1], [2, 1]), _M)
case("slice second order", lambda tf, x: _second(tf, lambda t: tf.slice(t, [0, 1], [2, 1]) ** 2, x),
     _M)
case("strided_slice with a negative stride", lambda tf, x: x[:, ::-2], _M)
case("strided_slice second order", lambda tf, x: _second(tf, lambda t: t[:, 1:] ** 2, x), _M)
case("tile", lambda tf, x: tf.tile(x, [2, 1]), _M)
case("tile second order", lambda tf, x: _second(tf, lambda t: tf.tile(t, [2, 1]) ** 2, x), _M)
case("pad with a constant", lambda tf, x: tf.pad(x, [[1, 0], [0, 2]], constant_values=0.0), _M)
case("pad second order", lambda tf, x: _second(tf, lambda t: tf.pad(t, [[1, 0], [0, 1]]) ** 2, x),
     _M)
case("mirror pad reflect", lambda tf, x: tf.pad(x, [[1, 1], [2, 2]], "REFLECT"), _M)
case("mirror pad symmetric second order",
     lambda tf, x: _second(tf, lambda t: tf.pad(t, [[1, 1], [1, 1]], "SYMMETRIC") ** 2, x), _M)
case("reverse", lambda tf, x: tf.reverse(x, [1]), _M)
case("roll", lambda tf, x: tf.roll(x, 1, 1), _M)
case("broadcast_to", lambda tf, x: tf.broadcast_to(x, [2, 2, 3]), _M)
case("fill from a scalar", lambda tf, x: tf.fill([2, 2], x), np.float64(0.0))
case("repeat with a 0 count", lambda tf, x: tf.repeat(x, [2, 0, 1], axis=1), _M)
case("repeat second order",
     lambda tf, x: _second(tf, lambda t: tf.repeat(t, [2, 0, 1], axis=1) ** 2, x), _M)
case("concat second order", lambda tf, x: _second(tf, lambda t: tf.concat([t, t], 0) ** 2, x), _M)
case("gather second order", lambda tf, x: _second(tf, lambda t: tf.gather(t, [1, 1]) ** 2, x), _M)
case("top_k second order",
     lambda tf, x: _second(tf, lambda t: tf.math.top_k(t, 2).values ** 2, x), _M)
case("ensure_shape", lambda tf, x: tf.ensure_shape(x, [2, 3]), _M)
case("debugging.check_numerics", lambda tf, x: tf.debugging.check_numerics(x, "bad"), _M)
case("linspace from start to stop", lambda tf, a, b: tf.linspace(a, b, 4), np.float64(0.0),
     np.float64(1.0))

# ---------------------------------------------------------------- matrices

_EYE, _SING = np.eye(3), f([1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 1.0])
case("matmul with zeros", lambda tf, a, b: tf.matmul(a, b), _M, np.zeros((3, 2)))
case("einsum trace", lambda tf, a: tf.einsum("ii->", a), _EYE)
case("einsum outer product", lambda tf, a, b: tf.einsum("i,j->ij", a, b), f(0.0, 1.0),
     f(1.0, 0.0, -1.0))
case("nn.bias_add at 0", lambda tf, x, b: tf.nn.bias_add(x, b), _M, f(0.0, 0.0, 0.0))
case("nn.bias_add second order",
     lambda tf, b: _second(tf, lambda t: tf.nn.bias_add(tf.ones([2, 3], t.dtype), t) ** 2, b),
     f(0.0, 1.0, -1.0))
case("nn.conv2d of zeros", lambda tf, x, k: tf.nn.conv2d(x, k, 1, "SAME"), np.zeros((1, 3, 3, 1)),
     np.ones((2, 2, 1, 1)))
case("nn.conv2d second order in the filter",
     lambda tf, k: _second(tf, lambda t: tf.nn.conv2d(tf.ones([1, 3, 3, 1], t.dtype), t, 1,
                                                      "SAME") ** 2, k), f([[[1.0]], [[0.0]]],
                                                                          [[[0.0]], [[-1.0]]]))
case("nn.conv2d second order",
     lambda tf, x: _second(tf, lambda t: tf.nn.conv2d(t, tf.ones([2, 2, 1, 1], t.dtype), 1,
                                                      "SAME") ** 2, x), _IMG)
case("linalg.det of a singular matrix", lambda tf, a: tf.linalg.det(a), _SING)
case("linalg.det of the identity", lambda tf, a: tf.linalg.det(a), _EYE)
case("linalg.slogdet of the identity", lambda tf, a: tf.linalg.slogdet(a)[1], _EYE)
case("linalg.inv of the identity", lambda tf, a: tf.linalg.inv(a), _EYE)
case("linalg.cholesky of the identity", lambda tf, a: tf.linalg.cholesky(a), _EYE)
case("linalg.solve with the identity", lambda tf, a, b: tf.linalg.solve(a, b), _EYE,
     f([1.0], [0.0], [0.0]))
case("linalg.triangular_solve with the identity",
     lambda tf, a, b: tf.linalg.triangular_solve(a, b), _EYE, f([1.0], [0.0], [0.0]))
case("linalg.lstsq with the identity", lambda tf, a, b: tf.linalg.lstsq(a, b), _EYE,
     f([1.0], [0.0], [0.0]))
case("linalg.lstsq exact (fast=False) with the identity",
     lambda tf, a, b: tf.linalg.lstsq(a, b, fast=False), _EYE, f([1.0], [0.0], [0.0]))
case("linalg.qr of the identity", lambda tf, a: tf.linalg.qr(a).r, _EYE)
case("linalg.svd singular values of a diagonal matrix",
     lambda tf, a: tf.linalg.svd(a, compute_uv=False),
     f([3.0, 0.0], [0.0, 1.0]))
case("linalg.eigh values of a diagonal matrix", lambda tf, a: tf.linalg.eigh(a)[0],
     f([3.0, 0.0], [0.0, 1.0]))
case("linalg.band_part", lambda tf, a: tf.linalg.band_part(a, 0, -1), _SING)
case("linalg.diag and diag_part", lambda tf, a: tf.linalg.diag(tf.linalg.diag_part(a)), _SING)
case("linalg.diag_part second order",
     lambda tf, a: _second(tf, lambda t: tf.linalg.diag_part(t) ** 2, a), _SING)
case("linalg.tensor_diag", lambda tf, d: tf.linalg.tensor_diag(d), f(0.0, 1.0))
case("linalg.tensor_diag_part", lambda tf, a: tf.linalg.tensor_diag_part(a), _SING)

# ---------------------------------------------------------------- more public functions

case("clip_by_norm of a zero vector", lambda tf, x: tf.clip_by_norm(x, 1.0, axes=[1]),
     f([0.0, 0.0], [3.0, 4.0], [0.6, 0.8]))
case("clip_by_global_norm with a zero tensor",
     lambda tf, a, b: tf.clip_by_global_norm([a, b], 1.0)[0], f(0.0, 0.0), f(3.0, 4.0))
case("clip_by_global_norm of zeros", lambda tf, a, b: tf.clip_by_global_norm([a, b], 1.0),
     f(0.0, 0.0), f(0.0))
case("linalg.global_norm of zeros", lambda tf, a, b: tf.linalg.global_norm([a, b]),
     f(0.0, 0.0), f(0.0))
case("divide by 0", lambda tf, a, b: tf.divide(a, b), f(0.0, 1.0, -1.0), f(0.0, 0.0, 0.0))
for _name in ("floor", "ceil", "round", "rint"):
    case(f"math.{_name} at halves", lambda tf, x, n=_name: getattr(tf.math, n)(x) * x,
         f(0.5, -0.5, 1.5, 2.5, 0.0))
case("floordiv and mod at 0", lambda tf, a, b: tf.math.floordiv(a, b) + tf.math.mod(a, b),
     f(0.0, 3.0, -3.0), f(1.0, 1.5, 1.5))
case("math.lbeta at ones", lambda tf, x: tf.math.lbeta(x), f([1.0, 1.0], [0.5, 0.5]))
case("math.polyval at 0",   # (TF's Python-float coefficients are float32: a clash with float64)
     lambda tf, x: tf.math.polyval([tf.constant(c, x.dtype) for c in (1.0, 0.0, -1.0)], x),
     f(0.0, 1.0))
case("boolean_mask", lambda tf, x: tf.boolean_mask(x, [True, False, True]), f(0.0, 1.0, 2.0))
case("tensordot", lambda tf, a, b: tf.tensordot(a, b, 1), _M.T, f([0.0, 1.0], [1.0, 0.0]))
case("meshgrid", lambda tf, a, b: tf.meshgrid(a, b), f(0.0, 1.0), f(-1.0, 0.0, 1.0))
case("saturate_cast at the bounds", lambda tf, x: tf.cast(tf.saturate_cast(x, tf.uint8), x.dtype)
     + x, f(0.0, 255.0, 300.0, -1.0))
case("linalg.trace, adjoint, matrix_transpose",
     lambda tf, a: tf.linalg.trace(a) + tf.linalg.adjoint(a)[0, 1] * 2.0
     + tf.linalg.matrix_transpose(a)[1, 0] * 3.0, _SING)
case("linalg.matvec with zeros", lambda tf, a, v: tf.linalg.matvec(a, v), _SING, f(0.0, 0.0, 1.0))
case("linalg.logdet of the identity", lambda tf, a: tf.linalg.logdet(a), _EYE)
case("linalg.cholesky_solve with the identity",
     lambda tf, c, b: tf.linalg.cholesky_solve(c, b), _EYE, f([1.0], [0.0], [0.0]))
case("linalg.eigvalsh of a matrix with a repeated eigenvalue",
     lambda tf, a: tf.linalg.eigvalsh(a), f([2.0, 0.0], [0.0, 2.0]))
case("linalg.eigh of distinct eigenvalues", lambda tf, a: tf.linalg.eigh(a)[0],
     f([2.0, 1.0], [1.0, 2.0]))
case("nn.swish at 0", lambda tf, x: tf.nn.swish(x), POINTS)
case("nn.lrn of zeros", lambda tf, x: tf.nn.lrn(x, 1), np.zeros((1, 1, 2, 3)),
     dtypes=("float32",))     # TF's LRN has no float64 kernel (docs/tf_differences.md)
case("nn.avg_pool1d at 0", lambda tf, x: tf.nn.avg_pool1d(x, 2, 1, "VALID"),
     f([[0.0], [0.0], [1.0]]))
case("nn.conv1d of zeros", lambda tf, x, k: tf.nn.conv1d(x, k, 1, "SAME"), np.zeros((1, 3, 1)),
     np.ones((2, 1, 1)))
case("nn.conv2d_transpose of zeros",
     lambda tf, x, k: tf.nn.conv2d_transpose(x, k, [1, 4, 4, 1], 2, "SAME"),
     np.zeros((1, 2, 2, 1)), np.ones((2, 2, 1, 1)))
case("nn.depthwise_conv2d of zeros",
     lambda tf, x, k: tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME"),
     np.zeros((1, 3, 3, 2)), np.ones((2, 2, 2, 1)))
case("nn.separable_conv2d of ties",
     lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "VALID"),
     np.ones((1, 3, 3, 1)), np.ones((2, 2, 1, 1)), f([[[1.0, 0.0]]]))
case("nn.compute_average_loss", lambda tf, x: tf.nn.compute_average_loss(x, global_batch_size=4),
     f(0.0, 1.0))
case("nn.scale_regularization_loss", lambda tf, x: tf.nn.scale_regularization_loss(x),
     np.float64(0.0))
case("gather with batch_dims and repeats",
     lambda tf, x: tf.gather(x, [[0, 0], [1, 1]], axis=1, batch_dims=1), _M)
case("one_hot times x", lambda tf, x: tf.one_hot([0, 2, 2], 3, dtype=x.dtype) * x, f(1.0, 0.0, 2.0))
case("grad_pass_through of a rounding",
     lambda tf, x: tf.grad_pass_through(lambda t: tf.round(t))(x), f(0.5, 1.4, -0.5))
case("recompute_grad of a relu", lambda tf, x: tf.recompute_grad(tf.nn.relu)(x), f(0.0, 1.0, -1.0))
case("custom_gradient (clip the gradient)", lambda tf, x: _clipped(tf)(x), f(0.0, 3.0, -3.0))
case("map_fn of a square", lambda tf, x: tf.map_fn(lambda t: t * t, x), f(0.0, 1.0, -2.0))
case("scan of a product with a zero", lambda tf, x: tf.scan(lambda a, t: a * t, x),
     f(2.0, 0.0, 3.0))
case("foldl of a maximum with ties", lambda tf, x: tf.foldl(tf.maximum, x), f(1.0, 1.0, 0.0))
case("while_loop of a square root", lambda tf, x: _sqrt_loop(tf, x), f(0.0, 1.0, 16.0))
case("cond at the branch point", lambda tf, x: _cond_at_zero(tf, x), np.float64(0.0))
case("while_loop second order", lambda tf, x: _second(tf, lambda t: _sqrt_loop(tf, t), x),
     f(1.0, 16.0))
case("py_function of a square", lambda tf, x: tf.py_function(lambda t: t * t, [x], x.dtype),
     f(0.0, -1.0, 2.0))
case("TensorArray scatter, gather, split and concat with repeats",
     lambda tf, x: _tensor_array(tf, x), f(0.0, 1.0, 2.0, 3.0))
case("RaggedTensor to_tensor with an empty row",
     lambda tf, x: tf.RaggedTensor.from_row_splits(x, [0, 2, 2, 3]).to_tensor(),
     f(1.0, 0.0, 2.0))
case("nn.max_pool2d third order with ties",
     lambda tf, x: _second(tf, lambda t: _second(tf, lambda u: tf.nn.max_pool2d(
         u, 2, 1, "VALID") ** 3, t) ** 2, x), _IMG)


def _tensor_array(tf, x):
    ta = tf.TensorArray(x.dtype, size=4).scatter([0, 2, 1, 3], x)
    picked = ta.gather([1, 1, 3])
    parts = tf.TensorArray(x.dtype, size=2, infer_shape=False).split(x, [3, 1])
    return tf.concat([picked, parts.concat() * 2.0], 0)


def _clipped(tf):
    @tf.custom_gradient
    def clipped(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return x * x, grad
    return clipped


def _sqrt_loop(tf, x):
    return tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.sqrt(y)), (0, x))[1]


def _cond_at_zero(tf, x):
    return tf.cond(x > 0.0, lambda: x * 2.0, lambda: x * x - x)


# ---------------------------------------------------------------- op types not in a case

# op type -> why no special-point case exercises its gradient rule here
EXEMPT = {
    "Dropout": "random: no fixed point to record (tests/runtime/ops/nn/test_nn_activations_losses.py)",
    "Identity": "the graph optimizer removes tf.identity from traced graphs (the 'identity' "
                "case runs its rule eagerly)",
    "StatefulPartitionedCall": "a tf.function called under an eager GradientTape: an eager "
                               "tape's record, never in a traced graph (its gradients, to "
                               "third order, against TF's in tests/runtime/autodiff/test_taped_call.py)",
    "LoopAccumulatorGradRead": "a while loop's gradient internals, differentiated only at "
                               "third order (tests/runtime/autodiff/test_gradients_control_flow.py)",
    "LoopAccumulatorGradSet": "a while loop's gradient internals, differentiated only at "
                              "third order (tests/runtime/autodiff/test_gradients_control_flow.py)",
}
EXEMPT.update({name: "fake quantization and quantize-dequantize: TF 2.21's values and "
                     "gradients bit for bit at random points, the nudged range's ends, zeros, "
                     "+-inf, NaN and empty inputs in tests/data/quantization_tf221.npz "
                     "(tests/runtime/ops/math/test_quantization.py)"
               for name in ("FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars",
                            "FakeQuantWithMinMaxVarsPerChannel", "QuantizeAndDequantizeV2",
                            "QuantizeAndDequantizeV4")})
EXEMPT.update({name: "tf.distribute's collectives: they exist only under a strategy's "
                     "replicas (JAX's shard_map), checked against TF 2.21's MirroredStrategy "
                     "in tests/runtime/distribute"
               for name in ("ReplicaAllReduce", "ReplicaAllGather", "ReplicaId")})
EXEMPT["ResizeAxis"] = ("a resize of an image whose size is known only at run time: its "
                        "values and gradients equal the static resize's, every method, in "
                        "tests/runtime/ops/image/test_resize_dynamic.py")
EXEMPT["RGBToHSV"] = ("its gradient against TF's at ties and zero channels in "
                      "tests/runtime/ops/image/test_image_ops.py (recorded in tests/data/image_ops.npz)")
EXEMPT.update({name: "special functions: TF's values and gradients at their special points "
                     "(poles, domain edges, +-inf, NaN) in tests/runtime/ops/math/test_math_special.py"
               for name in ("BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0",
                            "BesselJ1", "BesselY0", "BesselY1", "BesselK0", "BesselK0e",
                            "BesselK1", "BesselK1e", "Erfinv", "Ndtri", "Dawsn", "Expint",
                            "FresnelCos", "FresnelSin", "Spence", "Igamma", "Igammac",
                            "Betainc", "Zeta", "PolygammaOrder", "NextAfter")})
EXEMPT.update({name: "matrix functions and solvers: TF's values and gradients in "
                     "tests/runtime/ops/math/test_linalg_more.py"
               for name in ("MatrixExponential", "MatrixSquareRoot", "TridiagonalSolve")})
EXEMPT.update({name: "emitted only for shapes unknown while tracing (the known-shape path "
                     "computes the same gradient and is covered)"
               for name in ("SumLike", "BiasAddGrad", "MatrixSetDiagV3")})
EXEMPT.update({name: "complex values and tf.signal: TF 2.21's values and tape gradients at "
                     "random and special points (length 1, odd, cropped/padded fft_length, "
                     "empty batch, |z| = 0) in tests/data/signal_tf221.npz "
                     "(tests/runtime/ops/test_signal.py)"
               for name in ("Angle", "Complex", "ComplexAbs", "Conj", "Imag", "Real", "FFT",
                            "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D", "RFFT", "IRFFT",
                            "RFFT2D", "IRFFT2D", "RFFT3D", "IRFFT3D", "Frame", "FrameGrad",
                            "OverlapAndAdd")})
EXEMPT.update({name: "TensorArray gradient internals (tests/runtime/autodiff/test_gradients_tensor_array.py)"
               for name in ("TensorArrayGradAdd", "TensorArrayGradConcat", "TensorArrayGradDrop",
                            "TensorArrayGradDropFirst", "TensorArrayGradFromStack",
                            "TensorArrayGradGather", "TensorArrayGradRead",
                            "TensorArrayGradScatter", "TensorArrayGradSet",
                            "TensorArrayGradSplit", "TensorArrayGradStack")})

# record id ("<key>|<dtype>", both modes) or "<id>@eager" / "<id>@function" (that mode only)
# -> the line of docs/tf_differences.md that keeps the difference
_TRUNCATEMOD = "docs/tf_differences.md: `tf.truncatemod` has a gradient"
_TA_GATHER = ("docs/tf_differences.md: Gradients through `TensorArray.gather` with repeated "
              "indices in a graph")
KNOWN = {"truncatemod at 0|float32": _TRUNCATEMOD, "truncatemod at 0|float64": _TRUNCATEMOD,
         "TensorArray scatter, gather, split and concat with repeats|float32@function":
             _TA_GATHER,
         "TensorArray scatter, gather, split and concat with repeats|float64@function":
             _TA_GATHER}


def known(rid, mode, table_known=None):
    """Why the record `rid` differs from TF in `mode` on purpose, or None."""
    table_known = KNOWN if table_known is None else table_known
    return table_known.get(f"{rid}@{mode}") or table_known.get(rid)


# ---------------------------------------------------------------- running and recording

def _this():
    return sys.modules[__name__]


def records(pattern="*", table=None):
    """(id, key, dtype, inputs) for every case of `table` (a module with `CASES`;
    this one by default) whose key matches `pattern`."""
    for key, c in (table or _this()).CASES.items():
        if fnmatch.fnmatch(key, pattern):
            for dtype in c.dtypes:
                yield f"{key}|{dtype}", key, dtype, c.inputs_as(dtype)


def modes(case):
    """The modes a case runs in: eager, function, and taped for a `build` case."""
    return ("eager", "function", "taped") if case.build else ("eager", "function")


def run(tool, lib, key, inputs, mode, table=None):
    """(value Outcome, gradient Outcome or None) of case `key` with `lib`; a
    `build` case is built once, for both."""
    spec = (table or _this()).CASES[key]
    variables = ()
    if spec.build:
        op, variables = spec.fn(lib)
    else:
        def op(*tensors):
            return spec.fn(lib, *tensors)
    c = tool.Case(key, *inputs)
    return (tool._call(lib, op, c, mode, key),
            tool._grad_call(lib, op, c, mode, key, variables))


def encode_array(value):
    """A numpy value as JSON: dtype, shape and nested data (NaN and infinities as text)."""
    value = np.asarray(value)
    data = value.astype(object)
    if value.dtype.kind == "f":
        data = np.vectorize(_encode_float, otypes=[object])(value) if value.size else data
    elif value.dtype.kind == "b":
        data = value.astype(bool)
    return {"dtype": value.dtype.name, "shape": list(value.shape), "data": data.tolist()}


def _encode_float(v):
    return "nan" if np.isnan(v) else ("inf" if v == np.inf else ("-inf" if v == -np.inf
                                                                  else float(v)))


def decode_array(d):
    """`encode_array`'s inverse."""
    flat = np.array(d["data"], dtype=object).reshape(-1) if d["shape"] else \
        np.array([d["data"]], dtype=object)
    out = np.array([float(v) if isinstance(v, str) else v for v in flat], dtype=d["dtype"])
    return out.reshape(d["shape"])


def encode_outcome(outcome):
    """A tf_diff `Outcome` (leaves or an error class) as JSON; None stays None."""
    if outcome is None:
        return None
    if outcome.error:
        return {"error": outcome.error}
    return {"leaves": [{"dtype": "None"} if dt == "None" else
                       dict(encode_array(v), dtype=dt) if v is not None else {"dtype": dt}
                       for v, dt, _ in outcome.leaves]}


def decode_outcome(tool, d):
    """`encode_outcome`'s inverse, a `tool.Outcome`."""
    if d is None:
        return None
    if "error" in d:
        return tool.Outcome(error=d["error"])
    leaves = []
    for leaf in d["leaves"]:
        if "data" not in leaf:
            leaves.append((None, leaf["dtype"], None))
        else:
            value = decode_array(leaf)
            leaves.append((value, leaf["dtype"], tuple(leaf["shape"])))
    return tool.Outcome(leaves)


def record(tool, theirs, pattern="*", table=None):
    """Run every case of `table` with TensorFlow; the JSON document (format 1)."""
    table = table or _this()
    recs = []
    for rid, key, dtype, inputs in records(pattern, table):
        entry = {"id": rid, "key": key, "dtype": dtype,
                 "inputs": [encode_array(v) for v in inputs]}
        value, grads = run(tool, theirs, key, inputs, "eager", table)
        fvalue, fgrads = run(tool, theirs, key, inputs, "function", table)
        entry["value"], entry["grads"] = encode_outcome(value), encode_outcome(grads)
        if value.error or (grads is not None and grads.error):
            print(f"NOTE {rid}: TF raises {value.error or grads.error}", file=sys.stderr)
        if tool._compare(fvalue, value):
            entry["value_function"] = encode_outcome(fvalue)
        if grads is not None and tool._compare(fgrads, grads):
            entry["grads_function"] = encode_outcome(fgrads)
        recs.append(entry)
    return {"format": 1, "source": f"TensorFlow {theirs.__version__}",
            "module": table.__name__, "records": recs}


def write(doc, path=OPS_JSON):
    """Write a recorded document (compact JSON, strict: no bare NaN)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, separators=(",", ":"), allow_nan=False) + "\n")


def compare(tool, ours, entry, mode, table=None):
    """The first difference between our run of a record and TF's recorded one, or None."""
    key = entry["key"]
    tolerance = (table or _this()).CASES[key].tolerance
    inputs = [decode_array(a) for a in entry["inputs"]]
    value, grads = run(tool, ours, key, inputs, mode, table)
    recorded = "function" if mode == "taped" else mode      # a taped call runs the graph
    want_value = decode_outcome(tool, entry.get(f"value_{recorded}", entry["value"]))
    want_grads = decode_outcome(tool, entry.get(f"grads_{recorded}", entry["grads"]))
    diff = tool._compare(value, want_value, tolerance=tolerance)
    if diff:
        return f"value: {diff}"
    if (grads is None) != (want_grads is None):
        return "gradient: one side has no float input"
    if grads is not None:
        diff = tool._compare(grads, want_grads, tolerance=tolerance)
        if diff:
            return f"gradient: {diff}"
    return None


def live(tool, ours, theirs, pattern="*", out=None, table=None):
    """Compare every case of `table` with TF, live (`tf_diff.py --special`); the
    mismatch lines not explained by its `KNOWN`."""
    out, table = out or sys.stdout, table or _this()
    doc = record(tool, theirs, pattern, table)
    lines, checked = [], 0
    for entry in doc["records"]:
        for mode in modes(table.CASES[entry["key"]]):
            checked += 1
            diff = compare(tool, ours, entry, mode, table)
            if diff:
                why = known(entry["id"], mode, table.KNOWN)
                known_text = f" (known: {why})" if why else ""
                line = f"MISMATCH {mode} {entry['id']}: {diff}{known_text}"
                lines.append(line)
                print(line, file=out)
    unexplained = [line for line in lines if "(known: " not in line]
    cases = len({entry["key"] for entry in doc["records"]})
    print(f"\n{cases} special cases, {checked} checks, {len(lines)} mismatches "
          f"({len(lines) - len(unexplained)} known, in docs/tf_differences.md)", file=out)
    return unexplained
EXEMPT.update({name: "data movement with inverse-move gradients, checked against TF 2.21's "
                     "recorded gradients in tests/runtime/test_top_level_names.py"
               for name in ("BatchToSpaceND", "DepthToSpace", "ReverseSequence",
                            "SpaceToBatchND", "SpaceToDepth")})
EXEMPT.update({
    "CTCLossDense": "TF's recorded losses and gradients (blank indices, an impossible "
                    "alignment, an empty label) in tests/runtime/ops/nn/test_ctc.py",
    "IsotonicRegression": "TF's recorded values and segment-mean gradients (ties, both "
                          "directions, axis 0) in tests/runtime/ops/nn/test_nn_stats.py",
    "MaxPoolWithArgmax": "TF's recorded values, argmax ties and gradient in "
                         "tests/runtime/ops/nn/test_conv_family.py",
})
EXEMPT.update({name: "random regions: TF 2.21's values, ties and gradients where the ratio "
                     "fixes them, in tests/runtime/ops/nn/test_fractional_pool.py"
               for name in ("FractionalMaxPool", "FractionalAvgPool")})
EXEMPT.update({name: "sparse tensors: TF 2.21's values and gradients (empty, unordered, "
                     "duplicate indices, zero dense shapes) in tests/data/sparse_ops.json "
                     "(tests/runtime/sparse/test_sparse.py)"
               for name in ("SparseAdd", "SparseDenseCwiseDiv", "SparseDenseCwiseMul",
                            "SparseFillEmptyRows", "SparseReduceSum", "SparseReorder",
                            "SparseSlice", "SparseSparseMaximum", "SparseSparseMinimum",
                            "SparseTensorDenseAdd", "SparseTensorDenseMatMul", "SparseToDense")})
