"""`tf.nn`'s convolution family over the core ops: atrous (dilated)
convolutions, `conv_transpose`, `pool`, `with_space_to_batch`,
`max_pool_with_argmax` and the explicit backprop ops. Expected values are
TF 2.21's, recorded on the same inputs (numpy RandomState(1)): the first six
values and the float64 sum of each result."""

import numpy as np
import pytest

import runtime as tf

RNG = np.random.RandomState(1)
X = RNG.randn(2, 7, 6, 3).astype(np.float32)
W = RNG.randn(3, 3, 3, 4).astype(np.float32)
WT = RNG.randn(3, 3, 5, 3).astype(np.float32)


def _check(out, shape, head, total):
    out = np.asarray(out)
    assert out.shape == shape
    np.testing.assert_allclose(out.ravel()[:6], head, atol=1e-4)
    np.testing.assert_allclose(out.astype(np.float64).sum(), total, rtol=1e-5, atol=1e-4)


def _conv(inp, num_spatial_dims, padding):
    return tf.nn.conv2d(inp, W, 1, padding)


CASES = {
    "atrous same": (lambda: tf.nn.atrous_conv2d(X, W, 2, "SAME"), (2, 7, 6, 4),
                    [6.4098, 0.2815, 4.4339, 1.1872, -4.3362, 4.905], -21.884345),
    "atrous valid": (lambda: tf.nn.atrous_conv2d(X, W, 2, "VALID"), (2, 3, 2, 4),
                     [-5.3656, 12.7073, -0.8685, -1.5988, 1.0606, -4.974], 9.746379),
    "atrous transpose same": (
        lambda: tf.nn.atrous_conv2d_transpose(X, WT, [2, 7, 6, 5], 2, "SAME"), (2, 7, 6, 5),
        [0.8303, 0.2725, -4.981, -6.2871, -0.2853, -1.7806], 22.401406),
    "atrous transpose valid": (
        lambda: tf.nn.atrous_conv2d_transpose(X, WT, [2, 11, 10, 5], 2, "VALID"),
        (2, 11, 10, 5), [-0.4537, 0.3328, 2.2301, 0.7609, 0.6697, 5.8836], 19.310202),
    "conv_transpose": (lambda: tf.nn.conv_transpose(X, WT, [2, 14, 12, 5], 2), (2, 14, 12, 5),
                       [-0.4537, 0.3328, 2.2301, 0.7609, 0.6697, 0.0238], 62.02399),
    "pool max": (lambda: tf.nn.pool(X, [2, 2], "MAX", strides=[2, 2], padding="SAME"),
                 (2, 4, 3, 3), [1.6243, 0.9016, 0.5025, 1.7448, 1.4621, 0.5304], 65.474192),
    "pool max dilated": (lambda: tf.nn.pool(X, [2, 2], "MAX", padding="VALID",
                                            dilations=[2, 1]),
                         (2, 5, 5, 3), [1.6243, 0.8654, 1.6598, 1.7448, 1.6925, 0.319],
                         176.704891),
    "pool 1d": (lambda: tf.nn.pool(X[:, 0], [3], "AVG", padding="VALID"), (2, 4, 3),
                [0.7654, -0.1692, -0.8369, 0.1408, 0.5221, -1.3475], -1.366999),
    "with_space_to_batch": (
        lambda: tf.nn.with_space_to_batch(X, [2, 2], "SAME", _conv, filter_shape=[3, 3]),
        (2, 7, 6, 4), [6.4098, 0.2815, 4.4339, 1.1872, -4.3362, 4.905], -21.884345),
    # TF 2.21 has no CPU kernel for the two V2 backprop ops; the values are
    # those of the gradients it computes for conv2d
    "backprop filter v2": (
        lambda: tf.conv2d_backprop_filter_v2(X, W, tf.ones([2, 7, 6, 4]), 1, "SAME"),
        (3, 3, 3, 4), [14.1288, 14.1288, 14.1288, 14.1288, 9.9642, 9.9642], 785.583352),
    "depthwise backprop filter": (
        lambda: tf.nn.depthwise_conv2d_backprop_filter(X, [3, 3, 3, 2], tf.ones([2, 7, 6, 6]),
                                                       [1, 1, 1, 1], "SAME"),
        (3, 3, 3, 2), [14.1288, 14.1288, 9.9642, 9.9642, 8.5509, 8.5509], 392.791672),
    "depthwise backprop input": (
        lambda: tf.nn.depthwise_conv2d_backprop_input([2, 7, 6, 3], W[:, :, :, :2],
                                                      tf.ones([2, 7, 6, 6]), [1, 1, 1, 1],
                                                      "SAME"),
        (2, 7, 6, 3), [0.0396, 3.3355, 1.4483, 0.5584, 2.7194, 0.787], 168.678877),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_tfs(name):
    fn, shape, head, total = CASES[name]
    _check(fn(), shape, head, total)


def test_pool_refuses_what_tf_refuses():
    with pytest.raises(ValueError, match="'SAME' padding is not implemented for `dilation_rate`"):
        tf.nn.pool(X, [2, 2], "AVG", padding="SAME", dilations=[2, 2])
    with pytest.raises(ValueError, match="Invalid pooling_type"):
        tf.nn.pool(X, [2, 2], "MIN")


def test_max_pool_with_argmax():
    x = np.array([[[[1.], [3.], [2.]], [[3.], [0.], [5.]], [[4.], [4.], [1.]]]], np.float32)
    values, argmax = tf.nn.max_pool_with_argmax(x, 2, 1, "VALID")
    assert values.numpy().ravel().tolist() == [3, 5, 4, 5]
    assert argmax.dtype == tf.int64 and argmax.numpy().ravel().tolist() == [1, 5, 6, 5]
    values, argmax = tf.function(lambda t: tf.nn.max_pool_with_argmax(
        t, 2, 2, "SAME", include_batch_in_index=True))(np.concatenate([x, 2 * x]))
    assert values.numpy().ravel()[:6].tolist() == [3, 5, 4, 1, 6, 10]
    assert argmax.numpy().ravel().tolist() == [1, 5, 6, 8, 10, 14, 15, 17]
    values, argmax = tf.nn.max_pool_with_argmax(X, 3, 2, "SAME")
    _check(values, (2, 4, 3, 3), [1.7448, 0.9016, 0.5025, 1.7448, 1.4621, 1.1338],
           float(np.asarray(values, np.float64).sum()))
    assert argmax.numpy().ravel()[:6].tolist() == [6, 22, 23, 6, 10, 14]
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y, _ = tf.nn.max_pool_with_argmax(v, 3, 2, "SAME")
        loss = tf.reduce_sum(y * tf.reshape(tf.range(tf.size(y), dtype=tf.float32), y.shape))
    np.testing.assert_allclose(tape.gradient(loss, v).numpy().sum(), 2556.0)
