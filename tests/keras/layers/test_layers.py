"""tf.keras layers and models: values against numpy, lazy building, weight
order and names, the training flag, wrong-rank errors, and the same results
eagerly, under tf.function(model) and with a @tf.function call."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.keras.utils import naming

layers = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    naming.reset_names()
    tf.random.set_seed(7)


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# --- Dense --------------------------------------------------------------------------

def test_dense_is_matmul_plus_bias_with_activation_by_name_or_callable():
    x = _x(4, 3)
    for activation, ref in (("relu", lambda v: np.maximum(v, 0)), (None, lambda v: v),
                            (tf.nn.sigmoid, lambda v: 1 / (1 + np.exp(-v))),
                            ("softmax", lambda v: np.exp(v) / np.exp(v).sum(-1, keepdims=True))):
        d = layers.Dense(5, activation=activation)
        out = d(x)
        assert out.dtype == tf.float32 and out.shape == (4, 5)
        d.bias.assign(np.arange(5, dtype=np.float32))
        want = ref(x @ d.kernel.numpy() + np.arange(5, dtype=np.float32))
        np.testing.assert_allclose(d(x).numpy(), want, rtol=1e-5, atol=1e-6)


def test_dense_builds_lazily_with_glorot_uniform_kernel_and_zero_bias():
    d = layers.Dense(64)
    assert not d.built and d.weights == []
    d(tf.ones([2, 32]))
    assert d.built
    assert [v.path for v in d.weights] == ["dense/kernel", "dense/bias"]
    limit = np.sqrt(6 / (32 + 64))
    k = d.kernel.numpy()
    assert k.shape == (32, 64) and np.abs(k).max() <= limit and np.abs(k).max() > 0.9 * limit
    assert np.array_equal(d.bias.numpy(), np.zeros(64, np.float32))
    assert layers.Dense(3, use_bias=False)(tf.ones([1, 2])).shape == (1, 3)


def test_weights_are_reproducible_after_set_seed():
    def build():
        tf.random.set_seed(123)
        d = layers.Dense(3)
        d(tf.ones([1, 4]))
        return d.kernel.numpy()
    a, b = build(), build()
    assert np.array_equal(a, b)
    assert not np.array_equal(a, layers.Dense(3)(tf.ones([1, 4])).numpy())


def test_dense_on_rank_3_input_works_on_the_last_axis():
    x = _x(2, 3, 4)
    d = layers.Dense(5)
    out = d(x)
    assert out.shape == (2, 3, 5)
    np.testing.assert_allclose(out.numpy(), x @ d.kernel.numpy(), rtol=1e-5, atol=1e-6)


def test_wrong_rank_and_wrong_last_dimension_name_the_layer_and_the_expectation():
    d = layers.Dense(3)
    with pytest.raises(ValueError) as e:
        d(tf.ones([3]))
    assert str(e.value) == ("Input 0 with name 'None' of layer 'dense' is incompatible with "
                            "the layer: "
                            "expected min_ndim=2, found ndim=1. Full shape received: (3,)")
    d(tf.ones([2, 4]))
    with pytest.raises(ValueError) as e:
        d(tf.ones([2, 5]))
    assert str(e.value) == ("Input 0 with name 'None' of layer 'dense' is incompatible with "
                            "the layer: "
                            "expected axis -1 of input shape to have value 4, but received "
                            "input with shape (2, 5)")


def test_invalid_constructor_arguments():
    with pytest.raises(ValueError, match="expected a positive integer. Received: units=0"):
        layers.Dense(0)
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        layers.Dense(2, activation="nope")
    with pytest.raises(ValueError, match="Received: rate=1.5"):
        layers.Dropout(1.5)
    # Keras 3.15: "Unrecognized keyword arguments passed to Dense: {'unitz': 3}"
    with pytest.raises(ValueError, match=r"passed to Dense: \{'unitz': 3\}"):
        layers.Dense(2, unitz=3)


# --- the other layers ---------------------------------------------------------------

def test_flatten_relu_softmax_embedding():
    x = _x(2, 3, 4)
    assert layers.Flatten(input_shape=(3, 4))(x).shape == (2, 12)
    assert layers.Flatten()(tf.ones([3])).shape == (3, 1)
    np.testing.assert_array_equal(layers.ReLU()(x).numpy(), np.maximum(x, 0))
    relu = layers.ReLU(max_value=0.5, negative_slope=0.1, threshold=0.2)
    want = np.where(x >= 0.2, x, 0.1 * (x - 0.2))
    np.testing.assert_allclose(relu(x).numpy(), np.minimum(want, 0.5), rtol=1e-6)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(layers.Softmax()(x).numpy(), e / e.sum(-1, keepdims=True),
                               rtol=1e-5)
    emb = layers.Embedding(10, 3)
    ids = np.array([[1, 2], [9, 0]])
    out = emb(ids)
    assert out.shape == (2, 2, 3)
    table = emb.embeddings.numpy()
    assert np.abs(table).max() <= 0.05
    np.testing.assert_array_equal(out.numpy(), table[ids])


def test_default_names_count_per_class_like_keras():
    names = [layers.Dense(1).name, layers.Dense(1).name, layers.ReLU().name,
             layers.Flatten().name, tf.keras.Sequential().name]
    assert names == ["dense", "dense_1", "re_lu", "flatten", "sequential"]


# --- dropout and the training flag ----------------------------------------------------

class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(50)
        self.dropout = layers.Dropout(0.5)

    def call(self, inputs, training=None):
        return self.dropout(self.dense(inputs))


def test_dropout_only_when_training_reaches_sublayers_through_the_model():
    net = Net()
    x = tf.ones([4, 10])
    plain = net(x).numpy()
    assert np.array_equal(plain, net(x, training=False).numpy())
    dropped = net(x, training=True).numpy()
    zero = dropped == 0
    assert 0.2 < zero.mean() < 0.8
    np.testing.assert_allclose(dropped[~zero], 2 * plain[~zero], rtol=1e-5)
    assert np.array_equal(layers.Dropout(0.5)(x).numpy(), x.numpy())


def test_sequential_passes_training_and_matches_the_layers_applied_in_turn():
    model = tf.keras.Sequential([layers.Dense(8, activation="relu"), layers.Dropout(0.5),
                                 layers.Dense(2)])
    x = _x(3, 4)
    out = model(x)
    d1, _, d2 = model.layers
    want = np.maximum(x @ d1.kernel.numpy(), 0) @ d2.kernel.numpy()
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6)
    assert (model(x, training=True).numpy() != out.numpy()).any()
    assert [v.path for v in model.trainable_variables] == [   # Keras 3 (TF 2.21) paths
        "sequential/dense/kernel", "sequential/dense/bias", "sequential/dense_1/kernel",
        "sequential/dense_1/bias"]
    with pytest.raises(TypeError, match="must be an instance of class Layer"):
        model.add("dense")


def test_weights_in_attribute_order_and_trainable_flag():
    class Two(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.second = layers.Dense(2)
            self.first = layers.Dense(3)

        def call(self, x):
            return self.second(self.first(x))
    m = Two()
    m(tf.ones([1, 4]))
    assert [v.shape.as_list() for v in m.trainable_variables] == [[3, 2], [2], [4, 3], [3]]
    m.first.trainable = False
    assert len(m.trainable_variables) == 2 and len(m.non_trainable_variables) == 2
    m.trainable = False
    assert m.trainable_variables == [] and len(m.variables) == 4


# --- graphs ---------------------------------------------------------------------------

def test_tf_function_of_a_model_traces_once_and_matches_eager():
    model = tf.keras.Sequential([layers.Flatten(), layers.Dense(6, activation="relu"),
                                 layers.Dense(3)])
    graph_model = tf.function(model)
    x = _x(5, 2, 2)
    out = graph_model(x)
    np.testing.assert_allclose(out.numpy(), model(x).numpy(), rtol=1e-6)
    graph_model(_x(5, 2, 2, seed=1))
    assert graph_model.experimental_get_tracing_count() == 1
    assert len(model.weights) == 4


def test_decorated_call_traces_per_training_value_and_creates_weights_once():
    class MyModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense1 = layers.Dense(4)
            self.dense2 = layers.Dense(5)

        @tf.function
        def call(self, inputs, training=True):
            y = self.dense2(self.dense1(inputs))
            if training:
                return tf.nn.dropout(y, 0.5)
            return y
    model = MyModel()
    x = tf.ones([10, 10])
    assert (model(x, training=True).numpy() == 0).any()
    a = model(x, training=False).numpy()
    assert np.array_equal(a, model(x, training=False).numpy())
    assert model.call.experimental_get_tracing_count() == 2
    assert len(model.trainable_variables) == 4


def test_a_tensor_if_in_call_is_converted_when_the_model_is_traced():
    class Gate(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(2, kernel_initializer="ones")

        def call(self, x):
            y = self.dense(x)
            if tf.reduce_sum(y) > 0:
                y = y * 10.0
            return y
    model = Gate()
    f = tf.function(model)
    np.testing.assert_allclose(f(tf.ones([1, 3])).numpy(), [[30.0, 30.0]])
    np.testing.assert_allclose(f(-tf.ones([1, 3])).numpy(), [[-3.0, -3.0]])
    assert f.experimental_get_tracing_count() == 1


def test_custom_layer_with_build_and_add_weight():
    class Scale(layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, inputs):
            return inputs * self.w
    s = Scale()
    assert s(tf.ones([2, 3])).shape == (2, 3) and s.built
    s.w.assign([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(s(tf.ones([1, 3])).numpy(), [[1.0, 2.0, 3.0]])
    assert [v.path for v in s.trainable_weights] == ["scale/w"]


# --- image layers -------------------------------------------------------------------

def _conv_valid(x, k):
    """Cross-correlation of x (n, h, w, c) with k (kh, kw, c, f), 'valid', stride 1."""
    kh, kw = k.shape[:2]
    h, w = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((x.shape[0], h, w, k.shape[3]), np.float64)
    for i in range(h):
        for j in range(w):
            out[:, i, j] = np.tensordot(x[:, i:i + kh, j:j + kw], k, axes=3)
    return out


def test_conv2d_and_max_pooling_match_numpy_eager_and_in_graph():
    x = _x(2, 6, 5, 3)
    conv = layers.Conv2D(4, 3, activation="relu")
    pool = layers.MaxPooling2D()
    out = pool(conv(x))
    assert conv.kernel.shape == (3, 3, 3, 4) and conv.bias.shape == (4,)
    conv_ref = np.maximum(_conv_valid(x, conv.kernel.numpy()), 0)        # (2, 4, 3, 4)
    pool_ref = conv_ref[:, :4, :2].reshape(2, 2, 2, 1, 2, 4).max(axis=(2, 4))
    np.testing.assert_allclose(out.numpy(), pool_ref, rtol=1e-5, atol=1e-6)
    graph = tf.function(lambda t: pool(conv(t)))(x)
    np.testing.assert_allclose(graph.numpy(), out.numpy(), rtol=1e-6)
    same = layers.Conv2D(2, (3, 3), strides=2, padding="same")(x)
    assert same.shape == (2, 3, 3, 2)
    with pytest.raises(ValueError, match="layer 'conv2d_2' is incompatible with the layer: "
                                         "expected min_ndim=4, found ndim=3"):
        layers.Conv2D(2, 3)(tf.ones([6, 5, 3]))
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=2"):
        layers.MaxPooling2D()(tf.ones([6, 5]))


def test_layers_on_inputs_with_unknown_dimensions_in_a_graph():
    dense, flatten = layers.Dense(2), layers.Flatten()

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    def f(x):
        return dense(x), flatten(x)
    x = _x(2, 4, 3)
    y, flat = f(x)
    assert y.shape == (2, 4, 2) and flat.shape == (2, 12)
    np.testing.assert_allclose(y.numpy(), x @ dense.kernel.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(flat.numpy(), x.reshape(2, 12))
    assert f(_x(5, 1, 3))[1].shape == (5, 3)


def test_add_weight_takes_keras_3_arguments():
    layer = layers.Layer()
    a = layer.add_weight((2, 3), initializer="zeros", name="a")
    b = layer.add_weight(shape=(4,), initializer="ones", trainable=False, name="b")
    assert a.shape == (2, 3) and a.name == "a" and a.path == "layer/a" and b.path == "layer/b"
    assert layer.trainable_weights == [a] and layer.non_trainable_weights == [b]
    with pytest.raises(TypeError, match="unexpected keyword argument 'shap'"):
        layer.add_weight(shap=(1,))
