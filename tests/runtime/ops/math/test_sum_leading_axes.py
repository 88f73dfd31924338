"""Sum over an array's leading axes (a bias gradient, (N, H, W, C) -> (C,))
runs as einsum over the (rows, rest) matrix: the same row-by-row order as
numpy's add.reduce, so the same bits, eagerly and in a tf.function, with
keepdims, NaN, inf, signed zeros and float64; other reductions are untouched."""

import numpy as np
import pytest

import runtime as tf

CASES = [  # (shape, axis, dtype, keepdims)
    ((32, 26, 26, 32), (0, 1, 2), np.float32, False),
    ((7, 5, 3), (0, 1), np.float64, True),
    ((9, 2), (0,), np.float32, False),
    ((4, 3, 6, 5), (0, 1, 2), np.float32, True),
    ((1, 16), (0,), np.float32, False),          # one row: add.reduce itself
    ((5, 1), (0,), np.float32, False),           # one column: add.reduce (pairwise)
    ((0, 4), (0,), np.float32, False),           # empty
    ((6, 4), (1,), np.float32, False),           # not the leading axes
]


@pytest.mark.parametrize("shape, axis, dtype, keepdims", CASES)
def test_leading_axes_sum_has_add_reduce_bits(shape, axis, dtype, keepdims):
    rng = np.random.default_rng(len(shape) + sum(shape))
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(dtype)
    if x.size > 8:
        x.flat[0], x.flat[5], x.flat[7] = np.nan, np.inf, -0.0
    want = np.add.reduce(x, axis=axis, dtype=dtype, keepdims=keepdims)
    eager = tf.reduce_sum(x, axis=axis, keepdims=keepdims).numpy()
    traced = tf.function(lambda v: tf.reduce_sum(v, axis=axis, keepdims=keepdims))(x).numpy()
    for got in (eager, traced):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
