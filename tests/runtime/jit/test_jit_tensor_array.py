"""`jit_compile=True` on TensorArrays and the Keras LSTM: a TensorArray of a
size known when traced is one XLA buffer (its element shape from the first
write when not given), so a function filling one in a loop, and a Keras LSTM
train step (time loops, TensorArrays, the fused LSTMStep and its gradient),
compile to one program and give the executor's values."""

import numpy as np
import pytest

pytest.importorskip("jax")

import runtime as tf  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error::runtime._src.jit.program.JitCompileWarning")


def _arrays(x):
    n = tf.shape(x)[0]
    squares = tf.TensorArray(tf.float32, size=4)            # element shape from the writes
    rows = tf.TensorArray(tf.float32, size=4, element_shape=[3]).unstack(x)
    total = tf.zeros([3])
    for i in tf.range(n):
        row = rows.read(i)
        total += row
        squares = squares.write(i, row * row + total)
    picked = squares.gather([3, 0])
    scattered = tf.TensorArray(tf.int32, size=3).scatter([2, 0, 1], tf.constant([[7], [8], [9]]))
    return squares.stack(), picked, scattered.stack(), squares.size()


def _never_written():
    return tf.TensorArray(tf.float32, size=2, element_shape=[2]).stack()


@pytest.mark.parametrize("fn, args", [
    (_arrays, (np.arange(12, dtype=np.float32).reshape(4, 3) - 5,)),
    (_never_written, ()),
])
def test_tensor_arrays_compile_to_the_executors_values(fn, args):
    want = tf.function(fn)(*args)
    got = tf.function(fn, jit_compile=True)(*args)
    for w, g in zip(tf.nest.flatten(want), tf.nest.flatten(got)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g.numpy(), w.numpy())


def _lstm_step(jit, weights=None):
    rng = np.random.default_rng(5)
    x = tf.constant(rng.standard_normal((4, 6, 3)).astype(np.float32))
    y = tf.constant(rng.standard_normal((4, 1)).astype(np.float32))
    model = tf.keras.Sequential([tf.keras.Input((6, 3)), tf.keras.layers.LSTM(5),
                                 tf.keras.layers.Dense(1)])
    if weights is not None:
        model.set_weights(weights)
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=jit)
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        return loss
    return model, lambda: float(step(x, y))


def test_a_keras_lstm_train_step_compiles_and_trains_as_the_executor():
    executor_model, executor_step = _lstm_step(False)
    jit_model, jit_step = _lstm_step(True, executor_model.get_weights())
    want = [executor_step() for _ in range(3)]
    got = [jit_step() for _ in range(3)]
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert want[2] < want[0]
    for w, g in zip(executor_model.get_weights(), jit_model.get_weights()):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
