"""The noise layers (random, so checked by their statistics and by being the
identity outside training) and get_config/from_config of the layers added
to follow Keras 3's layer set; Bidirectional and the recurrent layers' dropout."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.layers


def test_gaussian_noise_only_when_training():
    layer = L.GaussianNoise(0.5, seed=1)
    x = np.zeros((200, 50), "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    noisy = layer(x, training=True).numpy()
    assert abs(noisy.std() - 0.5) < 0.02 and abs(noisy.mean()) < 0.02
    traced = tf.function(lambda t: layer(t, training=True))(tf.constant(x)).numpy()
    assert abs(traced.std() - 0.5) < 0.02


@pytest.mark.parametrize("cls, shape", [(L.SpatialDropout1D, (40, 6, 30)),
                                        (L.SpatialDropout2D, (40, 3, 4, 30))])
def test_spatial_dropout_drops_whole_channels(cls, shape):
    layer = cls(0.5, seed=3)
    x = np.ones(shape, "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    for out in (layer(x, training=True).numpy(),
                tf.function(lambda t: layer(t, training=True))(tf.constant(x)).numpy()):
        assert set(np.unique(out)) <= {0.0, 2.0}
        flat = out.reshape(shape[0], -1, shape[-1])
        assert (flat == flat[:, :1, :]).all()          # one decision per (sample, channel)
        assert 0.4 < (flat[:, 0, :] == 0).mean() < 0.6


def test_noise_gradient_passes_kept_values():
    layer = L.SpatialDropout1D(0.5, seed=0)
    x = tf.ones((4, 3, 8))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=True)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), y.numpy())


CONFIGURED = [
    L.Conv1D(4, 3, strides=2, padding="same", activation="relu"),
    L.Conv2DTranspose(3, 2, strides=2), L.DepthwiseConv2D(3, depth_multiplier=2),
    L.SeparableConv2D(5, 3), L.AveragePooling1D(3), L.AveragePooling2D((2, 3)),
    L.MaxPooling1D(), L.GlobalAveragePooling1D(), L.GlobalMaxPooling2D(keepdims=True),
    L.UpSampling2D((1, 2)), L.ZeroPadding2D(((1, 2), (3, 4))), L.Cropping2D(1),
    L.LeakyReLU(0.1), L.PReLU(shared_axes=[1]), L.ELU(0.5), L.RepeatVector(3),
    L.Permute((2, 1)), L.GaussianNoise(0.1), L.SpatialDropout2D(0.2),
    L.Attention(use_scale=True), L.MultiHeadAttention(2, 4),
    L.SimpleRNN(3, return_state=True), L.LSTM(2, go_backwards=True),
    L.Bidirectional(L.GRU(2, return_sequences=True), merge_mode="ave"),
    L.TimeDistributed(L.Conv1D(2, 1)), L.Normalization(mean=[1.0], variance=[2.0]),
    L.StringLookup(vocabulary=["a", "b"]), L.IntegerLookup(vocabulary=[4, 7]),
    L.CategoryEncoding(5, output_mode="count"), L.Rescaling(2.0),
]


@pytest.mark.parametrize("layer", CONFIGURED, ids=lambda layer: type(layer).__name__)
def test_get_config_round_trips(layer):
    config = layer.get_config()
    # Keras 3.15's SpatialDropout config has no `trainable` (test_layer_config_keys.py)
    assert config["name"] == layer.name and ("trainable" in config) != (
        "SpatialDropout" in type(layer).__name__)
    again = type(layer).from_config(config)
    assert type(again) is type(layer)
    assert again.get_config() == config


def test_bidirectional_names_its_copies_and_keeps_keras_weight_order():
    layer = L.Bidirectional(L.LSTM(2, name="enc"))
    layer(np.ones((1, 3, 4), "float32"))
    assert layer.forward_layer.name == "forward_enc"
    assert layer.backward_layer.name == "backward_enc" and layer.backward_layer.go_backwards
    assert [tuple(w.shape) for w in layer.weights] == [(4, 8), (2, 8), (8,)] * 2


def test_functional_model_passes_the_embedding_mask_through_bidirectional():
    """Padding steps are skipped: a sequence gives the same output with its
    padding cut off, in a functional model with a free time axis."""
    inp = tf.keras.Input(shape=(None,), dtype="int32")
    h = L.Embedding(6, 3, mask_zero=True)(inp)
    h = L.Bidirectional(L.LSTM(4, return_sequences=True))(h)
    model = tf.keras.Model(inp, L.Dense(1)(L.GRU(2)(h)))
    assert model.count_params() == 18 + 256 + 72 + 3          # Keras's counts
    padded = model(np.array([[4, 5, 0, 0]], "int32")).numpy()
    np.testing.assert_allclose(model(np.array([[4, 5]], "int32")).numpy(), padded, rtol=1e-6)
    traced = tf.function(lambda t: model(t))(tf.constant([[4, 5, 0, 0]])).numpy()
    np.testing.assert_allclose(traced, padded, rtol=1e-6)


@pytest.mark.parametrize("cls", [L.SimpleRNN, L.LSTM, L.GRU])
def test_rnn_dropout_only_in_training(cls):
    x = np.cos(np.arange(60, dtype="float32")).reshape(3, 5, 4)
    plain, dropped = cls(3, seed=1), cls(3, dropout=0.5, recurrent_dropout=0.5, seed=1)
    plain(x)
    dropped(x)
    for a, b in zip(plain.weights, dropped.weights):
        b.assign(a.numpy())
    np.testing.assert_allclose(dropped(x).numpy(), plain(x).numpy(), rtol=1e-6)
    noisy = dropped(x, training=True).numpy()
    assert np.abs(noisy - plain(x).numpy()).max() > 1e-3
    step = tf.function(lambda t: dropped(t, training=True))
    assert np.abs(step(tf.constant(x)).numpy() - plain(x).numpy()).max() > 1e-3


@pytest.mark.parametrize("traced", [False, True])
def test_lstm_fused_backward_equals_the_generic_loop(traced):
    """Without a mask the LSTM runs lstm_fused.py (a hand-written backward
    loop); an all-True mask takes the generic loop, whose gradient is the
    autodiff of the step. Gradients for inputs, initial states and weights agree."""
    layer = L.LSTM(3, return_sequences=True)
    x = tf.constant(np.sin(np.arange(40, dtype="float32")).reshape(2, 5, 4))
    h0 = tf.constant([[0.1, -0.2, 0.3], [0.0, 0.5, -0.4]])
    c0 = tf.constant([[0.2, 0.1, -0.3], [0.4, 0.0, 0.1]])
    layer(x)

    def grads(mask):
        with tf.GradientTape() as tape:
            tape.watch([x, h0, c0])
            out = layer(x, initial_state=[h0, c0], mask=mask)
            loss = tf.reduce_sum(out * out)
        return tape.gradient(loss, [x, h0, c0] + layer.trainable_weights)
    run = tf.function(grads) if traced else grads
    fused = run(None)
    generic = run(tf.ones((2, 5), tf.bool))
    for a, b in zip(fused, generic):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_sequence_outputs_keep_a_static_time_axis():
    """return_sequences outputs keep the time length, so Flatten -> Dense
    builds (Keras's parameter counts)."""
    model = tf.keras.Sequential([
        tf.keras.Input((5, 3)), L.Bidirectional(L.GRU(4, return_sequences=True)),
        L.LSTM(3, return_sequences=True), L.SimpleRNN(2, return_sequences=True),
        L.Flatten(), L.Dense(1)])
    assert [layer.count_params() for layer in model.layers] == [216, 144, 12, 0, 11]
    spec = tf.TensorSpec([None, 5, 3])
    out = tf.function(lambda x: model.layers[2](model.layers[1](model.layers[0](x)))) \
        .get_concrete_function(spec).structured_outputs
    assert out.shape.as_list() == [None, 5, 2]


X_STEP = np.array([[0.5, -1.0, 0.2], [0.1, 0.3, -0.7]], "float32")
H_PREV = np.array([[0.2, -0.1], [0.0, 0.4]], "float32")
C_PREV = np.array([[0.3, 0.1], [-0.2, 0.5]], "float32")
# cell(x, states) with weights layer_cases.weight_value(shape, k): from TF 2.21 / Keras 3
CELL_STEPS = [
    ("LSTMCell", [H_PREV, C_PREV], [[0.306962, 0.192891], [-0.1277, -0.057055]],
     [[0.596834, 0.408639], [-0.470983, -0.185505]]),
    ("GRUCell", [H_PREV], [[0.219591, 0.125219], [-0.113659, 0.006319]], None),
    ("SimpleRNNCell", [H_PREV], [[0.246755, 0.141451], [0.383688, 0.324127]], None),
]


@pytest.mark.parametrize("name, states, want_h, want_c", CELL_STEPS,
                         ids=[c[0] for c in CELL_STEPS])
def test_a_cell_called_on_one_step_matches_keras(name, states, want_h, want_c):
    from tests.keras.layer_cases import weight_value
    cell = getattr(L, name)(2)
    cell(X_STEP, states)
    for k, w in enumerate(cell.weights):
        w.assign(weight_value(tuple(w.shape), k))
    out, new = cell(X_STEP, states)
    np.testing.assert_allclose(out.numpy(), want_h, atol=1e-5)
    np.testing.assert_allclose(new[0].numpy(), want_h, atol=1e-5)
    if want_c is not None:
        np.testing.assert_allclose(new[1].numpy(), want_c, atol=1e-5)
