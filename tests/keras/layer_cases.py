"""Layer cases shared by the Keras-equivalence tests and the script that
records their expected values from Keras 3 (tools/record_keras_layers.py).

Each case builds a model with the same code for `tf.keras` and
`runtime.keras`, sets every weight to `weight_value(shape, k)` (k = its
position in `model.weights`), feeds `case_inputs(kind)`, and measures the
outputs and the gradients of `sum(output ** 2)` over all outputs with
respect to `model.trainable_weights`.
"""

import numpy as np


def weight_value(shape, k):
    n = int(np.prod(shape)) if shape else 1
    return (0.5 * np.sin(0.37 * np.arange(n) + k)).reshape(shape).astype("float32")


def case_inputs(kind):
    if kind == "ids":
        return np.array([[1, 2, 3, 0], [4, 5, 0, 0]], dtype="int32")
    if kind == "seq":
        return np.cos(0.7 * np.arange(24)).reshape(2, 4, 3).astype("float32")
    if kind == "image":
        return np.cos(0.3 * np.arange(2 * 5 * 6 * 3)).reshape(2, 5, 6, 3).astype("float32")
    if kind == "image_pos":
        return (np.cos(0.3 * np.arange(2 * 5 * 6 * 3)) + 1.2).reshape(2, 5, 6, 3).astype(
            "float32")
    if kind == "flat":
        return np.sin(0.9 * np.arange(12) - 2).reshape(2, 6).astype("float32")
    raise ValueError(kind)


# name -> (input kind, function of the layers module returning the layers of a Sequential)
CASES = {
    "simple_rnn_seq": ("seq", lambda L: [L.SimpleRNN(2, return_sequences=True)]),
    "lstm_seq": ("seq", lambda L: [L.LSTM(2, return_sequences=True)]),
    "lstm_last": ("seq", lambda L: [L.LSTM(3)]),
    "gru_seq": ("seq", lambda L: [L.GRU(2, return_sequences=True)]),
    "gru_reset_before": ("seq", lambda L: [L.GRU(2, reset_after=False,
                                                  return_sequences=True)]),
    "lstm_backwards": ("seq", lambda L: [L.LSTM(2, go_backwards=True,
                                                return_sequences=True)]),
    "gru_backwards_last": ("seq", lambda L: [L.GRU(2, go_backwards=True)]),
    "lstm_masked": ("ids", lambda L: [L.Embedding(6, 3, mask_zero=True), L.LSTM(2)]),
    "gru_masked_seq": ("ids", lambda L: [L.Embedding(6, 3, mask_zero=True),
                                         L.GRU(2, return_sequences=True)]),
    "simple_rnn_masked_backwards": ("ids", lambda L: [L.Embedding(6, 3, mask_zero=True),
                                                      L.SimpleRNN(2, go_backwards=True)]),
    "stacked_masked": ("ids", lambda L: [L.Embedding(6, 3, mask_zero=True),
                                         L.LSTM(2, return_sequences=True), L.GRU(2)]),
    "bidirectional_lstm": ("seq", lambda L: [L.Bidirectional(L.LSTM(2))]),
    "bidirectional_gru_seq_sum": ("seq", lambda L: [L.Bidirectional(
        L.GRU(2, return_sequences=True), merge_mode="sum")]),
    "bidirectional_masked_seq": ("ids", lambda L: [L.Embedding(6, 3, mask_zero=True),
                                                   L.Bidirectional(L.LSTM(
                                                       2, return_sequences=True))]),
    "time_distributed_dense": ("seq", lambda L: [L.TimeDistributed(L.Dense(2))]),
    # image and sequence layers; weightless ones after a layer with weights, so the
    # gradient flows through them
    "conv1d": ("seq", lambda L: [L.Conv1D(2, 2, activation="tanh")]),
    "conv1d_same_strided": ("seq", lambda L: [L.Conv1D(3, 3, strides=2, padding="same")]),
    "conv2d_transpose": ("image", lambda L: [L.Conv2DTranspose(2, 3, strides=2)]),
    "conv2d_transpose_same": ("image", lambda L: [L.Conv2DTranspose(2, (2, 3), strides=(2, 1),
                                                                    padding="same")]),
    "depthwise_conv2d": ("image", lambda L: [L.DepthwiseConv2D(2, depth_multiplier=2)]),
    "separable_conv2d": ("image", lambda L: [L.SeparableConv2D(2, 3, padding="same",
                                                               activation="relu")]),
    "average_pooling2d": ("image", lambda L: [L.Conv2D(2, 1), L.AveragePooling2D(2)]),
    "average_pooling2d_same": ("image", lambda L: [L.Conv2D(2, 1), L.AveragePooling2D(
        3, strides=2, padding="same")]),
    "average_pooling1d": ("seq", lambda L: [L.Dense(2), L.AveragePooling1D(2)]),
    "max_pooling1d": ("seq", lambda L: [L.Dense(2), L.MaxPooling1D(3, strides=1)]),
    "global_average_pooling1d": ("seq", lambda L: [L.Dense(2), L.GlobalAveragePooling1D()]),
    "global_average_pooling2d": ("image", lambda L: [L.Conv2D(2, 1),
                                                     L.GlobalAveragePooling2D()]),
    "global_max_pooling1d": ("seq", lambda L: [L.Dense(2), L.GlobalMaxPooling1D()]),
    "global_max_pooling2d": ("image", lambda L: [L.Conv2D(2, 1),
                                                 L.GlobalMaxPooling2D(keepdims=True)]),
    "up_sampling2d": ("image", lambda L: [L.Conv2D(1, 2), L.UpSampling2D((2, 3))]),
    "zero_padding2d": ("image", lambda L: [L.Conv2D(1, 2), L.ZeroPadding2D(((1, 0), (2, 1)))]),
    "cropping2d": ("image", lambda L: [L.Conv2D(1, 1), L.Cropping2D(((1, 2), (0, 1)))]),
    "leaky_relu": ("seq", lambda L: [L.Dense(3), L.LeakyReLU()]),
    "elu": ("seq", lambda L: [L.Dense(3), L.ELU(0.7)]),
    "prelu": ("seq", lambda L: [L.Dense(3), L.PReLU()]),
    "prelu_shared": ("image", lambda L: [L.Conv2D(2, 1), L.PReLU(shared_axes=[1, 2])]),
    "repeat_vector": ("flat", lambda L: [L.Dense(2), L.RepeatVector(3)]),
    "permute": ("seq", lambda L: [L.Dense(2), L.Permute((2, 1))]),
    "small_cnn": ("image", lambda L: [L.Conv2D(3, 2, activation="relu"), L.MaxPooling2D(),
                                      L.Flatten(), L.Dense(2)]),
}

# layers returning [output, *states]: called directly, not in a Sequential
STATE_CASES = {
    "lstm_state": ("seq", lambda L: L.LSTM(2, return_state=True)),
    "gru_state_seq": ("seq", lambda L: L.GRU(2, return_state=True, return_sequences=True)),
    "simple_rnn_state": ("seq", lambda L: L.SimpleRNN(2, return_state=True)),
    "bidirectional_lstm_state": ("seq", lambda L: L.Bidirectional(
        L.LSTM(2, return_state=True))),
    "lstm_initial_state": ("seq", lambda L: L.LSTM(2, return_sequences=True)),
    "gru_initial_state_backwards": ("seq", lambda L: L.GRU(2, go_backwards=True,
                                                           return_state=True)),
}

# keyword arguments of the call, by case
CALL_KWARGS = {
    "lstm_initial_state": lambda: {"initial_state": [
        np.full((2, 2), 0.5, "float32"), np.array([[0.1, -0.2], [0.3, 0.4]], "float32")]},
    "gru_initial_state_backwards": lambda: {"initial_state": [
        np.array([[0.7, -0.1], [0.2, 0.0]], "float32")]},
}


def call(model, x, name):
    """model(x) with the case's call arguments."""
    return model(x, **CALL_KWARGS.get(name, dict)())

# functional models: name -> (input kind, function of (layers module, input) -> output)
FUNCTIONAL_CASES = {
    "attention_dot": ("seq", lambda L, x: L.Attention()([L.Dense(3)(x), x])),
    "attention_scaled_causal": ("seq", lambda L, x: L.Attention(use_scale=True)(
        [L.Dense(3)(x), x, L.Dense(3)(x)], use_causal_mask=True)),
    "attention_concat": ("seq", lambda L, x: L.Attention(score_mode="concat")(
        [L.Dense(3)(x), x])),
    "multi_head_attention_self": ("seq", lambda L, x: L.MultiHeadAttention(2, 3)(x, x)),
    "multi_head_attention_causal": ("seq", lambda L, x: L.MultiHeadAttention(
        2, 2, value_dim=3, output_shape=4)(L.Dense(5)(x), x, use_causal_mask=True)),
}


def build(keras, name):
    """(model or layer, inputs) for case `name`, weights set."""
    if name in CASES:
        kind, make = CASES[name]
        model = keras.Sequential(make(keras.layers))
    elif name in FUNCTIONAL_CASES:
        kind, make = FUNCTIONAL_CASES[name]
        inp = keras.Input(shape=case_inputs(kind).shape[1:])
        model = keras.Model(inp, make(keras.layers, inp))
    else:
        kind, make = STATE_CASES[name]
        model = make(keras.layers)
    x = case_inputs(kind)
    call(model, x, name)
    for k, w in enumerate(model.weights):
        w.assign(weight_value(tuple(w.shape), k))
    return model, x


def train_data(name):
    """(x, y) of a TRAIN_CASES entry."""
    if name == "lstm_fit":
        x = np.sin(0.31 * np.arange(16 * 5 * 3)).reshape(16, 5, 3).astype("float32")
        y = np.cos(0.5 * np.arange(16)).reshape(16, 1).astype("float32")
        return x, y
    x = np.cos(0.17 * np.arange(12 * 6 * 6 * 2)).reshape(12, 6, 6, 2).astype("float32")
    return x, (np.arange(12) % 3).astype("int32")


# fitted 3 epochs with SGD, batch 4, shuffle=False, from weights set as in build()
TRAIN_CASES = {
    "lstm_fit": (lambda L: [L.LSTM(4), L.Dense(1)], "mse", 0.1),
    "cnn_fit": (lambda L: [L.Conv2D(3, 3, activation="relu"), L.AveragePooling2D(2),
                           L.Flatten(), L.Dense(3)],
                "sparse_categorical_crossentropy_logits", 0.05),
}


def fit(keras, name):
    """(model, history.history['loss']) after 3 epochs of case `name`."""
    make, loss, lr = TRAIN_CASES[name]
    x, y = train_data(name)
    model = keras.Sequential(make(keras.layers))
    model(x[:1])
    for k, w in enumerate(model.weights):
        w.assign(weight_value(tuple(w.shape), k))
    if loss.endswith("_logits"):
        loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=lr), loss=loss)
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return model, history.history["loss"]
