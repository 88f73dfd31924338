"""Record Keras 3.15's stateful recurrent layers on TF 2.21: SimpleRNN, LSTM,
GRU, RNN(LSTMCell), RNN([GRUCell, SimpleRNNCell]) and Bidirectional(GRU) with
`stateful=True`,
each in a functional model on `Input(batch_shape=(2, 4, 3))` with weights
drawn from numpy's seed 0: two `predict` calls (the second starts from the
states the first left), the states, `reset_states()` then an eager call, a
call with `initial_state=` (which also sets the states), and the gradient of
the second call's output sum with respect to the weights.

    $BENCH_TF_PYTHON tools/record_keras_stateful_rnn.py
    # writes tests/data/keras_stateful_rnn.npz

`CASES` and `run(keras, tf)` are shared with the test, which runs them here.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_stateful_rnn.npz"
BATCH_SHAPE = (2, 4, 3)
CASES = ("simple_rnn", "lstm", "gru", "rnn_lstm_cell", "rnn_stacked", "lstm_sequences",
         "bidirectional")


def make(keras, name):
    layers = keras.layers
    if name == "simple_rnn":
        return layers.SimpleRNN(5, stateful=True)
    if name == "lstm":
        return layers.LSTM(5, stateful=True)
    if name == "gru":
        return layers.GRU(5, stateful=True)
    if name == "rnn_lstm_cell":
        return layers.RNN(layers.LSTMCell(5), stateful=True)
    if name == "rnn_stacked":
        return layers.RNN([layers.GRUCell(4), layers.SimpleRNNCell(5)], stateful=True)
    if name == "bidirectional":
        return layers.Bidirectional(layers.GRU(4, stateful=True), merge_mode="sum")
    return layers.LSTM(5, stateful=True, return_sequences=True, go_backwards=True)


def state_variables(keras, layer):
    """The layer's state Variables, flat (both directions' for Bidirectional)."""
    if hasattr(layer, "forward_layer"):
        return [v for part in (layer.forward_layer, layer.backward_layer)
                for v in keras.tree.flatten(part.states)]
    return keras.tree.flatten(layer.states)


def inputs(step):
    x = np.arange(np.prod(BATCH_SHAPE), dtype=np.float32).reshape(BATCH_SHAPE)
    return np.sin(x * (0.3 + 0.1 * step)).astype(np.float32)


def run_case(keras, tf, name):
    layer = make(keras, name)
    inp = keras.Input(batch_shape=BATCH_SHAPE)
    model = keras.Model(inp, layer(inp))
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.get_weights()])
    out = {"first": model.predict(inputs(0), verbose=0),
           "second": model.predict(inputs(1), verbose=0)}
    states = state_variables(keras, layer)
    for i, state in enumerate(states):
        out[f"state{i}"] = np.asarray(state)
    if name == "rnn_stacked":      # Keras 3.15's reset_state fails on nested states
        for state in states:
            state.assign(np.zeros(state.shape, np.float32))
    else:
        layer.reset_states()
    out["after_reset"] = np.asarray(model(inputs(0)))
    given = [np.full(s.shape, 0.25, np.float32) for s in states] if name == "bidirectional" \
        else keras.tree.map_structure(lambda s: np.full(s.shape, 0.25, np.float32),
                                      list(layer.states))
    out["initial_state"] = np.asarray(layer(inputs(2), initial_state=given))
    out["kept_after_initial"] = np.asarray(state_variables(keras, layer)[0])
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(model(inputs(1)))
    grads = tape.gradient(total, model.trainable_weights)
    for i, g in enumerate(grads):
        out[f"grad{i}"] = np.asarray(g)
    out["n_weights"] = np.asarray(len(layer.weights))
    return out


def run(keras, tf):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, tf, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
