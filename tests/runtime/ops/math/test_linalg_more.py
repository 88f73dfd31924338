"""tf.linalg's expm, sqrtm, logm, pinv, matrix_rank, the LU family, eig,
eigh_tridiagonal, tridiagonal and banded solves, cross, normalize, set_diag,
against TensorFlow 2.21's values and gradients.

The table is tools/record_linalg_more.py's `cases` (written once for both
libraries), TF's results recorded in tests/data/linalg_more.npz; each case
runs eagerly and inside tf.function. float64 agrees to 1e-10 relative,
float32 to 2e-6, except expm in float32: TF's float32 kernel (a lower-degree
Pade approximant) is 4e-6 from its own float64 value and its gradient 1e-5,
where ours, computed in float64, matches TF's float64 to 1e-12.
"""

import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import TOOLS

sys.path.insert(0, str(TOOLS))
import record_linalg_more as table  # noqa: E402  (the shared case table)

DATA = np.load(table.OUT)
LOOSE = {"expm/0": 1e-5, "expm/1": 1e-4}    # TF's float32 expm (see the docstring)


def _modes():
    return {"eager": lambda f: f, "function": lambda f: tf.function(f, autograph=False)}


@pytest.fixture(scope="module", params=["eager", "function"])
def results(request):
    return table.cases(tf, _modes()[request.param])


@pytest.mark.parametrize("name", sorted({k.split("/")[0] for k in DATA.files}))
def test_linalg_value_and_gradient_are_tfs(results, name):
    got = results[name]
    keys = sorted((k for k in DATA.files if k.split("/")[0] == name),
                  key=lambda k: int(k.split("/")[1]))
    assert keys
    for key in keys:
        want = DATA[key]
        value = got[int(key.split("/")[1])]
        if want.dtype.kind == "U":
            assert value is None, f"{key}: TF has no gradient here"
            continue
        assert value is not None and value.shape == want.shape, (key, value, want.shape)
        assert value.dtype == want.dtype, (key, value.dtype, want.dtype)
        rtol = LOOSE.get(key, 1e-10 if want.dtype in (np.float64, np.complex128) else 2e-6)
        np.testing.assert_allclose(value, want, rtol=rtol, atol=1e-12 if rtol < 1e-9 else 1e-6,
                                   equal_nan=True, err_msg=key)


def test_eigh_tridiagonal_gradient_is_the_derivative():
    # TF's gradient goes through its bisection loop ([0.75, 1.5, 0.75] here); the
    # eigenvalues sum to the trace, so d/dalpha is 1 and d/dbeta is 0
    alpha, beta = tf.constant([2.0, 3.0, 4.0], tf.float64), tf.constant([1.0, 1.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([alpha, beta])
        values = tf.linalg.eigh_tridiagonal(alpha, beta)
    grad_alpha, grad_beta = tape.gradient(values, [alpha, beta])
    np.testing.assert_allclose(grad_alpha.numpy(), [1, 1, 1], atol=1e-12)
    np.testing.assert_allclose(grad_beta.numpy(), [0, 0], atol=1e-12)
    values, vectors = tf.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=False)
    dense = np.diag([2.0, 3, 4]) + np.diag([1.0, 1], 1) + np.diag([1.0, 1], -1)
    np.testing.assert_allclose(dense @ vectors.numpy(), vectors.numpy() * values.numpy(),
                               atol=1e-12)


def test_eig_and_logm():
    a = np.array([[1.0, 2.0, 0.5], [3.0, -4.0, 1.0], [0.2, 1.0, 2.0]])
    values, vectors = tf.linalg.eig(tf.constant(a, tf.float32))
    assert values.dtype == tf.complex64 and vectors.shape == (3, 3)
    v = vectors.numpy()
    np.testing.assert_allclose(a @ v, v * values.numpy(), atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1, rtol=1e-6)
    # TF 2.21: logm of SYM as complex64
    sym = tf.constant([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], tf.complex64)
    np.testing.assert_allclose(tf.linalg.logm(sym).numpy(), [
        [0.58328414, 0.4477507, -0.06757748], [0.44775072, 0.9634572, 0.3125957],
        [-0.06757745, 0.3125957, 1.3436304]], atol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatrixLogarithm"):
        tf.linalg.logm(tf.constant([[1.0]]))


def test_lu_pivots_as_tf_and_has_no_gradient():
    lu, p = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(lu.numpy(), [[3, 4], [1 / 3, 2 / 3]], rtol=1e-6)
    assert p.numpy().tolist() == [1, 0] and p.dtype == tf.int32
    assert tf.linalg.lu(tf.eye(2), output_idx_type=tf.int64).p.dtype == tf.int64
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        lu = tf.linalg.lu(x).lu
    assert tape.gradient(lu, x) is None


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="last dimension of 3"):
        tf.linalg.cross(tf.ones([2]), tf.ones([2]))
    with pytest.raises(ValueError, match="diagonals_format"):
        tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([3, 1]), diagonals_format="x")
    with pytest.raises(ValueError, match="select"):
        tf.linalg.eigh_tridiagonal(tf.ones([3]), tf.ones([2]), select="q")
