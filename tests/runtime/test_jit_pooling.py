"""`jit_compile=True` max pooling over windows that tile the input (a reshape
and a max in XLA, rules_nn.py) gives the executor's values and gradients bit
for bit: each window's gradient goes to its first maximal element (row-major),
also where a window holds ties (ReLU zeros, a constant image), and the rows
and columns past the last window get none."""

import numpy as np
import pytest

pytest.importorskip("jax")

import runtime as tf  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error::runtime._src.jit.program.JitCompileWarning")

RNG = np.random.default_rng(34)


def _relu_image(shape, dtype=np.float32):
    return np.maximum(RNG.standard_normal(shape), 0).astype(dtype)


# (input, ksize, strides, padding): all tile the input without padding.
CASES = [
    (_relu_image((2, 8, 8, 3)), 2, 2, "VALID"),                      # ReLU zeros tie
    (_relu_image((1, 7, 9, 2)), 2, 2, "VALID"),                      # a row and a column left over
    (_relu_image((2, 9, 9, 1)), 3, 3, "VALID"),
    (np.full((1, 4, 4, 2), 1.5, np.float32), 2, 2, "VALID"),          # every window a tie
    (_relu_image((1, 6, 9, 2)), (2, 3), (2, 3), "VALID"),            # non-square windows
    (_relu_image((1, 8, 8, 2)), 2, 2, "SAME"),                       # SAME needing no padding
    (_relu_image((2, 6, 6, 2), np.float64), 2, 2, "VALID"),
    (np.array([[[[-np.inf], [np.inf]], [[np.inf], [0.0]]]], np.float32), 2, 2, "VALID"),
]


def _pool_and_grad(x, ksize, strides, padding, weights):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, ksize, strides, padding)
        loss = tf.reduce_sum(y * weights)
    return y, tape.gradient(loss, x)


@pytest.mark.parametrize("x, ksize, strides, padding", CASES, ids=range(len(CASES)))
def test_tiled_max_pool_and_gradient_equal_the_executors(x, ksize, strides, padding):
    x = tf.constant(x)
    pooled = tf.nn.max_pool2d(x, ksize, strides, padding)
    weights = tf.constant(RNG.standard_normal(pooled.shape).astype(x.dtype.as_numpy_dtype))
    want = tf.function(_pool_and_grad)(x, ksize, strides, padding, weights)
    got = tf.function(_pool_and_grad, jit_compile=True)(x, ksize, strides, padding, weights)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g.numpy(), w.numpy())
    grad = want[1].numpy()
    assert np.count_nonzero(grad) <= pooled.numpy().size      # one element per window
