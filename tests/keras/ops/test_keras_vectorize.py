"""keras.ops.vectorize against NumPy's np.vectorize (Keras 3.15 on TF raises for
every call; its documented example and JAX's behaviour are the reference):
broadcast loop dimensions, gufunc signatures, excluded arguments, tf.function."""

import numpy as np
import pytest

import runtime as tf
from runtime.keras import ops

A = np.arange(6, dtype="float32").reshape(2, 3) - 2.0
M = np.arange(24, dtype="float32").reshape(2, 3, 2, 2) / 7.0
V = np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 2.0]], "float32")


def _checked(out, want):
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6)
    assert np.asarray(out).shape == np.shape(want)


@pytest.mark.parametrize("traced", [False, True])
def test_elementwise_and_signature(traced):
    wrap = tf.function if traced else (lambda f: f)
    vadd = ops.vectorize(lambda a, b: a + b)
    assert np.asarray(vadd([1, 2, 3, 4], 2)).tolist() == [3, 4, 5, 6]  # Keras's docstring
    clip = ops.vectorize(lambda a, b: ops.where(a > b, a - b, ops.square(a)))
    want = np.vectorize(lambda a, b: a - b if a > b else a * a)(A, np.float32(0.5))
    _checked(wrap(lambda: clip(A, 0.5))(), want)
    matvec = ops.vectorize(ops.matmul, signature="(m,n),(n)->(m)")
    want = np.vectorize(np.matmul, signature="(m,n),(n)->(m)")(M, V)
    _checked(wrap(lambda: matvec(M, V))(), want)
    stats = ops.vectorize(lambda x: (ops.mean(x), ops.max(x)), signature="(n)->(),()")
    mean, top = wrap(lambda: stats(M))()
    _checked(mean, M.mean(-1))
    _checked(top, M.max(-1))


def test_excluded_and_errors():
    power = ops.vectorize(lambda p, a: a ** p, excluded={0})
    _checked(power(2.0, A), A ** 2)
    with pytest.raises(ValueError, match="callable"):
        ops.vectorize(3)
    with pytest.raises(ValueError, match="gufunc signature"):
        ops.vectorize(ops.sum, signature="(n)->")
    with pytest.raises(ValueError, match="core dimension 'n'"):
        ops.vectorize(ops.matmul, signature="(m,n),(n)->(m)")(M, np.ones(3, "float32"))
    with pytest.raises(TypeError, match="positional arguments"):
        ops.vectorize(ops.matmul, signature="(m,n),(n)->(m)")(M)
