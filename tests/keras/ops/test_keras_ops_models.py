"""`keras.ops` in models, as the keras.io guides use them: a functional
model whose ops are recorded Operations, a custom layer written with ops
(the "making new layers" guide), and the control-flow ops. Values are Keras
3.15's (TF 2.21) as worked out by hand for these inputs."""

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from runtime.keras import ops


def test_functional_model_from_ops():
    x = keras.Input((3,))
    y = ops.sum(ops.square(x), axis=-1)
    assert isinstance(y, keras.KerasTensor) and y.shape == (None,) and y.dtype == "float32"
    model = keras.Model(x, y)
    out = model(tf.constant([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]]))
    np.testing.assert_allclose(out.numpy(), [14.0, 1.25])
    # Keras 3 lists only layers in model.layers; the ops are Operations
    assert [type(layer).__name__ for layer in model.layers] == ["InputLayer"]


def test_functional_model_ops_after_a_layer_and_in_fit():
    inputs = keras.Input((4,))
    h = keras.layers.Dense(3, kernel_initializer="ones")(inputs)
    out = ops.mean(ops.relu(h), axis=-1, keepdims=True)
    assert out.shape == (None, 1)
    model = keras.Model(inputs, out)
    got = model(tf.constant([[1.0, 1.0, 1.0, -1.0]]))
    np.testing.assert_allclose(got.numpy(), [[2.0]])
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(np.ones((4, 4), "float32"), np.ones((4, 1), "float32"), epochs=1,
                        verbose=0)
    assert np.isfinite(history.history["loss"][0])


class Linear(keras.layers.Layer):
    """The keras.io guide's layer: `ops.matmul(inputs, self.w) + self.b`."""

    def __init__(self, units=2):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b


def test_custom_layer_with_ops_eager_traced_and_gradient():
    layer = Linear(2)
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    np.testing.assert_allclose(layer(x).numpy(), [[3.0, 3.0], [2.0, 2.0]])
    traced = tf.function(lambda t: layer(t))
    np.testing.assert_allclose(traced(x).numpy(), [[3.0, 3.0], [2.0, 2.0]])
    with tf.GradientTape() as tape:
        loss = ops.sum(layer(x))
    grad_w, grad_b = tape.gradient(loss, [layer.w, layer.b])
    np.testing.assert_allclose(tf.convert_to_tensor(grad_w).numpy(), [[4.0, 4.0], [1.0, 1.0]])
    np.testing.assert_allclose(tf.convert_to_tensor(grad_b).numpy(), [2.0, 2.0])


def test_control_flow_ops():
    assert int(ops.cond(ops.convert_to_tensor(True), lambda: 1, lambda: 2)) == 1
    assert int(ops.while_loop(lambda i: i < 5, lambda i: i + 2, 0)) == 6
    i, s = ops.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), (0, 0))
    assert (int(i), int(s)) == (3, 3)
    assert int(ops.fori_loop(0, 4, lambda i, v: v + i, 0)) == 6
    carry, ys = ops.scan(lambda c, x: (c + x, c * 2.0), 0.0, ops.convert_to_tensor([1.0, 2.0, 3.0]))
    assert float(carry) == 6.0
    np.testing.assert_allclose(ys.numpy(), [0.0, 2.0, 6.0])
    out = ops.vectorized_map(lambda r: ops.sum(r), ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(out.numpy(), [3.0, 7.0])


def test_control_flow_in_tf_function():
    @tf.function
    def f(n):
        return ops.fori_loop(0, n, lambda i, v: v + ops.cast(i, "float32"), 0.0)
    assert float(f(tf.constant(4))) == 6.0


def test_shape_and_dtype_helpers():
    x = ops.ones((2, 3))
    assert ops.shape(x) == (2, 3) and ops.ndim(x) == 2
    assert ops.dtype(x) == "float32"
    assert isinstance(ops.convert_to_numpy(x), np.ndarray)
    assert ops.shape(keras.Input((5,))) == (None, 5)


def test_creation_and_split_helpers():
    assert ops.shape(ops.empty((2, 3))) == (2, 3) and ops.dtype(ops.empty((1,))) == "float32"
    assert ops.dtype(ops.empty_like(ops.ones((2,), dtype="int32"))) == "int32"
    parts = ops.dsplit(ops.reshape(ops.arange(8.0), (1, 2, 4)), 2)
    assert [ops.shape(p) for p in parts] == [(1, 2, 2), (1, 2, 2)]
    np.testing.assert_allclose(parts[1].numpy().ravel(), [2.0, 3.0, 6.0, 7.0])
    out = ops.map(lambda r: r * 2.0, ops.convert_to_tensor([[1.0], [2.0]]))
    np.testing.assert_allclose(out.numpy(), [[2.0], [4.0]])
    assert ops.is_tensor(ops.ones(1)) and not ops.is_tensor(np.ones(1))


def test_ops_on_keras_tensors_with_several_outputs():
    x = keras.Input((4,))
    values, indices = ops.top_k(x, 2)
    assert values.shape == (None, 2) and indices.dtype == "int32"
    model = keras.Model(x, [values, indices])
    v, i = model(tf.constant([[1.0, 4.0, 2.0, 3.0]]))
    np.testing.assert_allclose(v.numpy(), [[4.0, 3.0]])
    np.testing.assert_array_equal(i.numpy(), [[1, 3]])


def test_custom_gradient_and_associative_scan():
    @ops.custom_gradient
    def clipped_identity(x):
        def grad(upstream):
            return ops.clip(upstream, -0.5, 0.5)
        return x, grad
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(clipped_identity(x) * 3.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.5, 0.5])
    out = ops.associative_scan(lambda a, b: a * b, ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_allclose(out.numpy(), [1.0, 2.0, 6.0, 24.0])
    rev = ops.associative_scan(lambda a, b: a + b, ops.convert_to_tensor([1.0, 2.0, 3.0]),
                               reverse=True)
    np.testing.assert_allclose(rev.numpy(), [6.0, 5.0, 3.0])


_ON_BATCH = {
    "take_along_axis": lambda x, i: ops.take_along_axis(x, i, axis=2),
    "reshape": lambda x, i: ops.reshape(x, (-1, 12)),
    "einsum": lambda x, i: ops.einsum("bij,bkj->bik", x, x),
    "norm": lambda x, i: ops.norm(x, axis=-1),
    "split": lambda x, i: ops.split(x, 2, axis=-1)[1],
    "diagonal": lambda x, i: ops.diagonal(x, axis1=1, axis2=2),
    "tile": lambda x, i: ops.tile(x, (1, 2, 1)),
    "pad": lambda x, i: ops.pad(x, ((0, 0), (1, 1), (0, 0))),
    "take": lambda x, i: ops.take(x, [0, 2], axis=1),
    "moments": lambda x, i: ops.moments(x, [2])[1],
    "layer_normalization": lambda x, i: ops.layer_normalization(x),
    "one_hot": lambda x, i: ops.one_hot(ops.argmax(x, axis=-1), 4),
    "where": lambda x, i: ops.where(x > 0.5, x, 0.0),
    "stack": lambda x, i: ops.stack([x, x], axis=1),
    "top_k": lambda x, i: ops.top_k(x, 2)[0],
    "dot_product_attention": lambda x, i: ops.dot_product_attention(
        ops.expand_dims(x, 2), ops.expand_dims(x, 2), ops.expand_dims(x, 2)),
    "median": lambda x, i: ops.median(x, axis=-1),
    "conv": lambda x, i: ops.conv(x, ops.ones((2, 4, 5))),
    "adaptive_average_pool": lambda x, i: ops.adaptive_average_pool(x, 2),
}


@pytest.mark.parametrize("name", sorted(_ON_BATCH))
def test_ops_in_functional_model_with_unknown_batch(name):
    """Each op on KerasTensors of batch None gives the model that computes
    what the op gives eagerly on the concrete batch."""
    fn = _ON_BATCH[name]
    x, i = keras.Input((3, 4)), keras.Input((3, 1), dtype="int32")
    symbolic = fn(x, i)
    model = keras.Model([x, i], symbolic)
    xv = tf.constant(np.linspace(0.0, 1.0, 24, dtype="float32").reshape(2, 3, 4))
    iv = tf.constant(np.array([[[1], [3], [0]], [[2], [-1], [1]]], dtype="int32"))
    got, want = model([xv, iv]), fn(xv, iv)
    assert tuple(symbolic.shape[1:]) == tuple(want.shape[1:])
    assert symbolic.dtype == want.dtype.name
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_shape_of_a_traced_unknown_batch_is_a_tensor():
    """As in the keras.io GAN guide: `batch_size = ops.shape(x)[0]` then used
    as a shape inside the traced step."""
    @tf.function(input_signature=[tf.TensorSpec([None, 3], "float32")])
    def f(x):
        batch = ops.shape(x)[0]
        assert ops.shape(x)[1] == 3
        return ops.zeros((batch, 2)) + ops.sum(x)
    out = f(tf.constant([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]]))
    assert out.shape == (2, 2)
    np.testing.assert_allclose(out.numpy(), np.full((2, 2), 7.0))


def test_conversion_dtypes_as_keras():
    """Keras 3.15's (TF 2.21) dtypes for convert_to_tensor(v), add(v, 1.0)
    and add(v, 1), recorded for these values."""
    values = [np.array([1.0]), [1, 2.5], [[1, 2], [3, 4]], True, [True, False], np.float64(2.0),
              np.int64(3), np.array([1], "int64"), 3, 2.5]
    assert [ops.dtype(ops.convert_to_tensor(v)) for v in values] == [
        "float64", "float32", "int32", "bool", "bool", "float64", "int64", "int64", "int32",
        "float32"]
    assert [ops.dtype(ops.add(v, 1.0)) for v in values] == [
        "float64", "float32", "float32", "float32", "float32", "float64", "float32", "float32",
        "float32", "float32"]
    assert [ops.dtype(ops.add(v, 1)) for v in values] == [
        "float64", "float32", "int32", "int32", "int32", "float64", "int64", "int64", "int32",
        "float32"]
