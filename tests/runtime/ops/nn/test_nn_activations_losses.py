"""`tf.nn` activations and losses (`relu6 elu selu gelu leaky_relu silu swish
log_softmax bias_add l2_loss` and the cross-entropy family), one record per
case, each run eagerly and inside `tf.function`, against references written
independently of the ops (numpy in float64, `math.erf`, per-row loops),
checking value, dtype and shape, and the errors TensorFlow raises.
"""

import math

import numpy as np
import pytest

import runtime as tf
from tests.runtime.op_records import Rec, check_record

RNG = np.random.RandomState(17)
X = RNG.uniform(-4, 4, (3, 5)).astype(np.float32)
X3 = RNG.uniform(-3, 3, (2, 3, 4)).astype(np.float32)
V64 = RNG.uniform(-3, 3, (6,))
BIG = np.array([[1000.0, -1000.0, 0.0], [-80.0, 80.0, 3.0]], np.float32)
EMPTY = np.zeros((0, 4), np.float32)
SCALAR = np.float32(-1.25)
I = np.array([[-3, 0, 2], [7, -1, 9]], np.int32)

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def f64(x):
    return np.asarray(x, np.float64)


# --- independent references -------------------------------------------------------

def ref_relu6(x):
    return np.clip(f64(x), 0, 6)


def ref_elu(x):
    x = f64(x)
    return np.array([v if v > 0 else math.exp(v) - 1 for v in x.ravel()]).reshape(x.shape)


def ref_selu(x):
    x = f64(x)
    return SELU_SCALE * np.array([v if v > 0 else SELU_ALPHA * (math.exp(v) - 1)
                                  for v in x.ravel()]).reshape(x.shape)


def ref_gelu(x, approximate=False):
    """TF 2.21's formulas: its tf.cast constants are float32 first."""
    x = f64(x)
    if approximate:
        coeff = float(np.float32(0.044715))
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + coeff * x ** 3)))
    c = float(np.float32(1 / math.sqrt(2)))
    phi = np.array([0.5 * math.erfc(-v * c) for v in x.ravel()])
    return x * phi.reshape(x.shape)


def ref_leaky(x, alpha=0.2):
    x = f64(x)
    alpha = float(np.float32(alpha))      # TF's kernel: a float32 attribute
    return np.where(x > 0, x, alpha * x)


def ref_silu(x, beta=1.0):
    x = f64(x)
    return x / (1 + np.exp(-beta * x))


def ref_log_softmax(x, axis=-1):
    """Row by row with Python's math.fsum over the shifted exponentials."""
    x = np.moveaxis(f64(x), axis, -1)
    out = np.empty_like(x)
    for idx in np.ndindex(x.shape[:-1]):
        row = x[idx]
        m = max(row)
        out[idx] = [v - m - math.log(math.fsum(math.exp(w - m) for w in row)) for v in row]
    return np.moveaxis(out, -1, axis)


def ref_bias_add(x, b, channels_first=False):
    x, b = f64(x), f64(b)
    out = x.copy()
    for idx in np.ndindex(x.shape):
        out[idx] += b[idx[1] if channels_first else idx[-1]]
    return out


def ref_l2(x):
    return math.fsum(float(v) ** 2 for v in f64(x).ravel()) / 2


def ref_sparse_xent(labels, logits):
    lsm = ref_log_softmax(logits)
    out = np.empty(np.shape(labels))
    for idx in np.ndindex(out.shape):
        out[idx] = -lsm[idx + (labels[idx],)]
    return out


def ref_softmax_xent(labels, logits, axis=-1):
    return -np.sum(f64(labels) * ref_log_softmax(logits, axis), axis=axis)


def ref_sigmoid_xent(z, x):
    """-z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x)), via log1p for stability."""
    z, x = f64(z), f64(x)
    log_sig = -np.logaddexp(0, -x)           # log(sigmoid(x))
    log_one_minus = -np.logaddexp(0, x)      # log(1 - sigmoid(x))
    return -z * log_sig - (1 - z) * log_one_minus


def ref_weighted_xent(z, x, q):
    z, x = f64(z), f64(x)
    return -q * z * -np.logaddexp(0, -x) - (1 - z) * -np.logaddexp(0, x)


# --- records ----------------------------------------------------------------------

def _activations():
    recs = []
    table = [("relu6", tf.nn.relu6, ref_relu6, {}), ("elu", tf.nn.elu, ref_elu, {}),
             ("selu", tf.nn.selu, ref_selu, {}), ("gelu", tf.nn.gelu, ref_gelu, {}),
             ("gelu_tanh", tf.nn.gelu, lambda x: ref_gelu(x, True), dict(approximate=True)),
             ("leaky", tf.nn.leaky_relu, ref_leaky, {}),
             ("leaky_alpha", tf.nn.leaky_relu, lambda x: ref_leaky(x, 0.05), dict(alpha=0.05)),
             ("silu", tf.nn.silu, ref_silu, {}), ("swish", tf.nn.swish, ref_silu, {}),
             ("silu_beta", tf.nn.silu, lambda x: ref_silu(x, 2.5), dict(beta=2.5))]
    for name, fn, ref, kw in table:
        recs.append(Rec(f"{name}_2d", fn, [X], kw, ref(X), np.float32))
        recs.append(Rec(f"{name}_3d", fn, [X3], kw, ref(X3), np.float32))
        recs.append(Rec(f"{name}_f64", fn, [V64], kw, ref(V64), np.float64, 1e-12))
        recs.append(Rec(f"{name}_scalar", fn, [SCALAR], kw, ref(SCALAR), np.float32))
        recs.append(Rec(f"{name}_empty", fn, [EMPTY], kw, np.zeros((0, 4)), np.float32))
    recs.append(Rec("relu6_int", tf.nn.relu6, [I], {}, ref_relu6(I), np.int32))
    recs.append(Rec("relu6_big", tf.nn.relu6, [BIG], {}, ref_relu6(BIG), np.float32))
    recs.append(Rec("elu_f16", tf.nn.elu, [X.astype(np.float16)], {},
                    ref_elu(X.astype(np.float16)), np.float16, 2e-3))
    recs.append(Rec("leaky_int_is_float32", tf.nn.leaky_relu, [I], {}, ref_leaky(I), np.float32))
    return recs


def _log_softmax():
    recs = []
    for fn in (tf.nn.log_softmax, tf.math.log_softmax):
        for axis in (None, -1, 0, 1):
            kw = {} if axis is None else dict(axis=axis)
            recs.append(Rec(f"{fn.__module__}_log_softmax_{axis}", fn, [X], kw,
                            ref_log_softmax(X, -1 if axis is None else axis), np.float32))
    recs.append(Rec("log_softmax_3d_axis1", tf.nn.log_softmax, [X3], dict(axis=1),
                    ref_log_softmax(X3, 1), np.float32))
    recs.append(Rec("log_softmax_large", tf.nn.log_softmax, [BIG], {},
                    ref_log_softmax(BIG), np.float32))
    recs.append(Rec("log_softmax_f64", tf.nn.log_softmax, [V64], {}, ref_log_softmax(V64),
                    np.float64, 1e-12))
    recs.append(Rec("log_softmax_empty", tf.nn.log_softmax, [EMPTY], {}, np.zeros((0, 4)),
                    np.float32))
    return recs


def _bias_and_l2():
    b5 = RNG.uniform(-1, 1, (5,)).astype(np.float32)
    b4 = RNG.uniform(-1, 1, (4,)).astype(np.float32)
    b3 = RNG.uniform(-1, 1, (3,)).astype(np.float32)
    bi = np.array([10, 20, 30], np.int32)
    return [
        Rec("bias_add_2d", tf.nn.bias_add, [X, b5], {}, ref_bias_add(X, b5), np.float32),
        Rec("bias_add_nhwc_3d", tf.nn.bias_add, [X3, b4], {}, ref_bias_add(X3, b4), np.float32),
        Rec("bias_add_nhwc_named", tf.nn.bias_add, [X3, b4], dict(data_format="NWC"),
            ref_bias_add(X3, b4), np.float32),
        Rec("bias_add_nchw", tf.nn.bias_add, [X3, b3], dict(data_format="NCW"),
            ref_bias_add(X3, b3, channels_first=True), np.float32),
        Rec("bias_add_int", tf.nn.bias_add, [I, bi], {}, ref_bias_add(I, bi), np.int32),
        Rec("bias_add_empty", tf.nn.bias_add, [EMPTY, b4], {}, np.zeros((0, 4)), np.float32),
        Rec("l2_loss_2d", tf.nn.l2_loss, [X], {}, ref_l2(X), np.float32),
        Rec("l2_loss_3d", tf.nn.l2_loss, [X3], {}, ref_l2(X3), np.float32),
        Rec("l2_loss_f64", tf.nn.l2_loss, [V64], {}, ref_l2(V64), np.float64, 1e-12),
        Rec("l2_loss_scalar", tf.nn.l2_loss, [SCALAR], {}, ref_l2(SCALAR), np.float32),
        Rec("l2_loss_empty", tf.nn.l2_loss, [EMPTY], {}, 0.0, np.float32),
    ]


def _cross_entropy():
    labels = np.array([4, 0, 2], np.int32)
    labels3 = RNG.randint(0, 4, (2, 3)).astype(np.int64)
    dense = RNG.uniform(0, 1, X.shape).astype(np.float32)
    dense /= dense.sum(-1, keepdims=True)
    dense3 = RNG.uniform(0, 1, X3.shape).astype(np.float32)
    z = RNG.randint(0, 2, X.shape).astype(np.float32)
    zsoft = RNG.uniform(0, 1, X3.shape).astype(np.float32)
    zbig = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]], np.float32)
    onehot = np.eye(3, dtype=np.float32)[[0, 2]]
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits
    soft = tf.nn.softmax_cross_entropy_with_logits
    sig = tf.nn.sigmoid_cross_entropy_with_logits
    wce = tf.nn.weighted_cross_entropy_with_logits
    return [
        Rec("sparse_2d", sparse, [labels, X], {}, ref_sparse_xent(labels, X), np.float32),
        Rec("sparse_3d_int64", sparse, [labels3, X3], {}, ref_sparse_xent(labels3, X3),
            np.float32),
        Rec("sparse_kw", lambda l, x: sparse(labels=l, logits=x), [labels, X], {},
            ref_sparse_xent(labels, X), np.float32),
        Rec("sparse_large", sparse, [np.array([1, 0]), BIG], {},
            ref_sparse_xent(np.array([1, 0]), BIG), np.float32),
        Rec("sparse_f64", sparse, [labels, X.astype(np.float64)], {},
            ref_sparse_xent(labels, X), np.float64, 1e-12),
        Rec("sparse_f16", sparse, [labels, X.astype(np.float16)], {},
            ref_sparse_xent(labels, X.astype(np.float16)), np.float16, 2e-3),
        Rec("sparse_empty", sparse, [np.zeros((0,), np.int32), EMPTY], {}, np.zeros((0,)),
            np.float32),
        Rec("softmax_2d", soft, [dense, X], {}, ref_softmax_xent(dense, X), np.float32),
        Rec("softmax_kw", lambda l, x: soft(labels=l, logits=x), [dense, X], {},
            ref_softmax_xent(dense, X), np.float32),
        Rec("softmax_axis0", soft, [dense3, X3], dict(axis=0), ref_softmax_xent(dense3, X3, 0),
            np.float32),
        Rec("softmax_axis1", soft, [dense3, X3], dict(axis=1), ref_softmax_xent(dense3, X3, 1),
            np.float32),
        Rec("softmax_large", soft, [onehot, BIG], {}, ref_softmax_xent(onehot, BIG),
            np.float32),
        Rec("softmax_1d", soft, [dense[0], X[0]], {}, ref_softmax_xent(dense[0], X[0]),
            np.float32),
        Rec("softmax_f64", soft, [dense.astype(np.float64), X.astype(np.float64)], {},
            ref_softmax_xent(dense, X), np.float64, 1e-12),
        Rec("sigmoid_2d", lambda l, x: sig(labels=l, logits=x), [z, X], {},
            ref_sigmoid_xent(z, X), np.float32),
        Rec("sigmoid_soft_3d", lambda l, x: sig(labels=l, logits=x), [zsoft, X3], {},
            ref_sigmoid_xent(zsoft, X3), np.float32),
        Rec("sigmoid_large", lambda l, x: sig(labels=l, logits=x), [zbig, BIG], {},
            ref_sigmoid_xent(zbig, BIG), np.float32),
        Rec("sigmoid_positional", sig, [z, X], {}, ref_sigmoid_xent(z, X), np.float32),
        Rec("sigmoid_f64", lambda l, x: sig(labels=l, logits=x),
            [z.astype(np.float64), X.astype(np.float64)], {}, ref_sigmoid_xent(z, X),
            np.float64, 1e-12),
        Rec("sigmoid_empty", lambda l, x: sig(labels=l, logits=x), [EMPTY, EMPTY], {},
            np.zeros((0, 4)), np.float32),
        Rec("weighted_2d", wce, [z, X], dict(pos_weight=3.0), ref_weighted_xent(z, X, 3.0),
            np.float32),
        Rec("weighted_kw", lambda l, x: wce(labels=l, logits=x, pos_weight=0.5), [zsoft, X3],
            {}, ref_weighted_xent(zsoft, X3, 0.5), np.float32),
        Rec("weighted_one_is_sigmoid", wce, [zbig, BIG], dict(pos_weight=1.0),
            ref_sigmoid_xent(zbig, BIG), np.float32),
        Rec("weighted_f64", wce, [z.astype(np.float64), X.astype(np.float64)],
            dict(pos_weight=2.0), ref_weighted_xent(z, X, 2.0), np.float64, 1e-12),
    ]


RECORDS = _activations() + _log_softmax() + _bias_and_l2() + _cross_entropy()


def _check(rec, got):
    # atol: float32's own rounding where gelu/silu cancel near zero (TF's too)
    check_record(rec, got, atol_factor=1e-2)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_eager(rec):
    _check(rec, rec.fn(*[tf.constant(a) for a in rec.args], **rec.kw))


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_in_function(rec):
    shapes = []

    def body(*args):
        out = rec.fn(*args, **rec.kw)
        shapes.append(tuple(out.shape))
        return out
    _check(rec, tf.function(body)(*[tf.constant(a) for a in rec.args]))
    assert shapes == [np.shape(rec.ref)]           # the static shape while tracing


# --- errors -------------------------------------------------------------------------

FLOAT_ONLY = [("Elu", tf.nn.elu), ("Selu", tf.nn.selu),
              ("Silu", tf.nn.silu), ("Silu", tf.nn.swish), ("LogSoftmax", tf.nn.log_softmax),
              ("L2Loss", tf.nn.l2_loss)]


@pytest.mark.parametrize("op, fn", FLOAT_ONLY, ids=[f[1].__name__ for f in FLOAT_ONLY])
def test_integer_input_is_a_type_error_naming_the_op(op, fn):
    with pytest.raises(tf.errors.InvalidArgumentError, match=op):
        fn(tf.constant(I))


XENT_INT_LOGITS = [
    ("SparseSoftmax", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits([0, 1], I)),
    ("SoftmaxCross", lambda: tf.nn.softmax_cross_entropy_with_logits(I, I)),
    ("SigmoidCross", lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=I, logits=I)),
    ("WeightedCross", lambda: tf.nn.weighted_cross_entropy_with_logits(I, I, 2.0)),
]


@pytest.mark.parametrize("op, call", XENT_INT_LOGITS, ids=[x[0] for x in XENT_INT_LOGITS])
def test_integer_logits_are_a_type_error(op, call):
    with pytest.raises(tf.errors.InvalidArgumentError, match=op):
        call()


def test_sparse_labels_must_be_integers():
    with pytest.raises(tf.errors.InvalidArgumentError, match="SparseSoftmaxCrossEntropyWithLogits"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0.0, 1.0, 2.0]), X)


@pytest.mark.parametrize("labels, match", [(np.zeros((3, 5), np.int32), "Rank mismatch"),
                                           (np.zeros((4,), np.int32), "Shape mismatch")],
                         ids=["rank", "shape"])
def test_sparse_label_shape_mismatch(labels, match):
    with pytest.raises(ValueError, match=match):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels, X)
    with pytest.raises(ValueError, match=match):
        tf.function(lambda l, x: tf.nn.sparse_softmax_cross_entropy_with_logits(l, x))(
            tf.constant(labels), tf.constant(X))


def test_sparse_label_out_of_range_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"valid range of \[0, 5\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([0, 5, 1], X)
    f = tf.function(lambda l, x: tf.nn.sparse_softmax_cross_entropy_with_logits(l, x))
    with pytest.raises(tf.errors.InvalidArgumentError, match="label value of -1"):
        f(tf.constant([0, -1, 1]), tf.constant(X))


def test_sparse_scalar_logits_are_refused():
    with pytest.raises(ValueError, match="scalars"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant(0), tf.constant(1.0))


@pytest.mark.parametrize("call", [
    lambda: tf.nn.softmax_cross_entropy_with_logits(np.zeros((3, 4), np.float32), X),
    lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=np.zeros((5, 3), np.float32),
                                                    logits=X),
    lambda: tf.nn.weighted_cross_entropy_with_logits(np.zeros((3,), np.float32), X, 2.0),
], ids=["softmax", "sigmoid", "weighted"])
def test_dense_label_shape_mismatch_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_sigmoid_needs_both_arguments():
    with pytest.raises(ValueError, match="Both labels and logits"):
        tf.nn.sigmoid_cross_entropy_with_logits(logits=X)


def test_softmax_labels_are_cast_to_the_logits_dtype():
    got = tf.nn.softmax_cross_entropy_with_logits(np.array([[0, 1, 0]], np.int32),
                                                  np.array([[1.0, 2.0, 3.0]], np.float32))
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), ref_softmax_xent([[0, 1, 0]], [[1.0, 2.0, 3.0]]),
                               rtol=1e-6)


@pytest.mark.parametrize("value, bias, kw", [
    (np.zeros((3,), np.float32), np.zeros((3,), np.float32), {}),
    (X, np.zeros((3,), np.float32), {}),
    (X, np.zeros((1, 5), np.float32), {}),
    (X3, np.zeros((4,), np.float32), dict(data_format="NCW")),
], ids=["rank1_value", "wrong_size", "bias_2d", "nchw_wrong_size"])
def test_bias_add_shape_errors(value, bias, kw):
    with pytest.raises(tf.errors.InvalidArgumentError, match="BiasAdd"):
        tf.nn.bias_add(tf.constant(value), tf.constant(bias), **kw)
    with pytest.raises(ValueError):
        tf.function(lambda v, b: tf.nn.bias_add(v, b, **kw))(tf.constant(value),
                                                              tf.constant(bias))


def test_bias_add_dtype_mismatch_is_a_type_error():
    with pytest.raises(TypeError, match="BiasAdd"):
        tf.nn.bias_add(tf.constant(X), tf.constant(np.zeros(5, np.float64)))


def test_log_softmax_of_a_scalar_is_an_error():
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        tf.nn.log_softmax(tf.constant(1.0))


def test_log_softmax_is_stable_at_extremes():
    got = tf.nn.log_softmax(tf.constant([[1e4, 0.0, -1e4]], tf.float32)).numpy()
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, [[0.0, -1e4, -2e4]], rtol=1e-6)


# --- values and errors recorded from TensorFlow 2.21 (tools/tf_diff.py found them) ---

def test_gelu_is_tensorflows_erfc_form_deep_in_the_negative_tail():
    x = tf.constant([-30.0, -7.0, -1.0, 0.5, 3.0], tf.float64)
    want = [-1.4720368766606935e-196, -8.958695467574021e-12, -0.15865525807260966,
            0.3457312291306712, 2.995950305222479]                        # TF 2.21
    for got in (tf.nn.gelu(x), tf.function(tf.nn.gelu)(x)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-13)


def test_gelu_of_an_integer_tensor_is_tensorflows_value_error():
    for run in (tf.nn.gelu, tf.function(tf.nn.gelu)):
        with pytest.raises(ValueError, match=r"`features.dtype` must be a floating point "
                                             r"tensor. Received: features.dtype=<dtype: 'int32'>"):
            run(tf.constant([1, 2]))


def test_leaky_relu_alpha_is_a_float32_attribute_as_in_tensorflow():
    v = tf.constant([-1.5, 2.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.nn.leaky_relu(v)
    assert y.numpy().tolist() == [-0.30000000447034836, 2.0]              # TF 2.21
    assert tape.gradient(y, v).numpy().tolist() == [0.20000000298023224, 1.0]


def test_reciprocal_of_integers_has_no_kernel_as_in_tensorflow():
    with pytest.raises(tf.errors.NotFoundError, match="Reciprocal"):      # TF 2.21 eagerly
        tf.math.reciprocal(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Reciprocal"):   # in a graph
        tf.function(tf.math.reciprocal)(tf.constant([1, 2]))


@pytest.mark.parametrize("fn, want_y, want_dy", [
    (tf.nn.selu,
     [0.0, -0.0, 1.0507010221481323, -1.1113307476043701, 0.5253505110740662,
      -1.613785743713379, 0.0, -1.7580993175506592],
     [1.0507010221481323, 1.0507010221481323, 1.0507010221481323, 0.6467685699462891,
      1.0507010221481323, 0.14431357383728027, 1.0507010221481323, 0.0]),
    (tf.nn.elu,
     [0.0, -0.0, 1.0, -0.6321205496788025, 0.5, -0.9179149866104126, 0.0, -1.0],
     [1.0, 1.0, 1.0, 0.3678794503211975, 1.0, 0.0820850133895874, 1.0, 0.0]),
], ids=["selu", "elu"])
def test_elu_and_selu_are_tensorflows_kernels_bit_for_bit(fn, want_y, want_dy):
    """exp(x) - 1, and the gradient's side chosen by the output's sign: -1e-30
    gives 0 and the positive side's gradient (TF 2.21's values)."""
    x = tf.constant(np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, -1e-30, -20.0], np.float32))

    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return y, tape.gradient(y, x)
    for y, dy in (run(x), tf.function(run)(x)):
        assert y.numpy().tolist() == want_y and dy.numpy().tolist() == want_dy
        assert np.signbit(y.numpy()[1])                 # -0.0 stays -0.0


# TF 2.21's recorded values: sigmoid cross-entropy with logits at logit exactly 0
# (a zero-initialized output layer's first step). Its gradient is sigmoid(0) - z.
_SCE_LOGITS = [[0., 0., 0.], [0., 1., -1.]]
_SCE_LABELS = [[0., 1., 0.5], [1., 0., 1.]]
_SCE_VALUE = [[0.6931471805599453] * 3, [0.6931471805599453, 1.3132616875182228,
                                         1.3132616875182228]]
_SCE_DLOGITS = [[0.5, -0.5, 0.0], [-0.5, 0.7310585786300048, -0.7310585786300048]]
_SCE_DLABELS = [[-0.0, -0.0, -0.0], [-0.0, -1.0, 1.0]]
_SCE_SECOND = [[0.25, 0.25, 0.25], [0.25, 0.19661193324148188, 0.19661193324148188]]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
def test_sigmoid_cross_entropy_gradient_at_logit_zero_is_tensorflows(dtype, traced):
    def run(x, z):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape(persistent=True) as tape:
                tape.watch([x, z])
                y = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x)
            dx, dz = tape.gradient(y, [x, z])
        return y, dx, dz, outer.gradient(dx, x)
    run = tf.function(run) if traced else run
    y, dx, dz, second = run(tf.constant(np.array(_SCE_LOGITS, dtype)),
                            tf.constant(np.array(_SCE_LABELS, dtype)))
    tol = 1e-6 if dtype == np.float32 else 1e-12
    for got, want in ((y, _SCE_VALUE), (dx, _SCE_DLOGITS), (dz, _SCE_DLABELS),
                      (second, _SCE_SECOND)):
        assert got.dtype == tf.as_dtype(dtype)
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def test_weighted_cross_entropy_at_logit_zero_keeps_tensorflows_abs_form():
    # TF 2.21 composes it from abs and relu, whose gradients are 0 at 0: d/dx = 1 - z.
    x, z = tf.constant(np.array(_SCE_LOGITS)), tf.constant(np.array(_SCE_LABELS))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.weighted_cross_entropy_with_logits(z, x, 2.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               [[1.0, 0.0, 0.5], [0.0, 0.7310585786300048, -1.4621171572600096]])


@pytest.mark.parametrize("dtype,want", [
    # TF 2.21's recorded sigmoid at -100, -88, -30, -17, -10, 10: relatively exact in the tail
    (np.float32, [0.0, 0.0, 9.357624267472553e-14, 4.139937104241653e-08,
                  4.539786095847376e-05, 0.9999545812606812]),
    (np.float64, [3.7200759760208356e-44, 6.054601895401186e-39, 9.3576229688393e-14,
                  4.13993754739433e-08, 4.539786870243439e-05, 0.9999546021312976]),
])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
def test_sigmoid_keeps_its_relative_precision_in_the_negative_tail(dtype, want, traced):
    def run(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.sigmoid(x)
            sp = tf.nn.softplus(x)
        return y, tape.gradient(sp, x)      # softplus' gradient is sigmoid(x)
    run = tf.function(run) if traced else run
    x = tf.constant(np.array([-100., -88., -30., -17., -10., 10.], dtype))
    y, dsoftplus = run(x)
    tiny = np.finfo(dtype).tiny              # TF flushes float32 subnormals to 0
    np.testing.assert_allclose(np.where(np.abs(y.numpy()) < tiny, 0, y.numpy()), want, rtol=2e-7)
    np.testing.assert_allclose(np.where(np.abs(dsoftplus.numpy()) < tiny, 0, dsoftplus.numpy()),
                               want, rtol=2e-7)
