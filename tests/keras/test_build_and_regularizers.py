"""Model.build, Keras 3's weight names and paths, get_config / from_config of
every layer, add_loss, regularizers and their part in fit. Expected values
were recorded from TensorFlow 2.21 with Keras 3."""

import io

import numpy as np
import pytest

import runtime as tf

layers = tf.keras.layers
R = tf.keras.regularizers


def test_sequential_build_creates_weights_with_keras_names_and_paths():
    tf.keras.backend.clear_session()          # names start again at "dense"
    model = tf.keras.Sequential([layers.Dense(4, activation="relu"),
                                 layers.BatchNormalization(), layers.Dense(2)])
    model.build((None, 3))
    # Keras 3 (TF 2.21): [(v.name, v.path) for v in model.weights]
    assert [(v.name, v.path) for v in model.weights] == [
        ("kernel", "sequential/dense/kernel"), ("bias", "sequential/dense/bias"),
        ("gamma", "sequential/batch_normalization/gamma"),
        ("beta", "sequential/batch_normalization/beta"),
        ("moving_mean", "sequential/batch_normalization/moving_mean"),
        ("moving_variance", "sequential/batch_normalization/moving_variance"),
        ("kernel", "sequential/dense_1/kernel"), ("bias", "sequential/dense_1/bias")]
    assert [v.name for v in model.non_trainable_weights] == ["moving_mean", "moving_variance"]
    out = io.StringIO()
    model.summary(print_fn=lambda line, **kw: out.write(line + "\n"))
    assert "Total params: 42 (168.00 B)" in out.getvalue()        # Keras 3's count
    assert "unbuilt" not in out.getvalue()


def test_functional_and_subclassed_paths_and_subclassed_build():
    d = layers.Dense(2, name="solo")
    d.build((None, 3))
    assert (d.kernel.name, d.kernel.path) == ("kernel", "solo/kernel")
    assert d.get_build_config() == {"input_shape": (None, 3)}
    inputs = tf.keras.Input((3,))
    model = tf.keras.Model(inputs, layers.Dense(2, name="head")(inputs))
    assert [v.path for v in model.weights] == ["head/kernel", "head/bias"]

    class Net(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d = layers.Dense(3, name="inner")

        def call(self, x):
            return self.d(x)

    net = Net(name="net")
    net.build((None, 5))      # Keras 3 builds nothing here (a warning); tf.keras 2 did
    assert [v.path for v in net.weights] == ["net/inner/kernel", "net/inner/bias"]
    assert net(np.ones((2, 5), np.float32)).shape == (2, 3)


def _all_layers():
    return [layers.Dense(3, activation="relu", kernel_regularizer="l2"), layers.Flatten(),
            layers.Dropout(0.3, seed=1), layers.ReLU(max_value=6.0), layers.Softmax(axis=1),
            layers.Embedding(5, 2, mask_zero=True), layers.Reshape((2, -1)),
            layers.Activation("tanh"), layers.Conv2D(2, 3, padding="same"),
            layers.MaxPooling2D(2), layers.BatchNormalization(momentum=0.9),
            layers.LayerNormalization(axis=[1, 2]), layers.Add(), layers.Subtract(),
            layers.Multiply(), layers.Average(), layers.Maximum(), layers.Minimum(),
            layers.Concatenate(axis=1)]


@pytest.mark.parametrize("layer", _all_layers(), ids=lambda lay: type(lay).__name__)
def test_every_layer_round_trips_through_its_config(layer):
    config = layer.get_config()
    assert config["name"] == layer.name and config["trainable"] is True
    assert config["dtype"]["config"] == {"name": "float32"}
    clone = type(layer).from_config(config)
    assert type(clone) is type(layer) and clone.get_config() == config
    again = tf.keras.layers.deserialize(tf.keras.layers.serialize(layer))
    assert again.get_config() == config


def test_dense_config_matches_keras_3_keys():
    config = layers.Dense(4, activation="relu", name="d").get_config()
    # The keys of Keras 3's Dense config (TF 2.21)
    assert list(config) == ["name", "trainable", "dtype", "units", "activation", "use_bias",
                            "kernel_initializer", "bias_initializer", "kernel_regularizer",
                            "bias_regularizer", "kernel_constraint", "bias_constraint",
                            "quantization_config"]
    assert config["quantization_config"] is None
    assert config["kernel_initializer"] == {
        "module": "keras.initializers", "class_name": "GlorotUniform",
        "config": {"seed": None, "input_axes": None, "output_axes": None},
        "registered_name": None}


def test_regularizer_values_and_configs():
    x = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    # Keras 3 (TF 2.21): 0.6500000357627869 1.4250000715255737 3.500000238418579
    assert float(R.l1(0.1)(x)) == pytest.approx(0.6500000357627869, rel=1e-6)
    assert float(R.l2(0.1)(x)) == pytest.approx(1.4250000715255737, rel=1e-6)
    assert float(R.l1_l2(0.1, 0.2)(x)) == pytest.approx(3.500000238418579, rel=1e-6)
    assert R.L1L2(l1=0.1).get_config() == {"l1": pytest.approx(0.1), "l2": 0.0}
    assert R.get("l2").get_config() == {"l2": pytest.approx(0.01)}
    assert R.serialize(R.l2(0.5)) == {"module": "keras.regularizers", "class_name": "L2",
                                      "config": {"l2": 0.5}, "registered_name": None}
    with pytest.raises(ValueError, match="regularizer identifier: 'l3'"):
        R.get("l3")


def test_layer_losses_activity_then_weight_penalties_as_keras():
    x = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    d = layers.Dense(2, kernel_initializer="ones", activity_regularizer=R.l2(0.5),
                     kernel_regularizer="l2", bias_regularizer=R.l1(0.3))
    d(x)
    # Keras 3 (TF 2.21): [6.625, 0.03999999910593033, 0.0] (activity / batch size first)
    np.testing.assert_allclose([float(v) for v in d.losses], [6.625, 0.04, 0.0], rtol=1e-6)

    class WithLoss(layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs))
            return inputs

    layer = WithLoss()
    layer(x)
    layer(x)                       # each outermost call starts afresh
    assert [float(v) for v in layer.losses] == [2.5]


def _fit_with_regularizers(trainable_first=True):
    rng = np.random.RandomState(0)
    x = rng.randn(8, 3).astype("float32")
    y = (rng.rand(8) > 0.5).astype("float32")
    model = tf.keras.Sequential([
        tf.keras.Input((3,)),
        layers.Dense(4, activation="tanh", kernel_regularizer=R.l2(0.1),
                     activity_regularizer=R.l1(0.05)),
        layers.Dense(1, bias_regularizer="l1")])
    model.set_weights([np.linspace(-1, 1, v.numpy().size).reshape(v.shape).astype("float32")
                       for v in model.weights])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return model, x, y


def test_fit_evaluate_train_on_batch_add_the_layer_losses_as_keras():
    model, x, y = _fit_with_regularizers()
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    # Keras 3 (TF 2.21), same weights and data
    np.testing.assert_allclose(history.history["loss"], [1.520522, 1.203707], atol=2e-6)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(0.993508, abs=2e-6)
    assert model.train_on_batch(x, y) == pytest.approx(0.993508, abs=2e-6)
    np.testing.assert_allclose(model.weights[0].numpy()[0], [
        -0.8983200192451477, -0.6965399980545044, -0.6297399997711182, -0.3424600064754486],
        atol=2e-5)


def test_frozen_layer_is_not_trained_after_compile():
    model, x, y = _fit_with_regularizers()
    model.layers[0].trainable = False
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    kernel = model.weights[0].numpy().copy()
    last = model.weights[-1].numpy().copy()
    model.fit(x, y, epochs=1, verbose=0, shuffle=False)
    assert len(model.trainable_weights) == 2
    np.testing.assert_array_equal(model.weights[0].numpy(), kernel)
    assert (model.weights[-1].numpy() != last).any()


def test_own_trainable_weights_come_before_non_trainable_ones():
    class Mixed(layers.Layer):
        def build(self, input_shape):
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                         name="count")
            self.w = self.add_weight(shape=(input_shape[-1],), name="w")

        def call(self, x):
            return x * self.w

    layer = Mixed(name="mixed")
    layer(np.ones((1, 2), np.float32))
    # Keras 3 (TF 2.21): [v.path for v in layer.weights] == ["mixed/w", "mixed/count"]
    assert [v.path for v in layer.weights] == ["mixed/w", "mixed/count"]


def test_custom_loop_adds_sum_of_model_losses_as_the_guide_does():
    """The "training loop from scratch" guide: loss += sum(model.losses) inside a
    tf.function step gives what train_on_batch gives (the same weights)."""
    model, x, y = _fit_with_regularizers()
    twin, _, _ = _fit_with_regularizers()
    loss_fn = tf.keras.losses.MeanSquaredError()
    optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
            loss += sum(model.losses)
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        return loss

    got = float(train_step(x, y))
    want = twin.train_on_batch(x, y)
    assert got == pytest.approx(want, rel=1e-6)
    assert len(model.losses) == 3          # activity, kernel and bias penalties
    for a, b in zip(model.get_weights(), twin.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_freezing_a_model_freezes_its_layers_and_batch_norm_statistics():
    model = tf.keras.Sequential([tf.keras.Input((2,)), layers.BatchNormalization(),
                                 layers.Dense(1)])
    model.trainable = False
    # Keras 3 (TF 2.21): [False, False], no trainable weights, moving_mean stays [0, 0]
    assert [lay.trainable for lay in model.layers] == [False, False]
    assert model.trainable_weights == []
    model.compile(optimizer="sgd", loss="mse")
    x = np.random.RandomState(0).rand(8, 2).astype("float32") * 3
    with pytest.warns(UserWarning, match="The model does not have any trainable weights"):
        model.fit(x, x[:, :1], verbose=0)
    assert model.layers[0].moving_mean.numpy().tolist() == [0.0, 0.0]
    model.trainable = True
    assert [lay.trainable for lay in model.layers] == [True, True]
    assert len(model.trainable_weights) == 4


def test_weight_order_and_paths_of_nested_models_match_keras():
    inner = tf.keras.Sequential([layers.Dense(3, name="i1"),
                                 layers.BatchNormalization(name="ibn")], name="inner")
    a, b = tf.keras.Input((4,), name="a"), tf.keras.Input((4,), name="b")
    shared = layers.Dense(4, name="shared")
    h = inner(layers.Concatenate(name="cat")([shared(a), shared(b)]))
    model = tf.keras.Model([a, b], layers.Dense(1, name="out")(
        layers.LayerNormalization(name="ln")(h)), name="outer")

    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__(name="sub")
            self.bn = layers.BatchNormalization(name="bn")
            self.d = layers.Dense(2, name="d")
            self.blocks = [layers.Dense(2, name="b0"), layers.Dense(2, name="b1")]

        def call(self, x):
            x = self.d(self.bn(x))
            for block in self.blocks:
                x = block(x)
            return x

    sub = Sub()
    sub(np.ones((2, 3), "float32"))
    # Keras 3 (TF 2.21), the same models
    got = [[v.path for v in model.weights], [v.path for v in model.trainable_weights],
           [v.path for v in model.non_trainable_weights], [lay.name for lay in model.layers],
           [v.path for v in sub.weights], [v.path for v in sub.trainable_weights],
           [lay.name for lay in sub.layers]]
    assert got == [
        ['shared/kernel', 'shared/bias', 'inner/i1/kernel', 'inner/i1/bias',
         'inner/ibn/gamma', 'inner/ibn/beta', 'inner/ibn/moving_mean',
         'inner/ibn/moving_variance', 'ln/gamma', 'ln/beta', 'out/kernel', 'out/bias'],
        ['shared/kernel', 'shared/bias', 'inner/i1/kernel', 'inner/i1/bias',
         'inner/ibn/gamma', 'inner/ibn/beta', 'ln/gamma', 'ln/beta', 'out/kernel',
         'out/bias'],
        ['inner/ibn/moving_mean', 'inner/ibn/moving_variance'],
        ['a', 'b', 'shared', 'cat', 'inner', 'ln', 'out'],
        ['sub/bn/gamma', 'sub/bn/beta', 'sub/bn/moving_mean', 'sub/bn/moving_variance',
         'sub/d/kernel', 'sub/d/bias', 'sub/b0/kernel', 'sub/b0/bias', 'sub/b1/kernel',
         'sub/b1/bias'],
        ['sub/bn/gamma', 'sub/bn/beta', 'sub/d/kernel', 'sub/d/bias', 'sub/b0/kernel',
         'sub/b0/bias', 'sub/b1/kernel', 'sub/b1/bias'],
        ['bn', 'd', 'b0', 'b1'],
    ]


def test_layers_have_get_and_set_weights_as_in_keras():
    dense = layers.Dense(2)
    dense.build((None, 3))
    dense.set_weights([np.ones((3, 2), np.float32), np.array([0.5, -0.5], np.float32)])
    assert [w.tolist() for w in dense.get_weights()] == [[[1.0, 1.0]] * 3, [0.5, -0.5]]
    with pytest.raises(ValueError, match="weight shape \\(3, 2\\) is not compatible"):
        dense.set_weights([np.ones((2, 2)), np.zeros(2)])
