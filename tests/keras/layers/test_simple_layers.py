"""Identity, Masking, ActivityRegularization, UnitNormalization and Dot.
Expected values come from TF 2.21's Keras 3 for the same inputs."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.layers
X = np.array([[[1., 2.], [0., 0.], [3., 0.]], [[0., 0.], [5., 6.], [0., 0.]]], "float32")
A = np.arange(6, dtype="float32").reshape(2, 3)
B = np.arange(6, 12, dtype="float32").reshape(2, 3)
A3 = np.arange(12, dtype="float32").reshape(2, 3, 2)
B3 = np.arange(16, dtype="float32").reshape(2, 4, 2)


def both(layer_call, *args):
    """The layer's output eagerly and inside tf.function."""
    return [layer_call(*args), tf.function(layer_call)(*args)]


def test_identity_and_masking():
    for out in both(L.Identity(), tf.constant(X)):
        np.testing.assert_array_equal(out.numpy(), X)
    masking = L.Masking()
    for out in both(masking, tf.constant(X)):
        np.testing.assert_array_equal(out.numpy(), X)
    assert masking.compute_mask(tf.constant(X)).numpy().tolist() == [[True, False, True],
                                                                     [False, True, False]]
    out = L.Masking(mask_value=1.0)(np.array([[[1., 1.], [1., 2.]]], "float32"))
    np.testing.assert_array_equal(out.numpy(), [[[0., 0.], [1., 2.]]])
    assert masking.get_config()["mask_value"] == 0.0            # TF 2.21's config key
    assert L.Masking.from_config(L.Masking(2.5).get_config()).mask_value == 2.5


def test_masking_skips_the_masked_steps_of_an_rnn():
    rnn = L.SimpleRNN(3, kernel_initializer="ones", recurrent_initializer="orthogonal")
    model = tf.keras.Sequential([tf.keras.Input((3, 2)), L.Masking(), rnn])
    out = model(X).numpy()
    np.testing.assert_allclose(out[0], rnn(X[:1, [0, 2]]).numpy()[0], rtol=1e-6)
    np.testing.assert_allclose(out[1], rnn(X[1:, [1]]).numpy()[0], rtol=1e-6)


def test_activity_regularization_adds_its_loss():
    layer = L.ActivityRegularization(l1=0.1, l2=0.01)
    np.testing.assert_array_equal(layer(A).numpy(), A)
    np.testing.assert_allclose([float(v) for v in layer.losses], [1.024999976158142])  # TF 2.21
    traced = tf.function(lambda t: (layer(t), layer.losses[0]))
    np.testing.assert_allclose(float(traced(tf.constant(A))[1]), 1.024999976158142)
    config = layer.get_config()
    assert config["l1"] == 0.1 and config["l2"] == 0.01 and "activity_regularizer" not in config
    x = tf.constant(A)
    with tf.GradientTape() as tape:
        tape.watch(x)
        layer(x)
        loss = layer.losses[0]
    # d/dx (0.1 * sum|x| + 0.01 * sum x^2) / 2
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), (0.1 * np.sign(A) + 0.02 * A) / 2,
                               rtol=1e-6)


def test_unit_normalization():
    for out in both(L.UnitNormalization(), tf.constant(A)):
        np.testing.assert_allclose(out.numpy(), [[0.0, 0.4472140073776245, 0.8944270014762878],
                                                 [0.42426401376724243, 0.565684974193573,
                                                  0.7071070075035095]], rtol=1e-5)
    out = L.UnitNormalization(axis=[1, 2])(A3).numpy()
    np.testing.assert_allclose(out[1], [[0.28252899646759033, 0.3296169936656952],
                                        [0.37670499086380005, 0.4237929880619049],
                                        [0.47088199853897095, 0.5179700255393982]], rtol=1e-5)
    assert L.UnitNormalization().get_config()["axis"] == -1
    with pytest.raises(TypeError, match="Invalid value for `axis`"):
        L.UnitNormalization(axis="x")


def test_dot():
    for out in both(L.Dot(axes=1), [tf.constant(A), tf.constant(B)]):
        np.testing.assert_array_equal(out.numpy(), [[23.0], [122.0]])
    out = L.Dot(axes=1, normalize=True)([A, B]).numpy()
    np.testing.assert_allclose(out, [[0.8426550030708313], [0.992821991443634]], rtol=1e-6)
    want = [[[1, 3, 5, 7], [3, 13, 23, 33], [5, 23, 41, 59]],
            [[111, 137, 163, 189], [145, 179, 213, 247], [179, 221, 263, 305]]]
    for out in both(L.Dot(axes=(2, 2)), [tf.constant(A3), tf.constant(B3)]):
        np.testing.assert_array_equal(out.numpy(), want)
    sym = L.Dot(axes=-1)([tf.keras.Input((3, 2)), tf.keras.Input((4, 2))])
    assert tuple(sym.shape) == (None, 3, 4)
    assert L.Dot(axes=1).get_config()["axes"] == 1
    with pytest.raises(ValueError, match="Incompatible input shapes"):
        L.Dot(axes=1)([A, B3])


def test_dot_gradient():
    a, b = tf.constant(A), tf.constant(B)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        loss = tf.reduce_sum(L.Dot(axes=1)([a, b]))
    ga, gb = tape.gradient(loss, [a, b])
    np.testing.assert_array_equal(ga.numpy(), B)
    np.testing.assert_array_equal(gb.numpy(), A)


@pytest.mark.parametrize("layer", [L.Identity(), L.Masking(1.5), L.ActivityRegularization(0.2),
                                   L.UnitNormalization([1, 2]), L.Dot((1, 2), normalize=True)],
                         ids=lambda layer: type(layer).__name__)
def test_config_round_trips(layer):
    config = layer.get_config()
    assert type(layer).from_config(config).get_config() == config
    assert L.deserialize(L.serialize(layer)).get_config() == config


def test_new_layers_survive_a_keras_file(tmp_path):
    # (TF 2.21's Keras loads this file too and gives the same outputs to 1e-6)
    a, b = tf.keras.Input((3, 4)), tf.keras.Input((5, 4))
    h = L.UnitNormalization()(L.GroupNormalization(groups=2)(a))
    out = L.Identity()(L.ActivityRegularization(l2=0.1)(L.Dot(axes=(2, 2))([h, L.Masking()(b)])))
    model = tf.keras.Model([a, b], out)
    x1 = np.random.RandomState(0).rand(2, 3, 4).astype("float32")
    x2 = np.random.RandomState(1).rand(2, 5, 4).astype("float32")
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    assert [type(layer).__name__ for layer in loaded.layers][1:4] == [
        "GroupNormalization", "InputLayer", "UnitNormalization"]
    np.testing.assert_allclose(loaded([x1, x2]).numpy(), model([x1, x2]).numpy(), rtol=1e-6)
