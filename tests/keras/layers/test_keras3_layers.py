"""SimpleRNN, LSTM, GRU, Bidirectional, TimeDistributed and masking against
Keras 3: outputs and gradients for identical weights and inputs (the cases in
layer_cases.py, values recorded from TensorFlow 2.21 / Keras 3 into
layer_expected.py), eagerly and inside a traced step; the time loop is one
staged While node."""

import numpy as np
import pytest

import runtime as tf
from tests.keras import layer_cases
from tests.keras.layer_expected import EXPECTED, FIT

NAMES = (list(layer_cases.CASES) + list(layer_cases.STATE_CASES)
         + list(layer_cases.FUNCTIONAL_CASES))


def _loss_and_grads(model, x, name):
    with tf.GradientTape() as tape:
        out = layer_cases.call(model, x, name)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(tf.square(o)) for o in outs])
    return outs, tape.gradient(loss, model.trainable_weights)


def _check(name, outs, grads):
    expected = EXPECTED[name]
    assert len(outs) == len(expected["outputs"])
    for got, want in zip(outs, expected["outputs"]):
        np.testing.assert_allclose(np.asarray(got), np.array(want), atol=2e-5)
    assert len(grads) == len(expected["grads"])
    for got, want in zip(grads, expected["grads"]):
        np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(got)), np.array(want),
                                   atol=2e-5)


@pytest.mark.parametrize("name", NAMES)
def test_eager_matches_keras(name):
    model, x = layer_cases.build(tf.keras, name)
    _check(name, *_loss_and_grads(model, x, name))


@pytest.mark.parametrize("name", NAMES)
def test_traced_step_matches_keras(name):
    model, x = layer_cases.build(tf.keras, name)
    step = tf.function(lambda x: _loss_and_grads(model, x, name))
    _check(name, *step(tf.constant(x)))


def test_time_loop_is_one_while_node():
    layer = tf.keras.layers.LSTM(4, return_sequences=True)
    x = np.zeros((2, 50, 3), "float32")
    layer(x)
    graph = tf.function(lambda x: layer(x)).get_concrete_function(tf.constant(x)).graph
    ops = [n.op for n in graph.nodes]
    assert ops.count("While") == 1
    assert ops.count("MatMul") == 1          # the input projection; the step is in the body
    assert "CustomGradient" in ops           # lstm_fused.py's hand-written backward loop


def test_config_round_trip_and_defaults():
    layer = tf.keras.layers.GRU(3, return_sequences=True, go_backwards=True)
    config = layer.get_config()
    assert config["units"] == 3 and config["reset_after"] is True
    assert config["return_sequences"] and config["go_backwards"]
    assert config["recurrent_initializer"] == "orthogonal"
    again = tf.keras.layers.GRU.from_config(config)
    assert again.get_config() == config
    x = np.ones((1, 2, 5), "float32")
    again(x)
    assert [tuple(w.shape) for w in again.weights] == [(5, 9), (3, 9), (2, 9)]
    k = again.cell.recurrent_kernel.numpy()
    np.testing.assert_allclose(k @ k.T, np.eye(3), atol=1e-5)   # orthogonal rows


def test_lstm_bias_starts_with_unit_forget_bias():
    layer = tf.keras.layers.LSTM(2)
    layer(np.ones((1, 3, 4), "float32"))
    np.testing.assert_array_equal(layer.cell.bias.numpy(), [0, 0, 1, 1, 0, 0, 0, 0])


def test_wrong_rank_is_a_value_error():
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        tf.keras.layers.LSTM(2)(np.ones((2, 3), "float32"))


@pytest.mark.parametrize("name", list(layer_cases.TRAIN_CASES))
def test_fit_three_epochs_matches_keras(name):
    """An LSTM and a small CNN trained 3 epochs (SGD, unshuffled, fixed initial
    weights) end with Keras's weights and logged losses, within 1e-4."""
    model, losses = layer_cases.fit(tf.keras, name)
    np.testing.assert_allclose(losses, FIT[name]["losses"], atol=1e-4)
    assert len(model.weights) == len(FIT[name]["weights"])
    for got, want in zip(model.weights, FIT[name]["weights"]):
        np.testing.assert_allclose(got.numpy(), np.array(want), atol=1e-4)
