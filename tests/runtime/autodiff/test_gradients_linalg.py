"""The gradient rules of decompositions, diagonals, least squares, grouped
convolutions, max-pooling's second order, TileGrad and py_function against
central finite differences in float64, on random well-conditioned inputs,
eagerly and inside tf.function (tests/runtime/gradient_check.py); and the ops
that have no gradient, as TensorFlow has none. (TensorArray gradients:
tests/runtime/autodiff/test_gradients_tensor_array.py.)"""

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.op_registry import apply
from tests.runtime.gradient_check import check_gradients, check_second_order

rng = np.random.default_rng(17)


def r(*shape):
    return rng.uniform(-1.0, 1.0, shape)


def spread(*shape):
    """Matrices with well-separated singular values (and, symmetrized,
    eigenvalues): a random orthogonal basis times a fixed spread diagonal."""
    m, n = shape[-2:]
    k = min(m, n)
    q1 = np.linalg.qr(rng.normal(size=shape[:-2] + (m, m)))[0][..., :k]
    q2 = np.linalg.qr(rng.normal(size=shape[:-2] + (n, n)))[0][..., :k]
    return (q1 * np.linspace(3.0, 1.0, k)) @ np.swapaxes(q2, -1, -2)


def symmetric(*shape):
    q = np.linalg.qr(rng.normal(size=shape))[0]
    e = np.linspace(-2.0, 3.0, shape[-1])
    return (q * e) @ np.swapaxes(q, -1, -2)


def lower_noise(x):
    """x plus noise above the diagonal (which eigh never reads)."""
    return x + np.triu(r(*x.shape), 1)


def eigh_vectors(x):
    # v * v and products of columns are invariant to each column's sign.
    e, v = tf.linalg.eigh(x)
    return tf.matmul(v * v, v * v, transpose_a=True) + e[..., None, :]


def eigh_rebuilt(x):
    e, v = tf.linalg.eigh(x)
    return tf.matmul(v * tf.exp(e)[..., None, :], v, transpose_b=True)


def svd_rebuilt(x):
    s, u, v = tf.linalg.svd(x)
    return tf.matmul(u * (s * s)[..., None, :], v, transpose_b=True)


def svd_vectors(x, full=False):
    s, u, v = tf.linalg.svd(x, full_matrices=full)
    return tf.reduce_sum(u * u * 0.7, -2)[..., :1] + tf.reduce_sum(v * v * v * v, -1)[..., :1] \
        + tf.reduce_sum(s)


def qr_both(x, full=False):
    q, rr = tf.linalg.qr(x, full_matrices=full)
    return tf.reduce_sum(q * tf.sin(q), -1)[..., :1] + tf.reduce_sum(rr, -2)[..., :1]


def solve_ls(a, b, l2=0.3):
    return apply("MatrixSolveLs", (a, b, tf.constant(l2, tf.float64)), {"fast": True})


def grouped_conv1d(x, f):
    return tf.nn.conv1d(x, f, 1, "SAME")


# name: (function, argument values)
CASES = {
    # eigendecomposition: functions of the eigenvalues and sign-free ones of the vectors
    "eigvalsh": (tf.linalg.eigvalsh, [lower_noise(symmetric(2, 4, 4))]),
    "eigh_values": (lambda x: tf.linalg.eigh(x)[0], [lower_noise(symmetric(4, 4))]),
    "eigh_vectors": (eigh_vectors, [lower_noise(symmetric(2, 3, 3))]),
    "eigh_rebuilt": (eigh_rebuilt, [lower_noise(symmetric(3, 3))]),
    # QR
    "qr_tall": (qr_both, [spread(5, 3)]),
    "qr_square_batched": (qr_both, [spread(2, 3, 3)]),
    "qr_wide": (qr_both, [spread(3, 5)]),
    "qr_wide_full": (lambda x: qr_both(x, True), [spread(2, 3, 4)]),
    "qr_square_full": (lambda x: qr_both(x, True), [spread(3, 3)]),
    # SVD
    "svd_values_only": (lambda x: tf.linalg.svd(x, compute_uv=False), [spread(2, 4, 3)]),
    "svd_values_only_full": (lambda x: tf.linalg.svd(x, True, False), [spread(3, 5)]),
    "svd_values": (lambda x: tf.linalg.svd(x)[0], [spread(3, 5)]),
    "svd_rebuilt_tall": (svd_rebuilt, [spread(4, 3)]),
    "svd_rebuilt_wide_batched": (svd_rebuilt, [spread(2, 2, 4)]),
    "svd_vectors_tall": (svd_vectors, [spread(5, 3)]),
    "svd_vectors_wide": (svd_vectors, [spread(2, 3, 5)]),
    "svd_vectors_square": (svd_vectors, [spread(3, 3)]),
    "svd_vectors_full_tall": (lambda x: svd_vectors(x, True), [spread(4, 3)]),
    "svd_vectors_full_wide": (lambda x: svd_vectors(x, True), [spread(2, 3, 4)]),
    "svd_vectors_full_square": (lambda x: svd_vectors(x, True), [spread(3, 3)]),
    # least squares: the MatrixSolveLs kernel (lstsq's when the size is unknown)
    "solve_ls_tall": (solve_ls, [spread(2, 4, 3), r(2, 4, 2)]),
    "solve_ls_wide": (solve_ls, [spread(3, 5), r(3, 2)]),
    "solve_ls_square_unregularized": (lambda a, b: solve_ls(a, b, 0.0), [spread(3, 3), r(3, 1)]),
    # diagonals: one k or a band, sizes, padding and alignments
    "diag_part": (tf.linalg.diag_part, [r(3, 4)]),
    "diag_part_k": (lambda x: tf.linalg.diag_part(x, k=1), [r(2, 3, 4)]),
    "diag_part_band_padded": (lambda x: tf.linalg.diag_part(x, k=(-1, 2), padding_value=9.0),
                              [r(2, 4, 3)]),
    "diag_part_band_left_right": (lambda x: tf.linalg.diag_part(x, k=(-2, 0),
                                                                align="LEFT_RIGHT"), [r(4, 3)]),
    "diag": (tf.linalg.diag, [r(2, 3)]),
    "diag_k_rows": (lambda x: tf.linalg.diag(x, k=-1, num_rows=4), [r(3)]),
    "diag_band_padded": (lambda x: tf.linalg.diag(x, k=(-1, 1), padding_value=2.0,
                                                  align="RIGHT_RIGHT"), [r(2, 3, 3)]),
    "diag_band_rows_cols": (lambda x: tf.linalg.diag(x, k=(0, 1), num_rows=3, num_cols=5),
                            [r(2, 3)]),
    "diag_band_left_left": (lambda x: tf.linalg.diag(x, k=(-2, 1), align="LEFT_LEFT"),
                            [r(4, 3)]),
    # grouped convolutions (input channels a multiple of the filter's)
    "conv2d_grouped_same": (lambda x, f: tf.nn.conv2d(x, f, 1, "SAME"),
                            [r(2, 4, 4, 4), r(3, 3, 2, 6)]),
    "conv2d_grouped_stride": (lambda x, f: tf.nn.conv2d(x, f, 2, "VALID"),
                              [r(1, 5, 5, 6), r(2, 2, 2, 3)]),
    "conv2d_grouped_dilated_nchw": (
        lambda x, f: tf.nn.conv2d(x, f, 1, "SAME", data_format="NCHW", dilations=2),
        [r(1, 4, 4, 4), r(2, 2, 1, 4)]),
    "conv1d_grouped": (grouped_conv1d, [r(2, 5, 4), r(3, 2, 4)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_matches_finite_differences(name):
    fn, values = CASES[name]
    check_gradients(fn, values)


def max_pool_grad_squared(dy):
    # MaxPoolGrad as a function of its dy: its gradient is MaxPoolGradGrad,
    # whose own gradient is MaxPoolGrad again.
    return apply("MaxPoolGrad", (dy, POOL_X, POOL_Y), POOL_ATTRS) ** 2


POOL_X = tf.constant(r(1, 4, 4, 2))
POOL_ATTRS = {"ksize": (2, 2), "strides": (1, 1), "padding": "SAME",
              "explicit_paddings": ((0, 0), (0, 0))}
POOL_Y = tf.nn.max_pool2d(POOL_X, 2, 1, "SAME")


# Gradients of gradients (nested tapes), eagerly and in tf.function.
SECOND_ORDER = {
    "tile": (lambda x: tf.tile(x, [2, 3]) ** 2, [r(2, 2)]),
    "tile_batched": (lambda x: tf.sin(tf.tile(x, [1, 2, 1])), [r(2, 2, 3)]),
    "max_pool_squared": (lambda x: tf.nn.max_pool2d(x, 2, 1, "SAME") ** 2, [r(1, 3, 3, 2)]),
    "max_pool_strided": (lambda x: tf.nn.max_pool2d(tf.sin(x), 2, 2, "VALID") ** 3,
                         [r(2, 4, 4, 1)]),
    "max_pool_grad": (max_pool_grad_squared, [r(1, 4, 4, 2)]),
    "diag_part_band": (lambda x: tf.linalg.diag_part(x, k=(-1, 1)) ** 2, [r(2, 3, 4)]),
    "diag_band": (lambda x: tf.linalg.diag(x, k=(0, 1), num_cols=4) ** 2, [r(2, 3)]),
    "conv2d_grouped": (lambda x, f: tf.nn.conv2d(x, f, 1, "SAME") ** 2,
                       [r(1, 3, 3, 4), r(2, 2, 2, 4)]),
    "eigvalsh": (lambda x: tf.linalg.eigvalsh(x) ** 2, [symmetric(3, 3)]),
    "svd_values": (lambda x: tf.linalg.svd(x, compute_uv=False) ** 2, [spread(3, 2)]),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_matches_finite_differences(name):
    fn, values = SECOND_ORDER[name]
    check_second_order(fn, values, rtol=1e-4)


def test_diag_part_of_a_matrix_of_unknown_size():
    # The gradient sets the band into zeros of x's run-time shape (MatrixSetDiagV3).
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def grads(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.linalg.diag_part(x, k=(-1, 1)) ** 2)
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        return g, outer.gradient(s, x)

    x = r(3, 4)
    band = np.abs(np.arange(3)[:, None] - np.arange(4)[None, :]) <= 1
    g, gg = grads(tf.constant(x))
    np.testing.assert_allclose(g.numpy(), np.where(band, 2 * x, 0))
    np.testing.assert_allclose(gg.numpy(), np.where(band, 8 * x, 0))


@pytest.mark.parametrize("a, b", [(spread(5, 3), r(5, 2)), (spread(2, 3, 4), r(2, 3, 1))])
def test_lstsq_gradient_for_a_matrix_of_unknown_size(a, b):
    # Traced with unknown dims: lstsq is the MatrixSolveLs kernel, and its rule
    # picks the tall or the wide form at run time.
    spec = tf.TensorSpec([None] * a.ndim, tf.float64)

    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = tf.reduce_sum(tf.sin(tf.linalg.lstsq(a, b, l2_regularizer=0.1)))
        return tape.gradient(y, [a, b])

    staged = tf.function(grads, input_signature=[spec, spec])
    assert "MatrixSolveLs" in [n.op for n in staged.get_concrete_function().graph.nodes]
    for found, expected in zip(staged(a, b), grads(tf.constant(a), tf.constant(b))):
        np.testing.assert_allclose(found.numpy(), expected.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("known", [True, False])
def test_lstsq_regularizer_keeps_float64_precision(known):
    # 0.3 is converted to float64 directly, as TF does (not via float32's 0.30000001).
    a, b = spread(2, 5, 3), r(2, 5, 2)
    exact = np.linalg.solve(np.swapaxes(a, -1, -2) @ a + 0.3 * np.eye(3),
                            np.swapaxes(a, -1, -2) @ b)
    spec = tf.TensorSpec([2, 5, 3] if known else [None] * 3, tf.float64)
    solve = tf.function(lambda m, y: tf.linalg.lstsq(m, y, l2_regularizer=0.3),
                        input_signature=[spec, tf.TensorSpec([None] * 3, tf.float64)])
    np.testing.assert_allclose(solve(a, b).numpy(), exact, rtol=1e-12, atol=1e-14)


# --- what TensorFlow refuses ----------------------------------------------------------

def _gradient(fn, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(fn(x))
    return tape.gradient(y, x)


@pytest.mark.parametrize("fn, x, message", [
    (lambda x: tf.linalg.qr(x, full_matrices=True)[1], r(5, 3),
     "QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
     "r.shape=(5, 3) with nrows=5and ncols=3."),
    (lambda x: tf.linalg.svd(x, full_matrices=True)[1], r(5, 3),
     "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
     "Received: m=3 and n=5"),
    (lambda x: tf.linalg.svd(x, full_matrices=True)[0], r(2, 4),
     "svd gradient is not implemented for abs(m - n) > 1"),
])
def test_unsupported_decomposition_gradients(fn, x, message):
    with pytest.raises(NotImplementedError) as info:
        _gradient(fn, x)
    assert message in str(info.value)
    with pytest.raises(NotImplementedError, match="not implemented"):
        tf.function(lambda v: _gradient(fn, v))(x)


@pytest.mark.parametrize("decompose", [lambda x: tf.linalg.qr(x)[1],
                                       lambda x: tf.linalg.svd(x)[1]])
def test_decomposition_gradients_need_static_sizes(decompose):
    # As TF's rules: a matrix whose size is unknown while tracing is refused.
    staged = tf.function(lambda v: _gradient(decompose, v),
                         input_signature=[tf.TensorSpec([None, None], tf.float64)])
    with pytest.raises(NotImplementedError, match="Grad not implemented with dynamic shapes"):
        staged(spread(3, 2))


def test_least_squares_without_fast_has_no_gradient():
    with pytest.raises(ValueError, match="Gradient not defined for fast=False"):
        _gradient(lambda a: tf.linalg.lstsq(a, tf.ones([4, 1], tf.float64), fast=False),
                  spread(4, 3))


def unique_sum(x):
    return tf.unique(x)[0] * 2.0          # the line the error names


@pytest.mark.parametrize("staged", [False, True])
def test_unique_has_no_gradient(staged):
    x = np.array([1.0, 2.0, 1.0])
    run = tf.function(lambda v: _gradient(unique_sum, v)) if staged else \
        (lambda v: _gradient(unique_sum, v))
    with pytest.raises(LookupError) as info:
        run(x)
    text = str(info.value)
    assert "No gradient defined for operation" in text and "Unique" in text
    line = unique_sum.__code__.co_firstlineno + 1
    assert f"test_gradients_linalg.py:{line})" in text


def _sin_times(a, b):
    return tf.sin(a) * b, a * 2.0


def py_function_pair(a, b):
    y, z = tf.py_function(_sin_times, [a, b], [tf.float64, tf.float64])
    return y + z * z


def py_function_int_input(a, n):
    return tf.py_function(lambda v, k: v * tf.cast(k, tf.float64), [a, n], tf.float64)


def test_py_function_is_differentiated_under_a_tape():
    # As TF: the function runs again under a tape for the gradient (an
    # integer input is passed along, not differentiated).
    values = [r(2), r(2)]
    check_gradients(py_function_pair, values)
    check_second_order(py_function_pair, values)
    check_gradients(py_function_int_input, [r(3), np.array(3)])


def test_numpy_function_and_assignments_pass_no_gradient():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([0.0, 0.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.numpy_function(lambda a: a * a, [x], tf.float32)
        z = v.assign(x * 2.0)
    assert tape.gradient(y, x) is None
    assert tape.gradient(z, x) is None


def test_asserts_and_prints_leave_gradients_alone(capsys):
    def fn(x):
        tf.debugging.assert_positive(x)
        tf.debugging.assert_rank(x, 1)
        tf.print("x:", x)
        return x * x
    check_gradients(fn, [np.array([0.5, 2.0])])
    assert "x: [0.5 2]" in capsys.readouterr().err
