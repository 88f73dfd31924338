"""`jit_compile=True` Conv2D and its gradients give the executor's values
within float32 rounding on both of the forward pass's lowerings (rules_nn.py):
a narrow window (KH x KW x C at most 32) as a sum of shifted channels times
the filter's rows, a wider one as XLA's convolution; with every padding and
with strides (which take the convolution). The programs compile with
`XLA_OPTIONS` (program.py), and without them where XLA rejects them."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import runtime as tf  # noqa: E402
from runtime._src.jit import program  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error::runtime._src.jit.program.JitCompileWarning")

RNG = np.random.default_rng(34)

# (input shape, filter shape, strides, padding, dtype)
CASES = [
    ((2, 9, 9, 1), (3, 3, 1, 4), 1, "VALID", np.float32),          # the CNN's first layer
    ((2, 8, 7, 3), (3, 3, 3, 5), 1, "SAME", np.float32),           # RGB, 27 taps
    ((1, 7, 8, 1), (2, 3, 1, 3), 1, [[0, 0], [1, 2], [0, 3], [0, 0]], np.float64),
    ((2, 6, 6, 8), (3, 3, 8, 6), 1, "SAME", np.float32),           # 72 taps: the convolution
    ((2, 9, 9, 1), (3, 3, 1, 4), 2, "SAME", np.float32),           # strides: the convolution
]


def _conv_and_grads(x, f, strides, padding, weights):
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.conv2d(x, f, strides, padding)
        loss = tf.reduce_sum(y * weights)
    return [y] + tape.gradient(loss, [x, f])


@pytest.mark.parametrize("x_shape, f_shape, strides, padding, dtype", CASES,
                         ids=range(len(CASES)))
def test_conv2d_and_gradients_equal_the_executors(x_shape, f_shape, strides, padding, dtype):
    x = tf.constant(RNG.standard_normal(x_shape).astype(dtype))
    f = tf.constant(RNG.standard_normal(f_shape).astype(dtype))
    y = tf.nn.conv2d(x, f, strides, padding)
    weights = tf.constant(RNG.standard_normal(y.shape).astype(dtype))
    want = tf.function(_conv_and_grads)(x, f, strides, padding, weights)
    got = tf.function(_conv_and_grads, jit_compile=True)(x, f, strides, padding, weights)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=rtol, atol=rtol * 10)


def test_this_xla_takes_the_options():
    conv = jax.jit(lambda a, b: jax.lax.conv(a, b, (1, 1), "VALID"),
                   compiler_options=program.XLA_OPTIONS)
    out = conv(np.ones((1, 8, 5, 5), np.float32), np.ones((4, 8, 3, 3), np.float32))
    np.testing.assert_array_equal(np.asarray(out), np.full((1, 4, 3, 3), 72, np.float32))


def test_options_an_xla_rejects_are_left_out(monkeypatch):
    monkeypatch.setattr(program, "XLA_OPTIONS", {"xla_cpu_no_such_option_here": "1"})
    double = tf.function(lambda v: tf.nn.relu(v) * 2, jit_compile=True)
    got = double(tf.constant([-1.0, 3.0]))
    np.testing.assert_array_equal(got.numpy(), [0.0, 6.0])
