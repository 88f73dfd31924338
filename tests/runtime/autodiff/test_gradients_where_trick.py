"""Gradients through `tf.where` that masks a branch whose derivative is inf or
nan: TensorFlow's sqrt, rsqrt and reciprocal gradient kernels give 0 where the
incoming gradient is 0, so the masked branch contributes 0, not nan."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients, check_second_order

X = np.array([0.0, 4.0, np.inf, -1.0], np.float32)

# Values from TensorFlow 2.21: d/dx where(x > 1, f(x), 0).
EXPECTED = {
    "sqrt": (tf.sqrt, [0.0, 0.25, 0.0, 0.0]),
    "rsqrt": (tf.math.rsqrt, [0.0, -0.0625, 0.0, 0.0]),
    "reciprocal": (tf.math.reciprocal, [0.0, -0.0625, 0.0, 0.0]),
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("staged", [False, True])
def test_masked_branch_contributes_zero_as_tensorflow(name, staged):
    fn, want = EXPECTED[name]

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.where(x > 1.0, fn(x), tf.zeros_like(x))
        return tape.gradient(y, x)

    got = (tf.function(grad) if staged else grad)(tf.constant(X)).numpy()
    np.testing.assert_array_equal(got, np.array(want, np.float32))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_first_and_second_order_match_finite_differences(name):
    fn = EXPECTED[name][0]
    x = np.random.default_rng(7).uniform(0.5, 2.0, (3, 2))
    check_gradients(fn, [x])
    check_second_order(fn, [x])
