"""More layer cases (3-D convolution and pooling, causal Conv1D, the 1-D and
3-D reshaping layers, adaptive pooling, RNN with user cells), shared by
tests/keras/layers/test_keras3_layers_more.py and the script that records their
expected values from Keras 3.15 (tools/record_keras_layers_more.py).

As in layer_cases.py: each case builds a model with the same code for
`tf.keras` and `runtime.keras`, sets every weight to `weight_value(shape, k)`,
feeds `case_inputs(kind)`, and measures the outputs and the gradients of
`sum(output ** 2)` with respect to `model.trainable_weights`.
"""

import numpy as np

from tests.keras.layer_cases import case_inputs as _base_inputs
from tests.keras.layer_cases import weight_value


def case_inputs(kind):
    if kind == "vol":
        return np.cos(0.3 * np.arange(2 * 4 * 5 * 6 * 3)).reshape(2, 4, 5, 6, 3).astype(
            "float32")
    if kind == "vol_first":     # channels_first, last axis not the filters' count
        return np.sin(0.2 * np.arange(2 * 3 * 4 * 5 * 3) + 1).reshape(2, 3, 4, 5, 3).astype(
            "float32")
    if kind == "seq4":          # (batch, time, steps, channels)
        return np.sin(0.4 * np.arange(2 * 3 * 5 * 2)).reshape(2, 3, 5, 2).astype("float32")
    if kind == "frames":        # (batch, time, rows, cols, channels)
        return np.cos(0.3 * np.arange(2 * 3 * 4 * 5 * 2)).reshape(2, 3, 4, 5, 2).astype(
            "float32")
    return _base_inputs(kind)


CASES = {
    "conv1d_causal": ("seq", lambda L: [L.Conv1D(2, 3, padding="causal")]),
    "conv1d_causal_dilated": ("seq", lambda L: [L.Conv1D(2, 2, padding="causal",
                                                         dilation_rate=2, activation="relu")]),
    "conv3d": ("vol", lambda L: [L.Conv3D(2, (2, 3, 2))]),
    "conv3d_same_strided": ("vol", lambda L: [L.Conv3D(2, 3, strides=2, padding="same")]),
    "conv3d_dilated": ("vol", lambda L: [L.Conv3D(2, 2, dilation_rate=(2, 1, 2),
                                                  activation="tanh")]),
    "conv3d_channels_first": ("vol_first", lambda L: [L.Conv3D(
        3, 2, data_format="channels_first", use_bias=False)]),
    "conv3d_transpose": ("vol", lambda L: [L.Conv3DTranspose(2, (3, 2, 2), strides=2)]),
    "conv3d_transpose_same": ("vol", lambda L: [L.Conv3DTranspose(
        2, (3, 1, 2), strides=(2, 3, 1), padding="same")]),
    "conv3d_transpose_small_kernel": ("vol", lambda L: [L.Conv3DTranspose(
        2, (1, 2, 2), strides=(3, 2, 2))]),
    "max_pooling3d": ("vol", lambda L: [L.Conv3D(2, 1), L.MaxPooling3D()]),
    "max_pooling3d_same": ("vol", lambda L: [L.Conv3D(2, 1), L.MaxPooling3D(
        3, strides=(2, 2, 1), padding="same")]),
    "average_pooling3d": ("vol", lambda L: [L.Conv3D(2, 1), L.AveragePooling3D(
        (2, 2, 3))]),
    "average_pooling3d_same": ("vol", lambda L: [L.Conv3D(2, 1), L.AveragePooling3D(
        3, strides=2, padding="same")]),
    "global_max_pooling3d": ("vol", lambda L: [L.Conv3D(2, 1), L.GlobalMaxPooling3D()]),
    "global_average_pooling3d": ("vol", lambda L: [L.Conv3D(2, 1), L.GlobalAveragePooling3D(
        keepdims=True)]),
    "up_sampling1d": ("seq", lambda L: [L.Dense(2), L.UpSampling1D(3)]),
    "up_sampling3d": ("vol", lambda L: [L.Conv3D(1, 2), L.UpSampling3D((1, 2, 3))]),
    "zero_padding1d": ("seq", lambda L: [L.Dense(2), L.ZeroPadding1D((2, 1))]),
    "zero_padding3d": ("vol", lambda L: [L.Conv3D(1, 2), L.ZeroPadding3D(((1, 0), 2, (0, 1)))]),
    "cropping1d": ("seq", lambda L: [L.Dense(2), L.Cropping1D((1, 2))]),
    "cropping3d": ("vol", lambda L: [L.Conv3D(1, 1), L.Cropping3D(((1, 0), (1, 2), 1))]),
    "adaptive_average_pooling1d": ("seq", lambda L: [L.Dense(2),
                                                     L.AdaptiveAveragePooling1D(3)]),
    "adaptive_max_pooling2d": ("image", lambda L: [L.Conv2D(2, 1),
                                                   L.AdaptiveMaxPooling2D((2, 4))]),
    "adaptive_average_pooling3d": ("vol", lambda L: [L.Conv3D(2, 1),
                                                     L.AdaptiveAveragePooling3D((3, 2, 4))]),
}


def minimal_cell(keras, units, output_size=None):
    """The keras.io RNN guide's MinimalRNNCell (a user cell), with an optional
    output narrower than its state."""
    ops = keras.ops

    class MinimalRNNCell(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units
            if output_size is not None:
                self.output_size = output_size

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                          initializer="uniform", name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                    initializer="uniform",
                                                    name="recurrent_kernel")

        def call(self, inputs, states):
            h = ops.matmul(inputs, self.kernel)
            output = ops.tanh(h + ops.matmul(states[0], self.recurrent_kernel))
            if output_size is not None:
                return output[:, :output_size], [output]
            return output, [output]

    return MinimalRNNCell(units)


# name -> (input kind, function of the keras module returning the layers of a Sequential)
KERAS_CASES = {
    "rnn_user_cell_seq": ("seq", lambda K: [K.layers.RNN(minimal_cell(K, 2),
                                                         return_sequences=True)]),
    "rnn_user_cell_narrow_output": ("seq", lambda K: [K.layers.RNN(
        minimal_cell(K, 3, output_size=2), return_sequences=True)]),
    "rnn_stacked_user_cells": ("seq", lambda K: [K.layers.RNN(
        [minimal_cell(K, 2), minimal_cell(K, 3)], go_backwards=True)]),
    "rnn_stacked_builtin_cells": ("seq", lambda K: [K.layers.RNN(
        K.layers.StackedRNNCells([K.layers.LSTMCell(2), K.layers.GRUCell(3)]),
        return_sequences=True)]),
    "rnn_lstm_cell_masked": ("ids", lambda K: [K.layers.Embedding(6, 3, mask_zero=True),
                                               K.layers.RNN(K.layers.LSTMCell(2))]),
    "rnn_user_cell_masked": ("ids", lambda K: [K.layers.Embedding(6, 3, mask_zero=True),
                                               K.layers.RNN(minimal_cell(K, 2),
                                                            return_sequences=True)]),
}

KERAS_CASES.update({
    "additive_attention": ("seq", "functional", lambda K, x: K.layers.AdditiveAttention()(
        [K.layers.Dense(3)(x), x])),
    "additive_attention_unscaled_key": ("seq", "functional", lambda K, x: K.layers.
                                        AdditiveAttention(use_scale=False)(
                                            [K.layers.Dense(3)(x), x, K.layers.Dense(3)(x)])),
    "rms_normalization": ("seq", lambda K: [K.layers.Dense(4), K.layers.RMSNormalization()]),
    "rms_normalization_axes": ("image", lambda K: [K.layers.Conv2D(2, 1),
                                                   K.layers.RMSNormalization(axis=(2, 3))]),
    "depthwise_conv1d": ("seq", lambda K: [K.layers.DepthwiseConv1D(2, depth_multiplier=2,
                                                                    activation="tanh")]),
    "depthwise_conv1d_same": ("seq", lambda K: [K.layers.DepthwiseConv1D(
        3, strides=2, padding="same")]),
    "separable_conv1d": ("seq", lambda K: [K.layers.SeparableConv1D(4, 2, depth_multiplier=2,
                                                                    padding="same")]),
    "spectral_normalization": ("flat", lambda K: [K.layers.SpectralNormalization(
        K.layers.Dense(3), power_iterations=2)]),
    "dot_function": ("seq", "functional", lambda K, x: K.layers.dot(
        [K.layers.Dense(3)(x), x], axes=(2, 2))),
})
KERAS_CASES.update({
    "einsum_dense_matrix": ("flat", lambda K: [K.layers.EinsumDense("ab,bc->ac", 4,
                                                                    bias_axes="c")]),
    "einsum_dense_heads": ("seq", lambda K: [K.layers.EinsumDense(
        "abc,cde->abde", (None, 2, 3), bias_axes="de", activation="relu")]),
    "einsum_dense_ellipsis": ("image", lambda K: [K.layers.EinsumDense("...b,bc->...c", 2)]),
    "einsum_dense_right_ellipsis": ("seq", lambda K: [K.layers.EinsumDense(
        "ab...,bc->ac...", (2, 3), bias_axes="c")]),
})
KERAS_CASES.update({
    "conv_lstm1d_seq": ("seq4", lambda K: [K.layers.ConvLSTM1D(2, 2, return_sequences=True)]),
    "conv_lstm2d_same": ("frames", lambda K: [K.layers.ConvLSTM2D(2, 3, padding="same")]),
    "conv_lstm2d_strided_backwards": ("frames", lambda K: [K.layers.ConvLSTM2D(
        3, 2, strides=(2, 1), go_backwards=True, return_sequences=True)]),
    "conv_lstm2d_channels_first": ("frames", lambda K: [K.layers.ConvLSTM2D(
        2, 2, data_format="channels_first", return_sequences=True)]),
})
KERAS_CASES.update({
    "reversible_embedding_tied": ("ids", "functional", lambda K, x: _reversible(K, x, True)),
    "reversible_embedding_untied_capped": ("ids", "functional", lambda K, x: _reversible(
        K, x, False, 0.5)),
})
KERAS_CASES.update({
    "group_query_attention_self": ("seq", "functional", lambda K, x: K.layers.
                                   GroupQueryAttention(2, 4, 2)(x, x)),
    "group_query_attention_causal_gate": ("seq", "functional", lambda K, x: K.layers.
                                          GroupQueryAttention(3, 2, 1, use_gate=True)(
                                              K.layers.Dense(3)(x), x,
                                              use_causal_mask=True)),
    "group_query_attention_window": ("seq", "functional", lambda K, x: K.layers.
                                     GroupQueryAttention(2, 2, 2, sliding_window=2,
                                                         use_bias=False)(x, x)),
})
TRAINING = {"spectral_normalization"}      # called with training=True

NAMES = list(CASES) + list(KERAS_CASES)


def _reversible(K, ids, tie, cap=None):
    layer = K.layers.ReversibleEmbedding(6, 3, tie_weights=tie, logit_soft_cap=cap)
    return layer(K.layers.Dense(3)(layer(ids)), reverse=True)


def call(model, x, name):
    return model(x, training=True) if name in TRAINING else model(x)


def build(keras, name):
    """(model, inputs) for case `name`, weights set."""
    if name in CASES:
        kind, make = CASES[name]
        model = keras.Sequential(make(keras.layers))
    elif len(KERAS_CASES[name]) == 3:
        kind, _, make = KERAS_CASES[name]
        x = case_inputs(kind)
        inp = keras.Input(shape=x.shape[1:], dtype=x.dtype.name)
        model = keras.Model(inp, make(keras, inp))
    else:
        kind, make = KERAS_CASES[name]
        model = keras.Sequential(make(keras))
    x = case_inputs(kind)
    model(x)
    for k, w in enumerate(model.weights):
        w.assign(weight_value(tuple(w.shape), k))
    return model, x
