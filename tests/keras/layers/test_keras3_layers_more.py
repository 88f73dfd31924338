"""Conv3D/Conv3DTranspose, causal Conv1D, the 3-D and adaptive pooling layers
and the 1-D/3-D reshaping layers against Keras 3.15: outputs and gradients for
identical weights and inputs (the cases of layer_cases_more.py, values
recorded from TensorFlow 2.21 / Keras 3.15 into layer_expected_more.py by
tools/record_keras_layers_more.py), eagerly and inside a traced step."""

import numpy as np
import pytest

import runtime as tf
from tests.keras import layer_cases_more
from tests.keras.layer_expected_more import EXPECTED


def _loss_and_grads(model, x, name):
    with tf.GradientTape() as tape:
        out = layer_cases_more.call(model, x, name)
        loss = tf.reduce_sum(tf.square(out))
    return out, tape.gradient(loss, model.trainable_weights)


def _check(name, out, grads):
    want = EXPECTED[name]
    np.testing.assert_allclose(np.asarray(out), np.array(want["output"]), atol=2e-5)
    assert len(grads) == len(want["grads"])
    for got, value in zip(grads, want["grads"]):
        np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(got)), np.array(value),
                                   rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("name", list(layer_cases_more.NAMES))
def test_eager_matches_keras(name):
    model, x = layer_cases_more.build(tf.keras, name)
    _check(name, *_loss_and_grads(model, x, name))


@pytest.mark.parametrize("name", ["conv1d_causal", "conv3d_same_strided",
                                  "conv3d_transpose_same", "max_pooling3d_same",
                                  "average_pooling3d_same", "zero_padding3d",
                                  "adaptive_average_pooling3d", "rnn_user_cell_seq",
                                  "rnn_stacked_builtin_cells", "rnn_user_cell_masked",
                                  "additive_attention", "spectral_normalization",
                                  "separable_conv1d", "rms_normalization_axes",
                                  "conv_lstm2d_strided_backwards", "einsum_dense_heads",
                                  "group_query_attention_causal_gate"])
def test_traced_step_matches_keras(name):
    model, x = layer_cases_more.build(tf.keras, name)
    step = tf.function(lambda x: _loss_and_grads(model, x, name))
    _check(name, *step(tf.constant(x)))


def test_functional_shapes_and_configs():
    L = tf.keras.layers
    inp = tf.keras.Input((4, 5, 6, 3))
    y = L.Conv3D(2, 3, padding="same", strides=(1, 2, 2))(inp)
    assert y.shape == (None, 4, 3, 3, 2)
    y = L.Conv3DTranspose(2, 2, strides=2)(y)
    assert y.shape == (None, 8, 6, 6, 2)
    y = L.MaxPooling3D()(y)
    assert y.shape == (None, 4, 3, 3, 2)
    y = L.AdaptiveMaxPooling3D(2)(y)
    assert y.shape == (None, 2, 2, 2, 2)
    model = tf.keras.Model(inp, L.GlobalAveragePooling3D()(y))
    assert model(np.ones((3, 4, 5, 6, 3), "float32")).shape == (3, 2)
    conv = L.Conv1D(4, 3, padding="causal")
    assert conv.get_config()["padding"] == "causal"
    assert L.Conv1D.from_config(conv.get_config()).padding == "causal"
    assert L.MaxPooling3D().get_config()["strides"] == (2, 2, 2)
    assert L.ZeroPadding3D(2).get_config()["padding"] == ((2, 2), (2, 2), (2, 2))
    assert L.Cropping1D().get_config()["cropping"] == (1, 1)
    assert L.AdaptiveAveragePooling2D(3).get_config()["output_size"] == (3, 3)
    assert L.MaxPool3D is L.MaxPooling3D and L.Convolution3D is L.Conv3D


def test_dropouts_identity_at_inference_and_noisy_in_training():
    L = tf.keras.layers
    x = np.linspace(-1, 1, 60).reshape(2, 3, 2, 5, 1).astype("float32") * np.ones(
        (1, 1, 1, 1, 4), "float32")
    for layer in (L.GaussianDropout(0.4, seed=1), L.AlphaDropout(0.3, seed=2),
                  L.SpatialDropout3D(0.5, seed=3)):
        np.testing.assert_array_equal(layer(x), x)
        y = np.asarray(layer(x, training=True))
        assert y.shape == x.shape and not np.allclose(y, x)
    y = np.asarray(L.SpatialDropout3D(0.5, seed=3)(x, training=True))
    kept = y != 0                     # one decision per (sample, channel)
    assert (kept == kept[:, :1, :1, :1, :]).all() or (x == 0).any()
    y = np.asarray(L.AlphaDropout(0.5, seed=4)(np.zeros((200, 50), "float32"), training=True))
    assert len(np.unique(np.round(y, 5))) == 2    # a * 0 + b and a * alpha_p + b
    assert L.AlphaDropout(0.3).get_config()["noise_shape"] is None


def test_bad_arguments_are_value_errors():
    L = tf.keras.layers
    with pytest.raises(ValueError, match="kernel_size"):
        L.Conv3D(2, (2, 2))
    with pytest.raises(ValueError, match="padding"):
        L.Conv3D(2, 2, padding="causal")
    with pytest.raises(ValueError, match="rate"):
        L.GaussianDropout(1.5)


def test_rnn_states_config_and_functional_shape():
    L = tf.keras.layers
    layer = L.RNN([L.LSTMCell(2), L.SimpleRNNCell(3)], return_state=True)
    out = layer(np.ones((2, 4, 3), "float32"))
    # as Keras 3.15: output, [h, c] of the LSTM cell, [h] of the SimpleRNN cell
    assert len(out) == 3 and out[0].shape == (2, 3)
    assert [s.shape for s in out[1]] == [(2, 2), (2, 2)] and [s.shape for s in out[2]] == [
        (2, 3)]
    np.testing.assert_allclose(out[0], out[2][0])
    config = layer.get_config()
    assert sorted(config) == ["cell", "dtype", "go_backwards", "name", "return_sequences",
                              "return_state", "stateful", "trainable", "unroll",
                              "zero_output_for_mask"]
    assert config["cell"]["class_name"] == "StackedRNNCells"
    again = L.RNN.from_config(config)
    assert [type(c).__name__ for c in again.cell.cells] == ["LSTMCell", "SimpleRNNCell"]
    inp = tf.keras.Input((5, 3))
    assert L.RNN(L.GRUCell(4), return_sequences=True)(inp).shape == (None, 5, 4)
    with pytest.raises(ValueError, match="state_size"):
        L.RNN(L.Dense(2))


def test_more_layer_configs():
    L = tf.keras.layers
    assert L.AdditiveAttention().get_config()["use_scale"] is True
    assert "score_mode" not in L.AdditiveAttention().get_config()
    assert L.RMSNormalization().get_config()["epsilon"] == 1e-6
    layer = L.SpectralNormalization(L.Dense(3), power_iterations=2)
    config = layer.get_config()
    assert config["power_iterations"] == 2 and config["layer"]["class_name"] == "Dense"
    again = L.SpectralNormalization.from_config(config)
    assert type(again.layer) is L.Dense and again.layer.units == 3
    assert L.DepthwiseConv1D(3).get_config()["depth_multiplier"] == 1
    assert L.SeparableConvolution1D is L.SeparableConv1D
    with pytest.raises(ValueError, match="power_iterations"):
        L.SpectralNormalization(L.Dense(2), power_iterations=0)
    with pytest.raises(ValueError, match="layer"):
        L.Wrapper("dense")


def test_einsum_dense_shapes_config_and_initializer_fans():
    L = tf.keras.layers
    layer = L.EinsumDense("abc,cde->abde", (None, 2, 3), bias_axes="de")
    inp = tf.keras.Input((4, 5))
    assert layer(inp).shape == (None, None, 2, 3)      # as Keras 3.15: None in output_shape
    assert [tuple(w.shape) for w in layer.weights] == [(5, 2, 3), (2, 3)]
    config = layer.get_config()
    assert config["output_shape"] == (None, 2, 3) and config["bias_axes"] == "de"
    again = L.EinsumDense.from_config(config)
    assert again.equation == "abc,cde->abde"
    # glorot over fan_in 5 (axis c) and fan_out 6 (axes d, e): limit sqrt(6 / 11)
    big = L.EinsumDense("ab,bcd->acd", (40, 50), kernel_initializer="glorot_uniform")
    big.build((None, 30))
    kernel = big.kernel.numpy()
    assert np.abs(kernel).max() <= np.sqrt(6 / (30 + 2000)) + 1e-6
    assert np.abs(kernel).max() > 0.9 * np.sqrt(6 / (30 + 2000))
    with pytest.raises(ValueError, match="einsum equation"):
        L.EinsumDense("ab->b", 3)


def test_conv_lstm_shapes_config_and_states():
    L = tf.keras.layers
    layer = L.ConvLSTM2D(2, 3, return_state=True)
    outs = layer(tf.keras.Input((3, 4, 5, 2)))
    assert [o.shape for o in outs] == [(None, 2, 3, 2)] * 3
    assert [tuple(w.shape) for w in layer.weights] == [(3, 3, 2, 8), (3, 3, 2, 8), (8,)]
    np.testing.assert_array_equal(layer.weights[2].numpy(), [0, 0, 1, 1, 0, 0, 0, 0])
    config = layer.get_config()
    assert config["filters"] == 2 and config["kernel_size"] == (3, 3)
    assert config["recurrent_initializer"] == {   # Keras 3.15 serializes it
        "module": "keras.initializers", "class_name": "Orthogonal",
        "config": {"seed": None, "gain": 1.0}, "registered_name": None}
    assert config["return_state"]
    again = L.ConvLSTM2D.from_config(config)
    assert again.cell.kernel_size == (3, 3)
    x = np.ones((2, 3, 4, 5, 2), "float32")
    y = np.asarray(L.ConvLSTM1D(2, 2, dropout=0.5, recurrent_dropout=0.5, seed=1)(
        x[:, :, 0], training=True))
    assert y.shape == (2, 4, 2) and np.isfinite(y).all()


def test_group_query_attention_config_scores_and_errors():
    L = tf.keras.layers
    layer = L.GroupQueryAttention(4, 4, 2)
    x = np.ones((2, 3, 5), "float32")
    out, scores = layer(x, x, return_attention_scores=True)
    assert out.shape == (2, 3, 5) and scores.shape == (2, 4, 3, 3)
    paths = [w.path.split("/", 1)[1] for w in layer.weights]
    assert layer.name.startswith("grouped_query_attention")
    assert paths == ["query/kernel", "query/bias", "key/kernel", "key/bias", "value/kernel",
                     "value/bias", "attention_output/kernel", "attention_output/bias"]
    config = layer.get_config()
    assert config["num_key_value_heads"] == 2 and config["sliding_window"] is None
    assert L.GroupQueryAttention.from_config(config).num_repeats == 2
    with pytest.raises(ValueError, match="divisible"):
        L.GroupQueryAttention(4, 3, 2)
