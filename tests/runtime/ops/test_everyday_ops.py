"""The everyday ops: special functions, segment
reductions, counting, more convolutions, images, random draws, files and
serialization; each against a numpy reference (or values recorded from
TensorFlow 2.21), eagerly and inside `tf.function`, with gradients."""

import math

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients
from tests.runtime.op_records import Rec, check_eager, check_in_function

R = np.random.RandomState(7)
F = R.randn(3, 4).astype(np.float32)
D = R.randn(4, 3).astype(np.float32)      # 4 rows, for the segment ops
P = (np.abs(R.randn(6)) + 0.3).astype(np.float32)
IDS = np.array([0, 0, 1, 3], np.int32)
lgamma_ref = np.vectorize(math.lgamma)


def _segment_sum(data, ids, n):
    out = np.zeros((n,) + data.shape[1:])
    np.add.at(out, ids[ids >= 0], data[ids >= 0])
    return out


def _segment_max(data, ids, n, empty):
    out = np.full((n,) + data.shape[1:], empty, np.float64)
    np.maximum.at(out, ids[ids >= 0], data[ids >= 0])
    return out


def _segment_mean(data, ids, n):
    counts = np.bincount(ids[ids >= 0], minlength=n).reshape(-1, 1)
    return _segment_sum(data, ids, n) / np.maximum(counts, 1)


def _lrn(x, r, bias, alpha, beta):
    sq = np.pad(x.astype(np.float64) ** 2, [(0, 0)] * 3 + [(r, r)])
    window = sum(sq[..., i:i + x.shape[-1]] for i in range(2 * r + 1))
    return x / (bias + alpha * window) ** beta


LOW = float(np.finfo(np.float32).min)
X4 = R.randn(2, 5, 5, 3).astype(np.float32)
IMG = R.randint(0, 255, (3, 5, 2)).astype(np.uint8)
NEG1 = np.array([0, -1, 2, 2], np.int32)

RECORDS = [
    Rec("lgamma", tf.math.lgamma, [P], {}, lgamma_ref(P.astype(np.float64)), np.float32),
    Rec("lgamma_negative", tf.math.lgamma, [np.array([-0.5, -2.5, 0.0], np.float32)], {},
        [1.2655121, -0.05624372, np.inf], np.float32),
    # digamma: TF 2.21 gives -1.9635108, 0.9227842, 0.03648996, -1e8 (float32)
    Rec("digamma", tf.math.digamma, [np.array([0.5, 3.0, -0.5, 1e-8], np.float32)], {},
        [-1.9635100260214235, 0.9227843350984671, 0.03648997397857652, -1e8], np.float32),
    Rec("xlogy", tf.math.xlogy, [np.array([0., 0., 2., 1.], np.float32),
                                 np.array([0., np.nan, 3., 0.], np.float32)], {},
        [0, 0, 2 * np.log(3), -np.inf], np.float32),
    Rec("divide_no_nan", tf.math.divide_no_nan, [np.array([1., 0., np.nan, 1.], np.float32),
                                                 np.array([0., 0., 0., 4.], np.float32)], {},
        [0, 0, 0, 0.25], np.float32),
    Rec("divide_no_nan_int", tf.math.divide_no_nan, [np.array([1, 3], np.int32),
                                                     np.array([0, 2], np.int32)], {},
        [0, 1.5], np.float64),
    Rec("cumulative_logsumexp", tf.math.cumulative_logsumexp, [F], {"axis": 1},
        np.log(np.cumsum(np.exp(F.astype(np.float64)), 1)), np.float32),
    Rec("cumulative_logsumexp_exclusive_reverse", tf.math.cumulative_logsumexp,
        [np.array([1., 2., 3.], np.float32)], {"exclusive": True, "reverse": True},
        [np.log(np.exp(2) + np.exp(3)), 3.0, -np.inf], np.float32),
    Rec("segment_sum", tf.math.segment_sum, [D, IDS], {}, _segment_sum(D, IDS, 4), np.float32),
    Rec("segment_max", tf.math.segment_max, [D, IDS], {},
        np.where(np.arange(4)[:, None] == 2, 0, _segment_max(D, IDS, 4, LOW)), np.float32),
    Rec("segment_mean", tf.math.segment_mean, [D, IDS], {}, _segment_mean(D, IDS, 4),
        np.float32),
    Rec("segment_mean_int", tf.math.segment_mean, [np.array([1, 2, 3], np.int32),
                                                  np.array([0, 0, 2], np.int32)], {},
        [1, 0, 3], np.int32),
    # TF 2.21: [1.5, 0, 4, 0], float64 (segment_mean truncates, unsorted_segment_mean divides)
    Rec("unsorted_segment_mean_int", lambda d, i: tf.math.unsorted_segment_mean(d, i, 4),
        [np.array([1, 2, 4], np.int32), np.array([0, 0, 2], np.int32)], {}, [1.5, 0, 4, 0],
        np.float64),
    Rec("unsorted_segment_sum", lambda d, i: tf.math.unsorted_segment_sum(d, i, 5),
        [D, NEG1], {}, _segment_sum(D, NEG1, 5), np.float32),
    Rec("unsorted_segment_max", lambda d, i: tf.math.unsorted_segment_max(d, i, 4),
        [D, NEG1], {}, _segment_max(D, NEG1, 4, LOW), np.float32),
    Rec("unsorted_segment_mean", lambda d, i: tf.math.unsorted_segment_mean(d, i, 4),
        [D, NEG1], {}, _segment_mean(D, NEG1, 4), np.float32),
    Rec("bincount_weighted", lambda a, w: tf.math.bincount(a, weights=w, minlength=6),
        [np.array([1, 1, 3], np.int32), np.array([0.5, 1., 2.], np.float32)], {},
        [0, 1.5, 0, 2, 0, 0], np.float32),
    Rec("confusion_matrix", lambda a, b: tf.math.confusion_matrix(a, b, num_classes=5),
        [np.array([1, 2, 4, 2], np.int32), np.array([2, 2, 4, 0], np.int32)], {},
        np.array([[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [1, 0, 1, 0, 0], [0] * 5,
                  [0, 0, 0, 0, 1]]), np.int32),
    Rec("polyval", lambda x: tf.math.polyval([1., 2., 3.], x), [F], {},
        F.astype(np.float64) ** 2 + 2 * F + 3, np.float32),
    Rec("depthwise_conv2d", lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID"),
        [X4, R.randn(3, 3, 3, 2).astype(np.float32)], {}, None, np.float32),
    Rec("lrn", lambda x: tf.nn.local_response_normalization(x, 2, 1.0, 0.5, 0.75), [X4], {},
        _lrn(X4, 2, 1.0, 0.5, 0.75), np.float32),
    Rec("compute_average_loss", lambda x, w: tf.nn.compute_average_loss(x, w, 8),
        [P, P], {}, (P.astype(np.float64) ** 2).sum() / 8, np.float32),
    Rec("scale_regularization_loss", tf.nn.scale_regularization_loss, [P], {}, P.sum(),
        np.float32),
    Rec("image_flip_left_right", tf.image.flip_left_right, [IMG], {}, IMG[:, ::-1], np.uint8),
    Rec("image_flip_up_down", tf.image.flip_up_down, [X4], {}, X4[:, ::-1], np.float32),
    Rec("image_rot90", lambda x: tf.image.rot90(x, 1), [IMG], {}, np.rot90(IMG, 1), np.uint8),
    Rec("image_rot90_k3", lambda x: tf.image.rot90(x, 3), [X4], {},
        np.rot90(X4, 3, axes=(1, 2)), np.float32),
    Rec("per_image_standardization", tf.image.per_image_standardization, [IMG], {},
        (IMG - IMG.mean()) / max(IMG.std(), 1 / np.sqrt(IMG.size)), np.float32),
    Rec("ensure_shape", lambda x: tf.ensure_shape(x, [None, 4]), [F], {}, F, np.float32),
]


def _depthwise_ref(x, f):
    out = np.zeros((2, 3, 3, 6))
    for c in range(3):
        for m in range(2):
            for i in range(3):
                for j in range(3):
                    out[:, i, j, c * 2 + m] = (x[:, i:i + 3, j:j + 3, c] * f[:, :, c, m]).sum((1, 2))
    return out


RECORDS[[r.name for r in RECORDS].index("depthwise_conv2d")].ref = _depthwise_ref(
    *RECORDS[[r.name for r in RECORDS].index("depthwise_conv2d")].args)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_op_eagerly(rec):
    check_eager(rec)


# Output length known only when the graph runs (TF's static shape has None there too).
DATA_DEPENDENT = {"segment_sum", "segment_max", "segment_mean", "segment_mean_int",
                  "bincount_weighted"}


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_op_in_function(rec):
    if rec.name not in DATA_DEPENDENT:
        check_in_function(rec)
        return
    seen = []

    def body(*args):
        out = rec.fn(*args, **rec.kw)
        seen.append(out.shape)
        return out
    got = tf.function(body)(*[tf.constant(a) for a in rec.args])
    assert seen[0].dims[0] is None and seen[0].rank == np.ndim(rec.ref)
    np.testing.assert_allclose(got.numpy(), rec.ref, rtol=rec.rtol)


# --- values recorded from TensorFlow 2.21 -------------------------------------------------

def test_resize_matches_tensorflow():
    x = np.arange(20, dtype=np.float32).reshape(1, 4, 5, 1)
    # TF 2.21: tf.image.resize(x, [2, 3])[0, ..., 0] and method="nearest" for [3, 7]
    bilinear = [[2.8333332538604736, 4.5, 6.166666030883789],
                [12.833333015441895, 14.5, 16.16666603088379]]
    nearest = [[0, 1, 1, 2, 3, 3, 4], [10, 11, 11, 12, 13, 13, 14], [15, 16, 16, 17, 18, 18, 19]]
    for run in (lambda f, *a: f(*a), lambda f, *a: tf.function(f)(*a)):
        got = run(lambda t: tf.image.resize(t, [2, 3]), tf.constant(x))
        assert got.dtype == tf.float32 and got.shape == (1, 2, 3, 1)
        np.testing.assert_allclose(got.numpy()[0, ..., 0], bilinear, rtol=1e-6)
        got = run(lambda t: tf.image.resize(t, [3, 7], method="nearest"),
                  tf.constant(x.astype(np.int32)))
        assert got.dtype == tf.int32
        np.testing.assert_array_equal(got.numpy()[0, ..., 0], nearest)


def test_conv_transpose_is_the_gradient_of_conv():
    x = R.randn(2, 6, 6, 3).astype(np.float32)
    f = R.randn(3, 3, 4, 3).astype(np.float32)
    w = R.randn(2, 12, 12, 4).astype(np.float32)
    y = tf.nn.conv2d_transpose(x, f, [2, 12, 12, 4], 2, "SAME")
    assert y.shape == (2, 12, 12, 4)
    # <conv2d_transpose(x), w> == <x, conv2d(w)>: the transpose's defining identity
    lhs = float(tf.reduce_sum(y * w))
    rhs = float(tf.reduce_sum(tf.constant(x) * tf.nn.conv2d(w, f, 2, "SAME")))
    assert abs(lhs - rhs) < 1e-3 * abs(lhs)
    y1 = tf.function(lambda a, b: tf.nn.conv1d_transpose(a, b, [2, 12, 4], 2))(
        tf.constant(x[:, 0]), tf.constant(f[0]))
    assert y1.shape == (2, 12, 4)
    np.testing.assert_allclose(y1.numpy(), tf.nn.conv2d_transpose(
        x[:, :1], f[:1], [2, 1, 12, 4], [1, 2], "SAME").numpy()[:, 0], rtol=1e-5, atol=1e-5)


def test_separable_conv2d_is_depthwise_then_pointwise():
    f = R.randn(3, 3, 3, 2).astype(np.float32)
    pw = R.randn(1, 1, 6, 4).astype(np.float32)
    got = tf.nn.separable_conv2d(X4, f, pw, [1, 1, 1, 1], "SAME")
    want = np.einsum("nhwc,co->nhwo", tf.nn.depthwise_conv2d(X4, f, [1, 1, 1, 1], "SAME")
                     .numpy(), pw[0, 0])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


# --- gradients ---------------------------------------------------------------------------

@pytest.mark.parametrize("fn, args", [
    (tf.math.lgamma, [P.astype(np.float64)]),
    (tf.math.digamma, [np.array([0.7, 2.5, -0.3, 9.0])]),
    (tf.math.xlogy, [np.array([0.5, 2.0]), np.array([1.5, 3.0])]),
    (tf.math.divide_no_nan, [np.array([0.5, 2.0]), np.array([1.5, 3.0])]),
    (lambda x: tf.math.cumulative_logsumexp(x, axis=1), [F.astype(np.float64)]),
    (lambda d: tf.math.segment_sum(d, IDS), [D.astype(np.float64)]),
    (lambda d: tf.math.unsorted_segment_max(d, np.array([0, -1, 1, 1], np.int32), 2),
     [D.astype(np.float64)]),
    (lambda d: tf.math.unsorted_segment_mean(d, NEG1, 4), [D.astype(np.float64)]),
    (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"),
     [R.randn(1, 3, 3, 2), R.randn(2, 2, 2, 2)]),
    (lambda x, f: tf.nn.conv2d_transpose(x, f, [1, 4, 4, 2], 2),
     [R.randn(1, 2, 2, 3), R.randn(2, 2, 2, 3)]),
    (lambda x: tf.nn.local_response_normalization(x, 1), [R.randn(1, 2, 2, 4)]),
    (tf.image.per_image_standardization, [R.randn(2, 3, 2)]),
], ids=["lgamma", "digamma", "xlogy", "divide_no_nan", "cumulative_logsumexp", "segment_sum",
        "unsorted_segment_max", "unsorted_segment_mean", "depthwise_conv2d", "conv2d_transpose",
        "lrn", "per_image_standardization"])
def test_gradients(fn, args):
    check_gradients(fn, args)


def test_resize_gradient_is_the_transposed_resize():
    x = tf.constant(R.randn(1, 2, 3, 1).astype(np.float32))
    w = tf.constant(R.randn(1, 3, 5, 1).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.resize(x, [3, 5]) * w)
    got = tape.gradient(y, x).numpy().ravel()
    basis = np.eye(6, dtype=np.float32).reshape(6, 1, 2, 3, 1)
    want = [float(tf.reduce_sum(tf.image.resize(b, [3, 5]) * w)) for b in basis]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _bytes(t):
    value = t.numpy()              # a string scalar's numpy() is bytes, as in TF
    assert type(value) is bytes
    return value


# --- errors, as TensorFlow's ------------------------------------------------------------

def test_errors_name_the_problem():
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        tf.math.segment_sum(tf.constant([1., 2.]), tf.constant([1, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"out of range \[0, 2\)"):
        tf.math.unsorted_segment_sum(tf.constant([1., 2.]), tf.constant([0, 2]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape of tensor input \[3\] is not compatible with expected "
                             r"shape \[2\]"):
        tf.ensure_shape(tf.constant([1, 2, 3]), [2])

    @tf.function(input_signature=[tf.TensorSpec([None, None])])
    def f(x):
        y = tf.ensure_shape(x, [None, 3])
        assert y.shape.as_list() == [None, 3]
        return y
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[2,4\].*\[\?,3\]"):
        f(tf.zeros([2, 4]))
    with pytest.raises(ValueError, match="not compatible"):
        tf.function(lambda x: tf.ensure_shape(x, [3]))(tf.zeros([2]))


def test_tensorflow_error_classes():
    e = tf.errors.OutOfRangeError(None, None, "End of sequence")
    assert str(e) == "End of sequence" and e.error_code == tf.errors.OUT_OF_RANGE == 11
    assert isinstance(e, tf.errors.OpError) and e.op is None
    assert tf.errors.InvalidArgumentError("bad", "Op").op_name == "Op"
    codes = {c.__name__: c.error_code for c in (
        tf.errors.CancelledError, tf.errors.UnknownError, tf.errors.NotFoundError,
        tf.errors.ResourceExhaustedError, tf.errors.FailedPreconditionError,
        tf.errors.UnimplementedError, tf.errors.InternalError, tf.errors.DataLossError)}
    assert codes == {"CancelledError": 1, "UnknownError": 2, "NotFoundError": 5,
                     "ResourceExhaustedError": 8, "FailedPreconditionError": 9,
                     "UnimplementedError": 12, "InternalError": 13, "DataLossError": 15}


# --- random draws ------------------------------------------------------------------------

def test_poisson_and_gamma_draw_their_distributions():
    tf.random.set_seed(3)
    p = tf.random.poisson([4000], [1.0, 6.0])
    assert p.shape == (4000, 2) and p.dtype == tf.float32
    np.testing.assert_allclose(p.numpy().mean(0), [1.0, 6.0], rtol=0.06)
    g = tf.random.gamma([4000], [2.0, 5.0], beta=2.0, dtype=tf.float64)
    assert g.shape == (4000, 2) and g.dtype == tf.float64
    np.testing.assert_allclose(g.numpy().mean(0), [1.0, 2.5], rtol=0.06)
    draw = tf.function(lambda: tf.random.poisson([50], 4.0, dtype=tf.int32, seed=5))
    a, b = draw(), draw()                          # a new draw on every run of the graph
    assert a.dtype == tf.int32 and not np.array_equal(a.numpy(), b.numpy())
    beta = tf.constant([0.5, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(beta)
        s = tf.random.gamma([3], 2.0, beta=beta)
    np.testing.assert_allclose(tape.gradient(s, beta).numpy(),
                               (-s / beta).numpy().sum(0), rtol=1e-5)


# --- files and serialization -------------------------------------------------------------

# TF 2.21: tf.io.serialize_tensor(...).numpy()
SERIALIZED = [
    (np.array([1, 2, 3], np.int32),
     b'\x08\x03\x12\x04\x12\x02\x08\x03"\x0c\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00'),
    (np.array([[1.5, 2.]], np.float32),
     b'\x08\x01\x12\x08\x12\x02\x08\x01\x12\x02\x08\x02"\x08\x00\x00\xc0?\x00\x00\x00@'),
    (np.array([b"ab", b"c"], object), b'\x08\x07\x12\x04\x12\x02\x08\x02B\x02abB\x01c'),
    (np.array(True), b'\x08\n\x12\x00"\x01\x01'),
    (np.zeros((0, 2), np.int64), b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x02'),
]


@pytest.mark.parametrize("value, data", SERIALIZED, ids=["int32", "float32", "string", "bool",
                                                         "empty_int64"])
def test_serialize_tensor_writes_tensorflows_bytes(value, data):
    t = tf.constant(value)
    assert _bytes(tf.io.serialize_tensor(t)) == data
    back = tf.function(lambda s: tf.io.parse_tensor(s, t.dtype))(tf.constant(data))
    assert back.dtype == t.dtype and back.shape == t.shape
    np.testing.assert_array_equal(back.numpy(), value)


def test_parse_tensor_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Type mismatch .*\(int32\)"):
        tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1, 2])), tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse"):
        tf.io.parse_tensor(b"\xff\xff", tf.float32)


def test_read_and_write_file_eagerly_and_in_a_graph(tmp_path):
    path = str(tmp_path / "sub" / "a.txt")

    @tf.function
    def roundtrip(x):
        tf.io.write_file(path, tf.strings.format("{}", x))
        return tf.io.read_file(path)
    assert _bytes(roundtrip(tf.constant([1, 2]))) == b"[1 2]"
    assert _bytes(roundtrip(tf.constant([3]))) == b"[3]"        # written on each run
    tf.io.write_file(path, "eager")
    assert _bytes(tf.io.read_file(path)) == b"eager"
    with pytest.raises(tf.errors.NotFoundError, match="No such file"):
        tf.io.read_file(str(tmp_path / "missing"))


def test_numpy_of_a_scalar_is_a_numpy_scalar_as_in_tensorflow():
    """TF 2.21: np.float32(1.0), b'a', np.int32(2); arrays stay arrays (copies)."""
    assert type(tf.constant(1.0).numpy()) is np.float32
    assert tf.constant("a").numpy() == b"a" and type(tf.constant("a").numpy()) is bytes
    assert type(tf.Variable(2).numpy()) is np.int32
    assert type(tf.norm(tf.constant([3.0, 4.0])).numpy()) is np.float32
    t = tf.constant([1, 2])
    a = t.numpy()
    a[0] = 9
    assert type(a) is np.ndarray and t.numpy().tolist() == [1, 2]


def test_lbeta_is_tensorflows_over_the_last_axis():
    """TF 2.21's values (float32 unless noted), eagerly and in tf.function."""
    cases = [([1., 2.], -0.6931471824645996),
             ([[0.5, 3., 2.], [4., 1.5, 7.]], [-2.6923017501831055, -10.484119415283203]),
             (np.zeros((2, 0), np.float32), [-np.inf, -np.inf]),
             ([3.0], 0.0)]
    for value, want in cases:
        x = tf.constant(np.asarray(value, np.float32))
        for run in (tf.math.lbeta, tf.function(tf.math.lbeta)):
            np.testing.assert_allclose(run(x).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(tf.math.lbeta(tf.constant([1., 2.], tf.float64)).numpy(),
                               -0.6931471805599453, rtol=1e-14)
    x = tf.constant([[0.5, 3., 2.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.lbeta(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               [[-3.574604034423828, -0.6883090734481812, -1.1883090734481812]],
                               rtol=1e-6)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
def test_digamma_and_its_gradients_to_three_orders_are_tensorflows(traced):
    # TF 2.21's recorded digamma, polygamma(1), (2) and (3) at -0.5, 1, 0.5, 30 and a pole
    x = tf.constant([-0.5, 1.0, 0.5, 30.0, 0.0], tf.float64)

    def orders(x):
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.math.digamma(x)
                g1 = t1.gradient(y, x)
            g2 = t2.gradient(g1, x)
        return y, g1, g2, t3.gradient(g2, x)
    got = (tf.function(orders) if traced else orders)(x)
    want = [[0.036489973978576451, -0.57721566490153231, -1.9635100260214227,
             3.3844381326855251, np.nan],
            [8.934802200544679, 1.6449340668482266, 4.93480220054468, 0.03389506035773995,
             np.inf],
            [-0.82879664423431998, -2.4041138063191880, -16.828796644234316,
             -1.1487652037285997e-03, np.nan],
            [193.40909103400242, 6.4939394022668289, 97.409091034002415,
             7.7860036647361269e-05, np.inf]]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-13)
