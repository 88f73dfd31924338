"""`tf.approx_top_k` against TF 2.21's recorded values (tools/record_approx_top_k.py):
eagerly, inside tf.function, and its gradient (TF's CPU kernel: max along the last
dimension; the min and other-dimension cases are TF's XLA results)."""

import numpy as np
import pytest

import runtime as tf

X = [[3., 1., 3., -2., 0.], [0., 0., -1., 5., 5.]]
CASES = [   # (kwargs, values, indices, gradient of sum(values * [1, 2, ...]) or None)
    ({"k": 2}, [[3., 3.], [5., 5.]], [[0, 2], [3, 4]],
     [[1., 0., 2., 0., 0.], [0., 0., 0., 3., 4.]]),
    ({"k": 5}, [[3., 3., 1., 0., -2.], [5., 5., 0., 0., -1.]], [[0, 2, 1, 4, 3], [3, 4, 0, 1, 2]],
     [[1., 3., 2., 5., 4.], [8., 9., 10., 6., 7.]]),
    ({"k": 0}, [[], []], [[], []], [[0.] * 5, [0.] * 5]),
    ({"k": 3, "is_max_k": False}, [[-2., 0., 1.], [-1., 0., 0.]], [[3, 4, 1], [2, 0, 1]], None),
    ({"k": 1, "reduction_dimension": 0}, [[3., 1., 3., 5., 5.]], [[0, 0, 0, 1, 1]], None),
    ({"k": 2, "reduction_dimension": 0, "is_max_k": False},
     [[0., 0., -1., -2., 0.], [3., 1., 3., 5., 5.]], [[1, 1, 1, 0, 0], [0, 0, 0, 1, 1]], None),
]


def _check(out, values, indices):
    assert type(out).__name__ == "ApproxTopK"
    assert out.values.dtype == tf.float32 and out.indices.dtype == tf.int32
    np.testing.assert_array_equal(out.values.numpy(), np.array(values, np.float32).reshape(out.values.shape))
    assert out.values.shape == np.array(values).shape
    assert out.indices.numpy().tolist() == indices


@pytest.mark.parametrize("kwargs,values,indices,grad", CASES, ids=[str(c[0]) for c in CASES])
def test_approx_top_k_is_tfs(kwargs, values, indices, grad):
    x = tf.constant(X)
    _check(tf.approx_top_k(x, **kwargs), values, indices)
    _check(tf.function(lambda t: tf.approx_top_k(t, **kwargs))(x), values, indices)
    if grad is not None:
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = tf.approx_top_k(x, **kwargs).values
            weights = np.arange(1, 1 + int(np.prod(out.shape)), dtype=np.float32).reshape(out.shape)
            loss = tf.reduce_sum(out * weights)
        assert tape.gradient(loss, x).numpy().tolist() == grad


def test_approx_top_k_float16_and_bad_input():
    out = tf.approx_top_k(tf.constant([1., 2., 3.], tf.float16), 1)   # TF: [3.], [2]
    assert out.values.dtype == tf.float16 and out.values.numpy().tolist() == [3.0]
    assert out.indices.numpy().tolist() == [2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="float16 or float32.*int32"):
        tf.approx_top_k(tf.constant([1, 2, 3]), 1)            # TF refuses int32 and float64
    with pytest.raises(tf.errors.InvalidArgumentError, match="float16 or float32.*float64"):
        tf.approx_top_k(tf.constant([1., 2.], tf.float64), 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="k must be"):
        tf.approx_top_k(tf.constant(X), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least k columns"):
        tf.approx_top_k(tf.constant(X), 6)                      # TF: "... Had 5, needed 6"
    with pytest.raises(ValueError, match="rank >= 1"):
        tf.approx_top_k(tf.constant(1.), 1)
