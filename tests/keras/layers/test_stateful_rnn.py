"""`stateful=True` recurrent layers against Keras 3.15 on TF 2.21
(tests/data/keras_stateful_rnn.npz, recorded by tools/record_keras_stateful_rnn.py):
predict twice (traced; the second call starts from the first's states), the
state Variables, reset_states, initial_state=, gradients; plus the config and
Keras's errors for a dynamic or changed batch size."""

import numpy as np
import pytest

import runtime as tf
from tools.record_keras_stateful_rnn import CASES, OUT, make, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("name", CASES)
def test_stateful_layer_is_keras(name):
    ours = run_case(tf.keras, tf, name)
    want = {k.split("/", 1)[1]: RECORD[k] for k in RECORD.files if k.startswith(name + "/")}
    assert sorted(ours) == sorted(want)
    for key, value in want.items():
        np.testing.assert_allclose(ours[key], value, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{name}/{key}")


def test_states_are_left_out_of_weights_and_config_round_trips():
    layer = make(tf.keras, "lstm")
    layer(np.zeros((2, 4, 3), np.float32))
    assert [v.path for v in layer.states] == [f"{layer.name}/rnn_state"] * 2
    assert len(layer.weights) == 3 and not layer.non_trainable_weights
    config = layer.get_config()
    assert config["stateful"] is True
    again = tf.keras.layers.LSTM.from_config(config)
    assert again.stateful and again.get_config() == config


def test_stateful_needs_a_static_batch_size():
    with pytest.raises(ValueError, match=r"When using `stateful=True` in a RNN, the batch "
                                         r"size must be static\. Found dynamic batch size: "
                                         r"sequence\.shape=\(None, 4, 2\)"):
        tf.keras.layers.GRU(2, stateful=True)(tf.keras.Input((4, 2)))


def test_stateful_keeps_its_batch_size():
    layer = tf.keras.layers.SimpleRNN(2, stateful=True)
    layer(np.zeros((2, 4, 3), np.float32))
    with pytest.raises(ValueError, match=r"Expected batch size: 2\n- Received batch size: 3"):
        layer(np.zeros((3, 4, 3), np.float32))


def test_states_carry_inside_a_function():
    layer = tf.keras.layers.GRU(3, stateful=True, kernel_initializer="ones",
                                recurrent_initializer="ones")
    x = np.ones((1, 2, 2), np.float32) * 0.1
    step = tf.function(lambda v: layer(v))
    first, second = step(x).numpy(), step(x).numpy()
    assert not np.allclose(first, second)
    np.testing.assert_allclose(layer.states[0].numpy(), second, rtol=1e-6)
