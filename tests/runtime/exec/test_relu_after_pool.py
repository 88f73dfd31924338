"""The generated code pools a ReLU's input and applies the ReLU to the pooled
values (runtime/_src/exec/codegen.py, `Emitter.relu_after_pool`): the same
values as the kernels one after the other (eager), forward and gradient, with
ties, NaN, zeros and all-negative windows; and the cases that keep the ReLU
where it is (another reader, an unfolded pooling gradient)."""

import numpy as np
import pytest

import runtime as tf

RELU_AFTER = "_np.maximum(MaxPool, _zero_float32, out=MaxPool)"


def _source_and_value(fn, *args):
    f = tf.function(fn)
    got = f(*[tf.constant(a) for a in args])
    return f.get_concrete_function(*[tf.constant(a) for a in args]).graph.python_source(), got


def _input(shape=(2, 6, 6, 3), seed=0):
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    x[0, 0, 0, 0] = x[0, 0, 1, 0] = 2.0          # a tie inside a window
    x[-1, 2:4, 2:4, -1] = -1.0                     # an all-negative window
    x[-1, 0:2, 0:2, 0] = 0.25                      # a window of ReLU zeros (x - 0.25)
    return x


def _pool_relu(window, stride, padding):
    return lambda x: tf.nn.max_pool2d(tf.nn.relu(x - 0.25), window, stride, padding)


@pytest.mark.parametrize("window, stride, padding", [(2, 2, "VALID"), (3, 2, "SAME"),
                                                     (3, 1, "VALID"), ((2, 3), (2, 3), "SAME")])
def test_forward_pools_first_with_the_kernels_values(window, stride, padding):
    x = _input((2, 7, 6, 3))
    x[0, 3, 3, 0] = np.nan
    src, got = _source_and_value(_pool_relu(window, stride, padding), x)
    assert RELU_AFTER in src and "Relu" not in src
    want = _pool_relu(window, stride, padding)(tf.constant(x)).numpy()   # eager kernels
    np.testing.assert_array_equal(got.numpy(), want)


def _train_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(tf.nn.relu(x - 0.25), 2, 2, "VALID")
        loss = tf.reduce_sum(y * y * 1.5)
    return tape.gradient(loss, x)


@pytest.mark.parametrize("shape", [(2, 6, 6, 3), (1, 5, 7, 2), (0, 4, 4, 3)])
def test_gradient_folded_reads_the_relu_input(shape):
    x = _input(shape) if shape[0] else np.zeros(shape, np.float32)
    src, got = _source_and_value(_train_grad, x)
    assert RELU_AFTER in src
    assert "_max_pool_grad_of_relu(" in src and "ReluGrad" not in src
    want = _train_grad(tf.constant(x)).numpy()
    assert got.shape == x.shape and got.dtype == np.float32
    np.testing.assert_array_equal(got.numpy(), want)


def test_keeps_the_relu_when_it_is_also_returned():
    def both(x):
        r = tf.nn.relu(x)
        return r, tf.nn.max_pool2d(r, 2, 2, "VALID")
    src, (r, y) = _source_and_value(both, _input())
    assert RELU_AFTER not in src
    np.testing.assert_array_equal(r.numpy(), np.maximum(_input(), 0))


def test_keeps_the_relu_before_an_unfolded_pooling_gradient():
    def grad(x):      # overlapping windows: MaxPoolGrad and ReluGrad stay apart
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.nn.max_pool2d(tf.nn.relu(x), 3, 2, "SAME") ** 2)
        return tape.gradient(loss, x)
    x = _input()
    src, got = _source_and_value(grad, x)
    assert RELU_AFTER not in src
    np.testing.assert_array_equal(got.numpy(), grad(tf.constant(x)).numpy())


def test_keras_conv_relu_pool_matches_eager():
    layers = tf.keras.layers
    model = tf.keras.Sequential([layers.Conv2D(4, 3, activation="relu"), layers.MaxPooling2D(2),
                                 layers.Flatten(), layers.Dense(2)])
    x = tf.constant(_input((3, 9, 9, 1)))   # batch 3: no pooling ties after the conv
    model(x)

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x) ** 2)
        return [loss] + tape.gradient(loss, model.trainable_weights)
    f = tf.function(step)
    got = f(x)
    src = f.get_concrete_function(x).graph.python_source()
    assert "_conv2d_bias_pool(" in src and "relu=True" in src    # the ReLU on the pooled values
    for g, w in zip(got, step(x)):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)
