"""BatchNormalization and LayerNormalization: outputs and moving statistics
against numpy, training vs inference, frozen layers, use in fit (one trace),
gradients against finite differences, and Keras's errors."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.keras.utils import naming
from tests.runtime.gradient_check import check_gradients

layers = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    naming.reset_names()


def np_norm(x, axes, gamma, beta, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


class Fixed:
    """Stands in for a weight Variable: `read_value()` gives a fixed tensor."""

    def __init__(self, tensor):
        self.tensor = tensor

    def read_value(self):
        return self.tensor


def test_batch_norm_training_uses_batch_statistics_and_updates_moving_ones():
    rng = np.random.default_rng(0)
    x = rng.normal(2.0, 3.0, (8, 3)).astype(np.float32)
    bn = layers.BatchNormalization(momentum=0.9, epsilon=1e-3)
    out = bn(x, training=True)
    assert [w.path for w in bn.weights] == ["batch_normalization/gamma",
                                            "batch_normalization/beta",
                                            "batch_normalization/moving_mean",
                                            "batch_normalization/moving_variance"]
    assert [w.path for w in bn.trainable_weights] == ["batch_normalization/gamma",
                                                      "batch_normalization/beta"]
    np.testing.assert_allclose(out.numpy(), np_norm(x, 0, 1.0, 0.0, 1e-3), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.1 * x.mean(0), rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.9 + 0.1 * x.var(0), rtol=1e-5)
    # inference (the default) normalizes with the moving statistics and changes nothing
    mm, mv = bn.moving_mean.numpy(), bn.moving_variance.numpy()
    np.testing.assert_allclose(bn(x).numpy(), (x - mm) / np.sqrt(mv + 1e-3), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(bn(x, training=False).numpy(), bn(x).numpy())
    np.testing.assert_array_equal(bn.moving_mean.numpy(), mm)
    # frozen: training=True behaves as inference (Keras 3)
    bn.trainable = False
    np.testing.assert_allclose(bn(x, training=True).numpy(), bn(x).numpy())
    np.testing.assert_array_equal(bn.moving_variance.numpy(), mv)


def test_batch_norm_on_a_channel_axis_in_a_graph_and_without_center_scale():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4, 3, 2, 5)).astype(np.float32)
    bn = layers.BatchNormalization(axis=1, center=False, scale=False, epsilon=0.01)
    step = tf.function(lambda v: bn(v, training=True))
    np.testing.assert_allclose(step(x).numpy(), np_norm(x, (0, 2, 3), 1.0, 0.0, 0.01),
                               rtol=1e-4, atol=1e-5)
    assert [w.path.split("/")[1] for w in bn.weights] == ["moving_mean",
                                                          "moving_variance"]
    assert bn.moving_mean.shape == (3,)
    step(x)
    np.testing.assert_allclose(bn.moving_mean.numpy(),
                               (1 - 0.99 ** 2) * x.mean((0, 2, 3)), rtol=1e-5)
    assert step.experimental_get_tracing_count() == 1


def test_layer_norm_against_numpy_on_one_and_several_axes():
    rng = np.random.default_rng(2)
    x = rng.normal(1.0, 2.0, (2, 3, 4)).astype(np.float32)
    ln = layers.LayerNormalization()
    np.testing.assert_allclose(ln(x).numpy(), np_norm(x, -1, 1.0, 0.0, 1e-3), rtol=1e-5,
                               atol=1e-5)
    assert [w.path for w in ln.weights] == ["layer_normalization/gamma",
                                            "layer_normalization/beta"]
    ln2 = layers.LayerNormalization(axis=[1, 2], epsilon=1e-5)
    ln2(x)
    ln2.gamma.assign(rng.normal(size=(3, 4)).astype(np.float32))
    ln2.beta.assign(rng.normal(size=(3, 4)).astype(np.float32))
    expected = np_norm(x, (1, 2), ln2.gamma.numpy(), ln2.beta.numpy(), 1e-5)
    np.testing.assert_allclose(ln2(x).numpy(), expected, rtol=1e-4, atol=1e-5)
    graph = tf.function(lambda v: ln2(v))
    np.testing.assert_allclose(graph(x).numpy(), expected, rtol=1e-4, atol=1e-5)
    ln3 = layers.LayerNormalization(axis=1, center=False)
    ln3(x)
    assert [w.path.split("/")[1] for w in ln3.weights] == ["gamma"]
    np.testing.assert_allclose(ln3(x).numpy(), np_norm(x, 1, 1.0, 0.0, 1e-3), rtol=1e-5,
                               atol=1e-5)


def test_batch_norm_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 3))
    bn = layers.BatchNormalization(dtype="float64")
    bn(x, training=True)

    def fn(x, gamma, beta):
        bn.gamma, bn.beta = Fixed(gamma), Fixed(beta)
        return bn(x, training=True)
    check_gradients(fn, [x, rng.uniform(0.5, 2.0, 3), rng.normal(size=3)], rtol=1e-5,
                    atol=1e-6)


def test_layer_norm_gradients_match_finite_differences():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(2, 3, 4))
    ln = layers.LayerNormalization(axis=[1, 2], dtype="float64")
    ln(x)

    def fn(x, gamma, beta):
        ln.gamma, ln.beta = Fixed(gamma), Fixed(beta)
        return ln(x)
    check_gradients(fn, [x, rng.uniform(0.5, 2.0, (3, 4)), rng.normal(size=(3, 4))],
                    rtol=1e-5, atol=1e-6)


def test_fit_updates_moving_statistics_and_traces_once():
    rng = np.random.default_rng(5)
    x = rng.normal(3.0, 2.0, (64, 4)).astype(np.float32)
    y = (x[:, 0] > 3.0).astype(np.int32)
    tf.random.set_seed(0)
    inputs = tf.keras.Input((4,))
    h = layers.BatchNormalization()(inputs)
    h = layers.Dense(8, activation="relu")(h)
    h = layers.LayerNormalization()(h)
    model = tf.keras.Model(inputs, layers.Dense(2)(h))
    model.compile(tf.keras.optimizers.Adam(0.05),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=16, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    bn = model.layers[1]
    assert [w.path for w in model.non_trainable_weights] == [
        "batch_normalization/moving_mean", "batch_normalization/moving_variance"]
    # 20 updates towards batch means near 3.0: 1 - 0.99 ** 20 of the way there
    np.testing.assert_allclose(bn.moving_mean.numpy(), (1 - 0.99 ** 20) * x.mean(0),
                               rtol=0.15)
    train = [f for (k, _), f in model._keras_state.functions.items() if k == "train"]
    assert train[0].experimental_get_tracing_count() == 1
    before = bn.moving_mean.numpy()
    model.predict(x, verbose=0)
    model.evaluate(x, y, verbose=0)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), before)


def test_normalization_errors_name_the_layer_and_the_expected_shape():
    bn = layers.BatchNormalization()
    bn(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"Input 0 with name 'None' of layer "
                                         r"'batch_normalization' is incompatible with the "
                                         r"layer: expected ndim=2, found ndim=3. Full shape "
                                         r"received: \(2, 3, 4\)"):
        bn(np.ones((2, 3, 4), np.float32))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 3, "
                                         r"but received input with shape \(2, 4\)"):
        bn(np.ones((2, 4), np.float32))
    with pytest.raises(IndexError, match=r"Axis 3 is out of bounds for input shape \(2, 3\)"):
        layers.BatchNormalization(axis=3)(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"Axis -1 of input tensor should have a defined "
                                         r"dimension but the layer received an input with "
                                         r"shape \(None, None\)"):
        layers.LayerNormalization()(tf.keras.Input((None,)))
