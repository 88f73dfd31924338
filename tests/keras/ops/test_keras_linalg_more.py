"""keras.ops.lu_factor and keras.ops.eig against Keras 3.15's (TF 2.21) recorded
values (tools/record_keras_linalg_more.py prints them), eagerly and in tf.function."""

import numpy as np
import pytest

import runtime as tf
from runtime.keras import ops

# matrix, Keras's packed LU and pivots (TF 2.21)
LU_CASES = [
    ([[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [0.333333, 0.666667]], [1, 0]),
    ([[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]],
     [[7.0, 8.0, 10.0], [0.0, 1.0, 2.0], [0.571429, 0.428571, -0.571428]], [1, 2, 0]),
    ([[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [0, 1]),
]


@pytest.mark.parametrize("matrix,lu,pivots", LU_CASES)
@pytest.mark.parametrize("traced", [False, True])
def test_lu_factor(matrix, lu, pivots, traced):
    fn = tf.function(ops.lu_factor) if traced else ops.lu_factor
    out_lu, out_piv = fn(np.array(matrix, "float32"))
    assert out_lu.dtype == tf.float32 and out_piv.dtype == tf.int32
    np.testing.assert_allclose(out_lu.numpy(), lu, atol=2e-6)
    assert out_piv.numpy().tolist() == pivots


def test_lu_factor_batched_and_errors():
    a = np.array([m for m, _, _ in LU_CASES if len(m) == 2], "float32")
    lu, piv = ops.lu_factor(a)
    assert piv.numpy().tolist() == [[1, 0], [0, 1]]
    np.testing.assert_allclose(lu.numpy()[0], LU_CASES[0][1], atol=2e-6)
    with pytest.raises(ValueError, match="square"):
        ops.lu_factor(np.zeros((2, 3), "float32"))
    with pytest.raises(ValueError, match="rank >= 2"):
        ops.eig(np.zeros((3,), "float32"))


@pytest.mark.parametrize("matrix,values", [([[2.0, 1.0], [1.0, 2.0]], [1.0, 3.0]),
                                           ([[0.0, -1.0], [1.0, 0.0]], [-1j, 1j])])
def test_eig(matrix, values):
    a = np.array(matrix, "float32")
    w, v = ops.eig(a)
    assert w.dtype == tf.complex64 and v.dtype == tf.complex64 and tuple(v.shape) == (2, 2)
    w, v = w.numpy(), v.numpy()
    order = np.argsort(w.real + 1e-3 * w.imag)
    np.testing.assert_allclose(w[order], values, atol=1e-6)
    np.testing.assert_allclose(a @ v, v * w[None, :], atol=1e-5)
