"""Reductions and scans (`reduce_logsumexp/std/variance/euclidean_norm`,
`cumsum`, `cumprod`, `count_nonzero`, `norm`, `l2_normalize`, `nn.moments`),
one record per case, each run eagerly and inside `tf.function`, against
references written independently of the ops (numpy in float64, or loops),
checking value, dtype and shape, and the errors TensorFlow raises.
"""

import itertools

import numpy as np
import pytest

import runtime as tf
from tests.runtime.op_records import Rec, check_record

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.RandomState(16)
X = RNG.uniform(-3, 3, (3, 4)).astype(np.float32)
X3 = RNG.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
BIG = np.array([[1000.0, 1001.0], [-np.inf, -np.inf]], np.float32)
I = np.array([[3, -2, 0], [7, -5, 1]], np.int32)
EMPTY = np.zeros((0, 3), np.float32)
V = RNG.uniform(-3, 3, (5,)).astype(np.float64)


def f64(x):
    return np.asarray(x, np.float64)


# --- independent references ----------------------------------------------------

def ref_logsumexp(x, axis=None, keepdims=False):
    x = f64(x)
    if x.size == 0:
        return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis)


def ref_var(x, axis=None, keepdims=False):
    """Sums divided by counts (0/0 is NaN for empty inputs, as in TF)."""
    x = f64(x)
    mean = np.sum(x, axis=axis, keepdims=True) / np.sum(np.ones_like(x), axis=axis,
                                                         keepdims=True)
    n = np.sum(np.ones_like(x), axis=axis, keepdims=keepdims)
    return np.sum((x - mean) ** 2, axis=axis, keepdims=keepdims) / n


def ref_std(x, axis=None, keepdims=False):
    return np.sqrt(ref_var(x, axis, keepdims))


def ref_euclid(x, axis=None, keepdims=False):
    return np.sqrt(np.sum(f64(x) ** 2, axis=axis, keepdims=keepdims))


def ref_scan(x, axis, exclusive, reverse, prod):
    """Element by element: each output is the sum/product of the inputs before
    it (or after it, reversed), including itself unless exclusive."""
    x = f64(x)
    axis = axis % x.ndim
    out = np.empty_like(x)
    n = x.shape[axis]
    for idx in np.ndindex(x.shape):
        k = idx[axis]
        span = range(k + 1, n) if reverse and exclusive else range(k, n) if reverse \
            else range(k) if exclusive else range(k + 1)
        acc = 1.0 if prod else 0.0
        for j in span:
            v = x[idx[:axis] + (j,) + idx[axis + 1:]]
            acc = acc * v if prod else acc + v
        out[idx] = acc
    return out


def ref_vector_norm(x, ord, axis, keepdims=False):
    a = np.abs(f64(x))
    if ord in ("euclidean", 2):
        r = np.sqrt(np.sum(a ** 2, axis=axis, keepdims=keepdims))
    elif ord == 1:
        r = np.sum(a, axis=axis, keepdims=keepdims)
    elif ord == np.inf:
        r = np.max(a, axis=axis, keepdims=keepdims)
    else:
        r = np.sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)
    return r


def ref_matrix_norm(x, ord, axis, keepdims=False):
    return np.linalg.norm(f64(x), ord={"euclidean": "fro"}.get(ord, ord), axis=axis,
                          keepdims=keepdims)


def ref_l2n(x, axis=None, eps=1e-12):
    x = f64(x)
    return x / np.sqrt(np.maximum(np.sum(x * x, axis=axis, keepdims=True), eps))


# --- records -------------------------------------------------------------------

def _reductions():
    recs = []
    for name, fn, ref in [("logsumexp", tf.math.reduce_logsumexp, ref_logsumexp),
                          ("variance", tf.math.reduce_variance, ref_var),
                          ("std", tf.math.reduce_std, ref_std),
                          ("euclid", tf.math.reduce_euclidean_norm, ref_euclid)]:
        for axis, keepdims in [(None, False), (None, True), (0, False), (1, True),
                               (-1, False), ([0, 1], False), ((-2,), True)]:
            recs.append(Rec(f"{name}_{axis}_{keepdims}", fn, [X],
                            dict(axis=axis, keepdims=keepdims), ref(X, _np_axis(axis), keepdims),
                            np.float32))
        recs.append(Rec(f"{name}_3d", fn, [X3], dict(axis=[0, 2]), ref(X3, (0, 2)), np.float32))
        recs.append(Rec(f"{name}_f64", fn, [X.astype(np.float64)], dict(axis=1),
                        ref(X, 1), np.float64, 1e-12))
        recs.append(Rec(f"{name}_scalar", fn, [np.float32(1.5)], {}, ref(1.5), np.float32))
        recs.append(Rec(f"{name}_empty", fn, [EMPTY], dict(axis=0), ref(EMPTY, 0), np.float32))
    recs.append(Rec("logsumexp_large", tf.reduce_logsumexp, [BIG], dict(axis=1),
                    np.array([1001.3132616875182, -np.inf]), np.float32))
    recs.append(Rec("logsumexp_empty_all", tf.reduce_logsumexp, [EMPTY], {},
                    np.float64(-np.inf), np.float32))
    recs.append(Rec("euclid_int", tf.math.reduce_euclidean_norm,
                    [np.array([[1, 2, 3], [1, 1, 1]], np.int32)], {}, np.int32(4), np.int32))
    recs.append(Rec("euclid_int_axis", tf.math.reduce_euclidean_norm, [I], dict(axis=1),
                    np.floor(ref_euclid(I, 1)), np.int32))
    return recs


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _scans():
    recs = []
    for (name, fn, prod), (axis, exclusive, reverse) in itertools.product(
            [("cumsum", tf.cumsum, False), ("cumprod", tf.math.cumprod, True)],
            itertools.product([0, 1, -1], [False, True], [False, True])):
        recs.append(Rec(f"{name}_{axis}_{exclusive}_{reverse}", fn, [X],
                        dict(axis=axis, exclusive=exclusive, reverse=reverse),
                        ref_scan(X, axis, exclusive, reverse, prod), np.float32))
    for name, fn, prod in [("cumsum", tf.math.cumsum, False), ("cumprod", tf.math.cumprod, True)]:
        recs.append(Rec(f"{name}_int", fn, [I], dict(axis=1, exclusive=True),
                        ref_scan(I, 1, True, False, prod), np.int32))
        recs.append(Rec(f"{name}_int64_rev", fn, [I.astype(np.int64)], dict(reverse=True),
                        ref_scan(I, 0, False, True, prod), np.int64))
        recs.append(Rec(f"{name}_3d", fn, [X3], dict(axis=1, exclusive=True, reverse=True),
                        ref_scan(X3, 1, True, True, prod), np.float32))
        recs.append(Rec(f"{name}_default_axis", fn, [V], {}, ref_scan(V, 0, False, False, prod),
                        np.float64, 1e-12))
        recs.append(Rec(f"{name}_empty", fn, [EMPTY], dict(exclusive=True),
                        np.zeros((0, 3)), np.float32))
        recs.append(Rec(f"{name}_empty_axis1", fn, [EMPTY], dict(axis=1, reverse=True),
                        np.zeros((0, 3)), np.float32))
    return recs


def _count_nonzero():
    z = np.array([[0.0, 1.5, 0.0], [2.0, -0.0, 3.0]], np.float32)
    return [
        Rec("count_all", tf.math.count_nonzero, [z], {}, np.int64(3), np.int64),
        Rec("count_axis0", tf.math.count_nonzero, [z], dict(axis=0), np.array([1, 1, 1]),
            np.int64),
        Rec("count_axis_neg_keep", tf.math.count_nonzero, [I], dict(axis=-1, keepdims=True),
            np.array([[2], [3]]), np.int64),
        Rec("count_dtype", tf.math.count_nonzero, [I], dict(axis=0, dtype=tf.int32),
            np.array([2, 2, 1]), np.int32),
        Rec("count_bool", tf.math.count_nonzero, [np.array([True, False, True])], {},
            np.int64(2), np.int64),
        Rec("count_empty", tf.math.count_nonzero, [EMPTY], dict(axis=0), np.zeros(3), np.int64),
    ]


def _norms():
    recs = []
    for ord, axis, keepdims in [("euclidean", None, False), (2, None, False), (1, None, False),
                                (np.inf, None, False), (3, None, True), (0.5, 1, False),
                                ("euclidean", 1, True), (1, 0, False), (np.inf, -1, False),
                                (2, -2, True), (2.0, 1, False)]:
        recs.append(Rec(f"norm_vec_{ord}_{axis}_{keepdims}", tf.norm, [X],
                        dict(ord=ord, axis=axis, keepdims=keepdims),
                        ref_vector_norm(X, ord, axis, keepdims), np.float32))
    for ord, axis, keepdims in [("fro", (0, 1), False), ("euclidean", [0, 1], False),
                                (1, (0, 1), False), (np.inf, (0, 1), True),
                                (1, (-1, -2), False), (np.inf, [-2, -1], False)]:
        recs.append(Rec(f"norm_mat_{ord}_{axis}_{keepdims}", tf.norm, [X],
                        dict(ord=ord, axis=axis, keepdims=keepdims),
                        ref_matrix_norm(X, ord, tuple(axis), keepdims), np.float32))
    for ord in ("fro", 1, np.inf):
        recs.append(Rec(f"norm_batch_{ord}", tf.linalg.norm, [X3], dict(ord=ord, axis=[1, 2]),
                        ref_matrix_norm(X3, ord, (1, 2)), np.float32))
    recs.append(Rec("norm_f64", tf.norm, [V], {}, np.sqrt(np.sum(V * V)), np.float64, 1e-12))
    recs.append(Rec("norm_int_l1", tf.norm, [I], dict(ord=1, axis=1), np.array([5, 13]),
                    np.int32))
    recs.append(Rec("norm_empty", tf.norm, [EMPTY], dict(axis=0), np.zeros(3), np.float32))
    return recs


def _normalize_and_moments():
    y = X3.astype(np.float64)
    return [
        Rec("l2n_all", tf.math.l2_normalize, [X], {}, ref_l2n(X), np.float32),
        Rec("l2n_axis1", tf.nn.l2_normalize, [X], dict(axis=1), ref_l2n(X, 1), np.float32),
        Rec("l2n_axis_list", tf.nn.l2_normalize, [X3], dict(axis=[0, -1]), ref_l2n(X3, (0, 2)),
            np.float32),
        Rec("l2n_zeros_eps", tf.nn.l2_normalize, [np.zeros((2, 2), np.float32)],
            dict(axis=0, epsilon=1e-4), np.zeros((2, 2)), np.float32),
        Rec("l2n_dim", tf.math.l2_normalize, [X], dict(dim=0), ref_l2n(X, 0), np.float32),
        Rec("l2n_empty", tf.math.l2_normalize, [EMPTY], dict(axis=1), np.zeros((0, 3)),
            np.float32),
        Rec("moments_0", tf.nn.moments, [X], dict(axes=[0]),
            (np.mean(f64(X), 0), np.var(f64(X), 0)), np.float32),
        Rec("moments_all_keep", tf.nn.moments, [X3], dict(axes=[0, 1, 2], keepdims=True),
            (np.mean(y, (0, 1, 2), keepdims=True), np.var(y, (0, 1, 2), keepdims=True)),
            np.float32),
        Rec("moments_neg", tf.nn.moments, [X3], dict(axes=[-1]),
            (np.mean(y, -1), np.var(y, -1)), np.float32),
        Rec("moments_f16", tf.nn.moments, [X.astype(np.float16)], dict(axes=[1]),
            (np.mean(f64(X.astype(np.float16)), 1), np.var(f64(X.astype(np.float16)), 1)),
            np.float16, 2e-3),
        Rec("moments_f64", tf.nn.moments, [y], dict(axes=[0, 2]),
            (np.mean(y, (0, 2)), np.var(y, (0, 2))), np.float64, 1e-12),
    ]


def _arg_nan():
    """argmax/argmin pass over NaNs as TF does (all NaN: index 0)."""
    n = np.nan
    x = np.array([[n, 1, 3], [1, n, 3], [3, n, 1], [n, n, n]], np.float32)
    return [
        Rec("argmax_nan", tf.math.argmax, [x], dict(axis=1), np.array([2, 2, 0, 0]), np.int64),
        Rec("argmin_nan", tf.math.argmin, [x], dict(axis=1), np.array([1, 0, 2, 0]), np.int64),
        Rec("argmax_nan_axis0_i32", tf.argmax, [x.T.copy()], dict(output_type=tf.int32),
            np.array([2, 2, 0, 0]), np.int32),
    ]


with np.errstate(all="ignore"):           # the references' log(0) and 0/0, on purpose
    RECORDS = (_reductions() + _scans() + _count_nonzero() + _norms() + _normalize_and_moments()
               + _arg_nan())


def _check(rec, got):
    check_record(rec, got, atol_factor=1e-3)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_eager(rec):
    _check(rec, rec.fn(*[tf.constant(a) for a in rec.args], **rec.kw))


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_in_function(rec):
    def body(*args):
        return rec.fn(*args, **rec.kw)
    _check(rec, tf.function(body)(*[tf.constant(a) for a in rec.args]))


@pytest.mark.parametrize("rec", [r for r in RECORDS if r.name.startswith(
    ("cumsum", "cumprod", "variance", "logsumexp", "norm_vec", "moments"))], ids=repr)
def test_static_shape_while_tracing(rec):
    """The traced output's static shape is the eager one (same rank when dims are unknown)."""
    shapes = []

    def body(*args):
        out = rec.fn(*args, **rec.kw)
        shapes.extend(o.shape for o in (out if isinstance(out, tuple) else (out,)))
        return out
    specs = [tf.TensorSpec(np.shape(a), tf.dtypes.as_dtype(np.asarray(a).dtype))
             for a in rec.args]
    tf.function(body).get_concrete_function(*specs)
    refs = rec.ref if isinstance(rec.ref, tuple) else (rec.ref,)
    assert [tuple(s) for s in shapes] == [np.shape(r) for r in refs]


# --- errors ----------------------------------------------------------------------

BAD_AXIS = [
    ("logsumexp", lambda x: tf.reduce_logsumexp(x, axis=2)),
    ("variance", lambda x: tf.math.reduce_variance(x, axis=-3)),
    ("std", lambda x: tf.math.reduce_std(x, axis=[0, 5])),
    ("euclid", lambda x: tf.math.reduce_euclidean_norm(x, axis=2)),
    ("cumsum", lambda x: tf.cumsum(x, axis=2)),
    ("cumprod", lambda x: tf.math.cumprod(x, axis=-3)),
    ("count", lambda x: tf.math.count_nonzero(x, axis=2)),
    ("norm", lambda x: tf.norm(x, axis=2)),
    ("l2n", lambda x: tf.math.l2_normalize(x, axis=2)),
    ("moments", lambda x: tf.nn.moments(x, axes=[3])),
]


@pytest.mark.parametrize("name, fn", BAD_AXIS, ids=[b[0] for b in BAD_AXIS])
def test_bad_axis_eagerly_is_invalid_argument(name, fn):
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(tf.constant(X))


@pytest.mark.parametrize("name, fn", BAD_AXIS, ids=[b[0] for b in BAD_AXIS])
def test_bad_axis_while_tracing_is_value_error(name, fn):
    if name in ("cumsum", "cumprod"):
        pytest.skip("as TF, a scan checks its axis when the graph runs: see the next test")
    with pytest.raises(ValueError, match="out of range"):
        tf.function(lambda x: fn(x)).get_concrete_function(tf.TensorSpec([3, 4], tf.float32))


@pytest.mark.parametrize("fn, x", [
    (lambda x: tf.cumsum(x, axis=2), X), (lambda x: tf.math.cumprod(x, axis=-3), X),
    (lambda x: tf.cumsum(x), np.float32(1.0))], ids=["cumsum", "cumprod", "scalar"])
def test_scan_bad_axis_in_a_graph_fails_when_it_runs(fn, x):
    """TF traces these and raises InvalidArgumentError at run time (tools/tf_diff.py)."""
    f = tf.function(fn)
    f.get_concrete_function(tf.TensorSpec(np.shape(x), tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected scan axis in the range"):
        f(tf.constant(x))


def test_scan_axis_error_names_the_range():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cumsum: Expected scan axis in the range \[-2, 2\), but got 2"):
        tf.cumsum(tf.constant(X), axis=2)


@pytest.mark.parametrize("fn", [tf.math.reduce_variance, tf.math.reduce_std],
                         ids=["variance", "std"])
def test_variance_of_integers_is_a_type_error(fn):
    with pytest.raises(TypeError, match="integer"):
        fn(tf.constant(I))


@pytest.mark.parametrize("fn", [tf.reduce_logsumexp, tf.cumsum, tf.math.cumprod,
                                tf.math.reduce_euclidean_norm, tf.math.reduce_variance],
                         ids=["logsumexp", "cumsum", "cumprod", "euclid", "variance"])
def test_bool_input_is_a_type_error(fn):
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(tf.constant([True, False]))


def test_logsumexp_of_integers_is_a_type_error():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reduce_logsumexp(tf.constant(I))


@pytest.mark.parametrize("kw", [dict(ord="fro"), dict(ord=0), dict(ord=-1),
                                dict(ord="nuc", axis=[0, 1]), dict(ord=3, axis=[0, 1]),
                                dict(axis=[0, 0]), dict(axis=[0, 1, 2])],
                         ids=["fro_vector", "ord0", "ord_neg", "nuc", "ord3_matrix",
                              "same_axes", "three_axes"])
def test_norm_argument_errors(kw):
    with pytest.raises(ValueError):
        tf.norm(tf.constant(X3), **kw)


def test_cumsum_axis_must_be_an_int():
    with pytest.raises(TypeError):
        tf.cumsum(tf.constant(X), axis=[0, 1])


def test_cumsum_of_a_scalar_is_an_error():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.cumsum(tf.constant(1.0))


# TF 2.21's recorded gradients of products over inputs with zeros: finite, each
# element's gradient the product of its group's others (reduce_prod), and 0 at a
# zero input for cumprod (TF divides its running sum by x with divide_no_nan).
_CP_WEIGHTS = [1., 2., 3., 4.]
_PROD_ZEROS = [
    ("one zero", [0., 2., 3.], dict(), None, [6., 0., 0.]),
    ("two zeros", [0., 2., 0.], dict(), None, [0., 0., 0.]),
    ("axis 1", [[0., 2., 3.], [1., 0., 0.], [1., 2., 3.]], dict(axis=1), None,
     [[6., 0., 0.], [0., 0., 0.], [6., 3., 2.]]),
    ("axis 0", [[0., 2., 3.], [1., 0., 0.], [1., 2., 3.]], dict(axis=0), None,
     [[1., 0., 0.], [0., 4., 9.], [0., 0., 0.]]),
    ("axes 0 2", [[[0., 2.], [3., 4.]], [[5., 0.], [1., 2.]]], dict(axis=[0, 2]), [1., 2.],
     [[[0., 0.], [16., 12.]], [[0., 0.], [48., 24.]]]),
    ("axes -1 0 keepdims", [[[0., 2.], [3., 4.]], [[5., 6.], [1., 2.]]],
     dict(axis=[-1, 0], keepdims=True), None, [[[60., 0.], [8., 6.]], [[0., 0.], [24., 12.]]]),
    ("all", [[[1., 2.], [3., 4.]], [[5., 0.], [1., 2.]]], dict(), None,
     [[[0., 0.], [0., 0.]], [[0., 240.], [0., 0.]]]),
]
_CUMPROD_ZEROS = [   # (x, exclusive, reverse, gradient of sum(cumprod(x) * [1, 2, 3, 4]))
    ([2., 0., 3., 0.5], False, False, [1., 0., 0., 0.]),
    ([2., 0., 3., 0.], False, False, [1., 0., 0., 0.]),
    ([2., 0., 3., 0.5], False, True, [0., 0., 1.5, 13.]),
    ([2., 0., 3., 0.], False, True, [0., 0., 0., 0.]),
    ([2., 0., 3., 0.5], True, False, [2., 0., 0., 0.]),
    ([2., 0., 3., 0.], True, False, [2., 0., 0., 0.]),
    ([2., 0., 3., 0.5], True, True, [0., 0., 1., 9.]),
    ([2., 0., 3., 0.], True, True, [0., 0., 0., 0.]),
]


def _taped(fn, x, traced):
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)
    return (tf.function(run) if traced else run)(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("label,x,kwargs,weights,want", _PROD_ZEROS,
                         ids=[c[0] for c in _PROD_ZEROS])
def test_reduce_prod_gradient_with_zeros_is_tensorflows(label, x, kwargs, weights, want, dtype,
                                                        traced):
    def fn(t):
        y = tf.reduce_prod(t, **kwargs)
        return y if weights is None else y * tf.constant(np.array(weights, dtype))
    grad = _taped(fn, tf.constant(np.array(x, dtype)), traced)
    assert grad.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(grad.numpy(), np.array(want, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("x,exclusive,reverse,want", _CUMPROD_ZEROS)
def test_cumprod_gradient_with_zeros_is_tensorflows(x, exclusive, reverse, want, dtype, traced):
    w = tf.constant(np.array(_CP_WEIGHTS, dtype))
    grad = _taped(lambda t: tf.math.cumprod(t, exclusive=exclusive, reverse=reverse) * w,
                  tf.constant(np.array(x, dtype)), traced)
    np.testing.assert_array_equal(grad.numpy(), np.array(want, dtype))


def test_reduce_prod_second_order_with_a_zero():
    # TF 2.21 gives [0, 3, 2] (the exact [5, 3, 2] less x0's row: the second order goes
    # through cumprod's gradient, 0 at a zero input); ours is TF's.
    x = tf.constant([0., 2., 3.], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_prod(x)
        g = tape.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), [0., 3., 2.])


def test_argmax_and_argmin_take_bools_as_tf():
    # TF 2.21: tf.argmax([False, True, False]) == 1, tf.math.argmin([True, False]) == 1
    flags = tf.constant([[False, True, False], [True, True, False]])
    assert tf.argmax(flags[0]).numpy() == 1 and tf.argmax(flags[0]).dtype == tf.int64
    assert tf.math.argmin([True, False]).numpy() == 1
    traced = tf.function(lambda x: (tf.argmax(x, axis=1), tf.argmin(x, axis=0)))
    high, low = traced(flags)
    assert high.numpy().tolist() == [1, 0] and low.numpy().tolist() == [0, 0, 0]
