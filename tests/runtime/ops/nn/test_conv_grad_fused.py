"""A convolution's filter and bias gradients together
(runtime/_src/ops/conv_grad_fused.py), as a training step's generated code
runs them: the filter gradient equal to Conv2DBackpropFilter, the bias
gradient to the Sum over dy's leading axes within float rounding (signed
zeros +0, NaN and inf carried), for both patch layouts (fewer than 4
channels: transposed), SAME and VALID, strides, dilations, odd sizes and an
empty batch; in a tf.function, equal to the eager kernels."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.ops import conv_ops
from runtime._src.ops.conv_grad_fused import bias_gradient, conv2d_filter_and_bias_grads

CASES = [  # (x shape, filter shape, strides, padding, dilations)
    ((2, 9, 8, 1), (3, 3, 1, 4), (1, 1), "VALID", (1, 1)),
    ((3, 7, 9, 5), (3, 2, 5, 6), (2, 1), "SAME", (1, 1)),
    ((2, 10, 10, 3), (3, 3, 3, 2), (1, 1), "SAME", (2, 2)),
    ((1, 6, 5, 8), (2, 2, 8, 3), (2, 2), "VALID", (1, 1)),
    ((0, 6, 6, 4), (3, 3, 4, 2), (1, 1), "VALID", (1, 1)),        # empty batch
]
NO_PADS = ((0, 0), (0, 0))


@pytest.mark.parametrize("xs, fs, strides, padding, dilations", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_product_gives_both_gradients(xs, fs, strides, padding, dilations, dtype):
    rng = np.random.default_rng(sum(xs) + sum(fs))
    x = rng.standard_normal(xs).astype(dtype)
    f = rng.standard_normal(fs).astype(dtype)
    attrs = dict(strides=strides, padding=padding, explicit_paddings=NO_PADS,
                 dilations=dilations)
    y, rows = conv_ops.conv2d_keeping_patches(x, f, **attrs)
    dy = rng.standard_normal(y.shape).astype(dtype)
    dy[..., 0] = 0.0                                                     # a zero channel
    grad, bias = conv2d_filter_and_bias_grads(dy, rows, x, f, **attrs)
    want = conv_ops._conv2d_backprop_filter(dy, x, f, **attrs)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert grad.shape == f.shape and grad.dtype == dtype
    assert bias.shape == (fs[3],) and bias.dtype == dtype
    np.testing.assert_array_equal(grad, want)
    np.testing.assert_allclose(bias, dy.reshape(-1, fs[3]).astype(np.float64).sum(0),
                               rtol=tol, atol=tol)
    assert bias[0] == 0.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
def test_bias_gradient_special_values(dtype):
    dy = np.ones((2, 3, 4, 5), dtype)
    dy[..., 0] = -0.0 if dtype != np.int32 else 0
    if dtype != np.int32:
        dy[0, 0, 0, 1], dy[1, 2, 3, 2], dy[0, 1, 1, 3] = np.nan, np.inf, -np.inf
    got = bias_gradient(dy)
    assert got.shape == (5,) and got.dtype == dtype
    want = np.add.reduce(dy, axis=(0, 1, 2), dtype=dtype)
    np.testing.assert_array_equal(got[1:], want[1:])        # NaN, inf, -inf, 24
    assert got[0] == 0 and not np.signbit(got[0])           # TF's +0
    np.testing.assert_array_equal(bias_gradient(np.zeros((0, 2, 2, 3), dtype)),
                                  np.zeros(3, dtype))


@pytest.mark.parametrize("channels, padding, batch", [(1, "VALID", 3), (6, "SAME", 3),
                                                     (2, "VALID", None)])  # unknown batch
def test_training_step_computes_the_bias_gradient_with_the_filter_gradient(channels, padding,
                                                                            batch):
    rng = np.random.default_rng(channels)
    x = tf.constant(rng.standard_normal((3, 8, 8, channels)).astype(np.float32))
    f = tf.Variable(rng.standard_normal((3, 3, channels, 4)).astype(np.float32))
    b = tf.Variable(rng.standard_normal(4).astype(np.float32))

    def grads(x):
        with tf.GradientTape() as tape:
            y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, padding), b))
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [f, b])
    step = tf.function(grads, input_signature=[tf.TensorSpec([batch, 8, 8, channels])])
    got = step(x)
    src = step.get_concrete_function(x).graph.python_source()
    assert "_conv2d_filter_and_bias_grads(" in src and "_Sum(" not in src
    for g, w in zip(got, grads(x)):                                    # eager: the kernels
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-4)


def test_filter_gradient_of_an_empty_batch_is_zeros():
    # TF 2.21: zeros of the filter's shape (the kernel used to fail reshaping dy)
    x, f = tf.zeros((0, 6, 6, 4)), tf.ones((3, 3, 4, 2))
    with tf.GradientTape() as tape:
        tape.watch(f)
        loss = tf.reduce_sum(tf.nn.conv2d(x, f, 1, "VALID"))
    grad = tape.gradient(loss, f).numpy()
    assert grad.shape == (3, 3, 4, 2) and grad.dtype == np.float32
    np.testing.assert_array_equal(grad, np.zeros((3, 3, 4, 2), np.float32))
