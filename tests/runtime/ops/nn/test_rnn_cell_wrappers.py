"""tf.nn.RNNCellResidualWrapper, RNNCellDeviceWrapper and RNNCellDropoutWrapper
around a Keras SimpleRNNCell: TF 2.21's values for the residual and device
wrappers (recorded: ones weights, ones inputs, zero state -> 1 + tanh(3)),
dropout's documented properties (kept values scaled by 1 / keep, the rest 0;
keep 1 changes nothing; one variational mask for every call), inside
keras.layers.RNN, and the errors for bad keep probabilities and cells."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
TANH3 = 0.9950547          # TF 2.21's SimpleRNNCell output here


def _cell(recurrent="ones"):
    return keras.layers.SimpleRNNCell(3, kernel_initializer="ones",
                                      recurrent_initializer=recurrent, bias_initializer="zeros")


def test_residual_and_device_wrappers_give_tfs_values():
    x, s = tf.ones([2, 3]), [tf.zeros([2, 3])]
    out, (state,) = tf.nn.RNNCellResidualWrapper(_cell())(x, s)
    np.testing.assert_allclose(out.numpy(), np.full([2, 3], 1 + TANH3), rtol=1e-6)
    np.testing.assert_allclose(state.numpy(), np.full([2, 3], TANH3), rtol=1e-6)
    out, _ = tf.nn.RNNCellDeviceWrapper(_cell(), "/cpu:0")(x, s)
    np.testing.assert_allclose(out.numpy(), np.full([2, 3], TANH3), rtol=1e-6)
    doubled, _ = tf.nn.RNNCellResidualWrapper(_cell(), residual_fn=lambda i, o: i + 2 * o)(x, s)
    np.testing.assert_allclose(doubled.numpy(), np.full([2, 3], 1 + 2 * TANH3), rtol=1e-6)


def test_dropout_keeps_scaled_values_or_zeros():
    x, s = tf.ones([4, 3]), [tf.zeros([4, 3])]
    same, _ = tf.nn.RNNCellDropoutWrapper(_cell())(x, s)
    np.testing.assert_allclose(same.numpy(), np.full([4, 3], TANH3), rtol=1e-6)
    out, (state,) = tf.nn.RNNCellDropoutWrapper(_cell(), output_keep_prob=0.5,
                                                state_keep_prob=0.25, seed=3)(x, s)
    for value, scale in ((out, 2), (state, 4)):
        v = value.numpy().ravel()
        assert np.all(np.isclose(v, 0) | np.isclose(v, scale * TANH3)), v
    wrapper = tf.nn.RNNCellDropoutWrapper(_cell(), input_keep_prob=0.5, output_keep_prob=0.5,
                                          variational_recurrent=True, input_size=3,
                                          dtype=tf.float32, seed=1)
    first, second = wrapper(x, s)[0], wrapper(x, s)[0]
    np.testing.assert_array_equal(first.numpy(), second.numpy())
    assert np.all(first.numpy() == first.numpy()[:1])            # one [1, size] mask


def test_wrapped_cells_run_in_keras_rnn():
    layer = keras.layers.RNN(tf.nn.RNNCellResidualWrapper(_cell("zeros")))
    np.testing.assert_allclose(layer(tf.ones([2, 4, 3])).numpy(), np.full([2, 3], 1 + TANH3),
                               rtol=1e-6)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="input_keep_prob must be between 0 and 1"):
        tf.nn.RNNCellDropoutWrapper(_cell(), input_keep_prob=1.5)
    with pytest.raises(TypeError, match="is not a RNNCell"):
        tf.nn.RNNCellResidualWrapper(object())
