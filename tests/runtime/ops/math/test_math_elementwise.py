"""The elementwise math family (`tf.sin` ... `tf.clip_by_value`), one record per
op, each run eagerly and inside `tf.function`, against references computed
independently of the kernels (Python's `math` per element in float64, or
values written out), checking value, dtype and shape, static shapes while
tracing (exact and with unknown dimensions), and the dtype errors TF raises.
"""

import math

import numpy as np
import pytest

import runtime as tf

# Out-of-domain inputs give nan/inf silently in TF; numpy warns (in graph runs too).
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.RandomState(16)
X = RNG.uniform(-3, 3, (3, 4)).astype(np.float32)
Y = RNG.uniform(-3, 3, (3, 4)).astype(np.float32)
U = RNG.uniform(-0.95, 0.95, (3, 4)).astype(np.float32)    # inside (-1, 1)
POS = RNG.uniform(0.1, 5, (3, 4)).astype(np.float32)        # positive
GE1 = RNG.uniform(1, 5, (3, 4)).astype(np.float32)          # >= 1
SMALL = RNG.uniform(-1.2, 1.2, (3, 4)).astype(np.float32)   # tan away from its poles
I = np.array([[3, -2, 0], [7, -5, 1]], np.int32)
J = np.array([[1, 4, -2], [0, -5, 3]], np.int32)
EMPTY = np.zeros((0, 3), np.float32)
SCALAR = np.float32(0.25)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -1.5, 2.0], np.float32)
HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4, 0.6, -0.6, 3.5], np.float32)


def py(fn, out=None):
    """A reference: Python's `fn` on each element, in float64, cast to the input's dtype."""
    def ref(*xs):
        shape = np.broadcast(*xs).shape
        xs = [np.broadcast_to(np.asarray(x, np.float64), shape) for x in xs]
        vals = [fn(*(float(x[i]) for x in xs)) for i in np.ndindex(shape)]
        dtype = out or np.asarray(xs_in[0]).dtype
        return np.array(vals, np.float64).reshape(shape).astype(dtype)
    def outer(*xs):
        nonlocal xs_in
        xs_in = xs
        return ref(*xs)
    xs_in = None
    return outer


def _softplus(v):
    return max(v, 0.0) + math.log1p(math.exp(-abs(v)))


def _rint(v):
    return float(round(v))         # Python's round is half to even


class Rec:
    """`fn(*args)` equals `ref(*args)` (or the array `ref`); numpy args become tensors."""

    def __init__(self, name, fn, args, ref, rtol=1e-6, listarg=False):
        self.name, self.fn, self.args, self.ref = name, fn, args, ref
        self.rtol, self.listarg = rtol, listarg

    def expected(self):
        return np.asarray(self.ref(*self.args) if callable(self.ref) else self.ref)

    def __repr__(self):
        return self.name


def _unary_records(name, fn, x, ref, rtol=1e-6):
    """The op on x (float32), on float64, float16, a scalar and an empty tensor."""
    recs = [Rec(name, fn, [x], ref, rtol),
            Rec(name + "_f64", fn, [x.astype(np.float64)], ref, 1e-12),
            Rec(name + "_scalar", fn, [np.float32(x.flat[0])], ref, rtol),
            Rec(name + "_empty", fn, [EMPTY], ref, rtol)]
    if name not in ("erf", "erfc"):
        recs.append(Rec(name + "_f16", fn, [x.astype(np.float16)], ref, 2e-3))
    return recs


UNARY = [
    ("sin", tf.sin, X, py(math.sin)), ("cos", tf.math.cos, X, py(math.cos)),
    ("tan", tf.tan, SMALL, py(math.tan)), ("asin", tf.asin, U, py(math.asin)),
    ("acos", tf.math.acos, U, py(math.acos)), ("atan", tf.atan, X, py(math.atan)),
    ("sinh", tf.sinh, X, py(math.sinh)), ("cosh", tf.math.cosh, X, py(math.cosh)),
    ("tanh", tf.math.tanh, X, py(math.tanh)), ("asinh", tf.asinh, X, py(math.asinh)),
    ("acosh", tf.acosh, GE1, py(math.acosh)), ("atanh", tf.math.atanh, U, py(math.atanh)),
    ("exp", tf.math.exp, X, py(math.exp)), ("expm1", tf.math.expm1, X, py(math.expm1)),
    ("log", tf.math.log, POS, py(math.log)), ("log1p", tf.math.log1p, POS, py(math.log1p)),
    ("sqrt", tf.math.sqrt, POS, py(math.sqrt)),
    ("rsqrt", tf.math.rsqrt, POS, py(lambda v: 1 / math.sqrt(v))),
    ("reciprocal", tf.math.reciprocal, POS, py(lambda v: 1 / v)),
    ("square", tf.math.square, X, py(lambda v: v * v)),
    ("floor", tf.floor, X, py(math.floor)), ("ceil", tf.math.ceil, X, py(math.ceil)),
    ("round", tf.round, X * 3, py(_rint)), ("rint", tf.math.rint, X * 3, py(_rint)),
    ("sign", tf.math.sign, X, py(lambda v: (v > 0) - (v < 0))),
    ("erf", tf.math.erf, X, py(math.erf)), ("erfc", tf.math.erfc, X, py(math.erfc)),
    ("softplus", tf.math.softplus, X * 10, py(_softplus)),
    ("softsign", tf.nn.softsign, X, py(lambda v: v / (1 + abs(v)))),
    ("sigmoid", tf.sigmoid, X * 10, py(lambda v: 1 / (1 + math.exp(-v)))),
]

RECORDS = [r for args in UNARY for r in _unary_records(*args)] + [
    # TF's exact points: halves round to even; erf at known values.
    Rec("round_halves", tf.round, [HALVES],
        np.array([-2, -2, -0.0, 0, 2, 2, 0, 1, -1, 4], np.float32)),
    Rec("rint_halves", tf.math.rint, [HALVES],
        np.array([-2, -2, -0.0, 0, 2, 2, 0, 1, -1, 4], np.float32)),
    Rec("round_int_unchanged", tf.round, [I], I),
    Rec("sign_int", tf.sign, [I], np.array([[1, -1, 0], [1, -1, 1]], np.int32)),
    Rec("square_int", tf.square, [I], np.array([[9, 4, 0], [49, 25, 1]], np.int32)),
    Rec("erf_known", tf.math.erf, [np.array([0, 0.5, 1, 2, -1, 6], np.float64)],
        np.array([0, 0.5204998778130465, 0.8427007929497149, 0.9953222650189527,
                  -0.8427007929497149, 1.0]), 1e-15),
    Rec("erfc_tail", tf.math.erfc, [np.array([3.0, 5.0], np.float64)],
        np.array([2.209049699858544e-05, 1.5374597944280349e-12]), 1e-14),
    Rec("softplus_large", tf.nn.softplus, [np.array([-100, 0, 100], np.float32)],
        np.array([0, math.log(2), 100], np.float32)),
    Rec("sigmoid_large", tf.nn.sigmoid, [np.array([-100, 0, 100], np.float32)],
        np.array([0, 0.5, 1], np.float32)),
    Rec("is_nan", tf.math.is_nan, [SPECIAL], np.array([1, 0, 0, 0, 0, 0], bool)),
    Rec("is_inf", tf.math.is_inf, [SPECIAL], np.array([0, 1, 1, 0, 0, 0], bool)),
    Rec("is_finite", tf.math.is_finite, [SPECIAL], np.array([0, 0, 0, 1, 1, 1], bool)),
    Rec("is_nan_f64_2d", tf.math.is_nan, [np.array([[np.nan], [1.0]])],
        np.array([[True], [False]])),
    Rec("is_finite_empty", tf.math.is_finite, [EMPTY], np.zeros((0, 3), bool)),
    Rec("domain_nan", tf.acosh, [np.array([0.5, 1.0], np.float32)],
        np.array([np.nan, 0], np.float32)),
    Rec("atanh_poles", tf.atanh, [np.array([-1.0, 1.0], np.float32)],
        np.array([-np.inf, np.inf], np.float32)),
    # binary
    Rec("atan2", tf.atan2, [X, Y], py(math.atan2)),
    Rec("atan2_broadcast", tf.math.atan2, [X, np.float32(-1.0)], py(math.atan2)),
    Rec("atan2_f64", tf.atan2, [X.astype(np.float64), Y.astype(np.float64)],
        py(math.atan2), 1e-12),
    Rec("atan2_python_scalar", tf.atan2, [X, 2.0], py(math.atan2)),
    Rec("squared_difference", tf.math.squared_difference, [X, Y],
        py(lambda a, b: (a - b) ** 2)),
    Rec("squared_difference_int", tf.math.squared_difference, [I, J],
        np.array([[4, 36, 4], [49, 0, 4]], np.int32)),
    Rec("squared_difference_broadcast", tf.math.squared_difference,
        [X, np.array([1, 2, 3, 4], np.float32)], py(lambda a, b: (a - b) ** 2)),
    Rec("add_n", tf.add_n, [X, Y, POS], py(lambda a, b, c: a + b + c), listarg=True),
    Rec("add_n_int", tf.math.add_n, [I, J, I, J], 2 * (I + J), listarg=True),
    Rec("add_n_one", tf.add_n, [I], I, listarg=True),
    Rec("add_n_scalars", tf.add_n, [np.float32(1.5), np.float32(2.25)], np.float32(3.75),
        listarg=True),
    Rec("clip_by_value", tf.clip_by_value, [X, np.float32(-1), np.float32(0.5)],
        py(lambda v, lo, hi: max(min(v, hi), lo))),
    Rec("clip_by_value_python_bounds", tf.clip_by_value, [X, -1.0, 0.5],
        py(lambda v, lo, hi: max(min(v, hi), lo))),
    Rec("clip_by_value_int", tf.clip_by_value, [I, 0, 3],
        np.array([[3, 0, 0], [3, 0, 1]], np.int32)),
    Rec("clip_by_value_broadcast_bounds", tf.clip_by_value,
        [X, np.array([-1, -2, -3, 0], np.float32), np.array([[0], [1], [2]], np.float32)],
        py(lambda v, lo, hi: max(min(v, hi), lo))),
    Rec("clip_by_value_lo_above_hi", tf.clip_by_value, [I, 5, 2],   # TF: lo wins
        np.full((2, 3), 5, np.int32)),
    # float floordiv is floor(x / y), as TF: infinities and division by zero give inf
    Rec("floordiv_float_specials", tf.math.floordiv,
        [np.array([np.inf, -np.inf, -1.0, 0.5, 7.5, np.nan], np.float32),
         np.array([1e30, -2.5, -0.0, 0.0, -2.0, 1.0], np.float32)],
        np.array([np.inf, np.inf, np.inf, np.inf, -4.0, np.nan], np.float32)),
]


# --- running a record ---------------------------------------------------------------

def _split(rec):
    """(the numpy inputs, a function of those tensors that calls the op)."""
    inputs = [a for a in rec.args if isinstance(a, (np.ndarray, np.generic))]

    def call(*tensors):
        it = iter(tensors)
        args = [next(it) if isinstance(a, (np.ndarray, np.generic)) else a for a in rec.args]
        return rec.fn(args) if rec.listarg else rec.fn(*args)
    return inputs, call


def _check(actual, expected, rtol, dtype=None):
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if dtype is not None:
        assert dtype.np_dtype == expected.dtype
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_eager(rec):
    inputs, call = _split(rec)
    out = call(*[tf.constant(a) for a in inputs])
    assert isinstance(out, tf.Tensor)
    _check(out.numpy(), rec.expected(), rec.rtol, out.dtype)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_in_tf_function(rec):
    inputs, call = _split(rec)
    tensors = [tf.constant(a) for a in inputs]
    static = []

    def f(*xs):
        out = call(*xs)
        static.append((out.dtype, out.shape))
        return out
    out = tf.function(f)(*tensors)
    expected = rec.expected()
    _check(out.numpy(), expected, rec.rtol, out.dtype)
    dtype, shape = static[-1]
    assert dtype == out.dtype and shape.dims == expected.shape
    # Traced with every dimension unknown: the static shape stays compatible.
    specs = [tf.TensorSpec([None] * np.ndim(a), tf.dtypes.as_dtype(np.asarray(a).dtype))
             for a in inputs]
    relaxed = tf.function(f, input_signature=specs)
    _check(relaxed(*tensors).numpy(), expected, rec.rtol)
    dtype, shape = static[-1]
    assert dtype == out.dtype and shape.is_compatible_with(expected.shape)


def test_ops_are_staged_as_graph_nodes():
    def f(x, y):
        return tf.add_n([tf.sin(x), tf.math.erf(y), tf.clip_by_value(x, 0.0, 1.0),
                         tf.atan2(x, y), tf.cast(tf.math.is_nan(x), tf.float32)])
    cf = tf.function(f).get_concrete_function(tf.TensorSpec([2], tf.float32),
                                              tf.TensorSpec([2], tf.float32))
    text = str(cf.graph)
    for op in ("Sin", "Erf", "ClipByValue", "Atan2", "IsNan", "AddN"):
        assert f" = {op.lower()} " in text, op


# --- errors ---------------------------------------------------------------------------

FLOAT_ONLY = [
    (tf.sin, "Sin"), (tf.cos, "Cos"), (tf.tan, "Tan"), (tf.asin, "Asin"), (tf.acos, "Acos"),
    (tf.atan, "Atan"), (tf.sinh, "Sinh"), (tf.cosh, "Cosh"), (tf.asinh, "Asinh"),
    (tf.acosh, "Acosh"), (tf.atanh, "Atanh"), (tf.math.expm1, "Expm1"),
    (tf.math.log1p, "Log1p"), (tf.math.rsqrt, "Rsqrt"),
    (tf.floor, "Floor"), (tf.math.ceil, "Ceil"), (tf.math.rint, "Rint"),
    (tf.math.erf, "Erf"), (tf.math.erfc, "Erfc"), (tf.math.softplus, "Softplus"),
    (tf.nn.softsign, "Softsign"), (tf.sigmoid, "Sigmoid"), (tf.math.is_nan, "IsNan"),
    (tf.math.is_inf, "IsInf"), (tf.math.is_finite, "IsFinite"),
    (lambda x: tf.atan2(x, x), "Atan2"),
]


@pytest.mark.parametrize("fn, op", FLOAT_ONLY, ids=[op for _, op in FLOAT_ONLY])
def test_float_only_ops_reject_integers(fn, op):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{op}: expected a floating-point tensor .*got a int32"):
        fn(tf.constant([4]))

    def f(x):
        return fn(x)
    with pytest.raises(TypeError, match=f"{op}: expected a floating-point tensor"):
        tf.function(f)(tf.constant([4]))


def test_bool_input_rejected_by_numeric_ops():
    with pytest.raises(tf.errors.InvalidArgumentError, match="SquaredDifference: expected a numeric tensor"):
        tf.math.squared_difference(tf.constant(True), tf.constant(False))
    with pytest.raises(tf.errors.InvalidArgumentError, match="ClipByValue: expected a numeric tensor"):
        tf.clip_by_value(tf.constant([True]), False, True)


def test_binary_dtype_mismatch():
    x, i = tf.constant([1.0]), tf.constant([1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Atan2"):
        tf.atan2(x, tf.constant([1.0], tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddN.*float32.*int32"):
        tf.add_n([x, i])

    def f(a, b):
        return tf.add_n([a, b])
    with pytest.raises(TypeError, match="AddN: inputs must have the same dtype"):
        tf.function(f)(x, i)


def test_truediv_of_two_dtypes_is_a_type_error_eagerly_too():
    x, i = tf.constant([1.0]), tf.constant([1])
    for fn in (tf.divide, tf.math.truediv, lambda a, b: a / b):
        with pytest.raises(TypeError, match="must have the same dtype, got tf.float32 != tf.int32"):
            fn(x, i)
        with pytest.raises(TypeError, match="same dtype"):
            tf.function(lambda a, b: fn(a, b))(x, i)


def test_add_n_shapes_and_arguments():
    with pytest.raises(ValueError, match="at least one"):
        tf.add_n([])
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddN.*same size and shape"):
        tf.add_n([tf.constant([1, 2]), tf.constant([[1, 2]])])

    def f(a, b):
        return tf.add_n([a, b])
    with pytest.raises(ValueError, match="AddN: Shapes must be equal"):
        tf.function(f)(tf.constant([1, 2]), tf.constant([1, 2, 3]))


def test_clip_by_value_must_not_broadcast_t():
    with pytest.raises(ValueError, match="incompatible"):
        tf.clip_by_value(tf.constant([1.0, 2.0]), tf.zeros([3, 2]), 1.0)

    def f(t):
        return tf.clip_by_value(t, tf.zeros([3, 2]), 1.0)
    with pytest.raises(ValueError, match="incompatible"):
        tf.function(f)(tf.constant([1.0, 2.0]))


def test_unsupported_dtype_is_invalid_argument_eagerly_and_type_error_in_graphs():
    # As TensorFlow: eagerly no kernel exists for the dtype (InvalidArgumentError);
    # while tracing the op definition refuses it (TypeError). tools/tf_diff.py checks both.
    with pytest.raises(tf.errors.InvalidArgumentError, match="Sin: expected a floating-point"):
        tf.sin(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Sin: expected a floating-point"):
        tf.function(lambda x: tf.sin(x))(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="BitwiseAnd"):
        tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0]))
