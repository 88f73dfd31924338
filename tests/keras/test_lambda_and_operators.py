"""`layers.Lambda` and Python operators on KerasTensors, as Keras 3 (TF 2.21):
`x + 1`, `x * y`, `x[:, 0]` ... are recorded in the functional graph as
operations (rows of `summary()`, not `model.layers`); a runtime op given a
KerasTensor (`tf.nn.relu(x)`) is Keras's ValueError."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.keras.utils import naming

keras = tf.keras
layers = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names(monkeypatch):
    naming.reset_names()
    monkeypatch.setenv("COLUMNS", "80")


A = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.0
B = np.full((2, 3), 2.0, np.float32)
W = np.arange(6, dtype=np.float32).reshape(3, 2)

OPERATORS = [
    # (expression on KerasTensors x, y (or arrays a, b), Keras's output shape)
    (lambda x, y: x + 1, (None, 3)),
    (lambda x, y: 1 + x, (None, 3)),
    (lambda x, y: x * y, (None, 3)),
    (lambda x, y: x - y, (None, 3)),
    (lambda x, y: 3 - x, (None, 3)),
    (lambda x, y: x / 2, (None, 3)),
    (lambda x, y: 1 / y, (None, 3)),
    (lambda x, y: -x, (None, 3)),
    (lambda x, y: abs(x), (None, 3)),
    (lambda x, y: x ** 2, (None, 3)),
    (lambda x, y: x // y, (None, 3)),
    (lambda x, y: x[:, 0], (None,)),
    (lambda x, y: x @ W, (None, 2)),
    (lambda x, y: (x + 1) * y - x / y, (None, 3)),
]


@pytest.mark.parametrize("expr, shape", OPERATORS)
def test_operator_on_keras_tensors_builds_a_model(expr, shape):
    x, y = keras.Input(shape=(3,)), keras.Input(shape=(3,))
    out = expr(x, y)
    assert isinstance(out, keras.KerasTensor)
    assert out.shape == shape and out.dtype == "float32"
    model = keras.Model([x, y], out)
    np.testing.assert_allclose(np.asarray(model([A, B])), expr(A, B), rtol=1e-6)
    np.testing.assert_allclose(model.predict([A, B], verbose=0), expr(A, B), rtol=1e-6)


def test_comparison_gives_bool():
    x = keras.Input(shape=(3,))
    out = x > 0
    assert out.shape == (None, 3) and out.dtype == "bool"
    np.testing.assert_array_equal(np.asarray(keras.Model(x, out)(A)), A > 0)


def test_operations_are_summary_rows_not_layers(capsys):
    x = keras.Input(shape=(3,))
    model = keras.Model(x, (x + 1) * 2)
    assert [type(layer).__name__ for layer in model.layers] == ["InputLayer"]
    assert model.weights == []
    model.summary()
    out = capsys.readouterr().out
    assert "│ add (Add)" in out and "│ multiply (Multiply)" in out
    assert " Total params: 0 (0.00 B)" in out


def test_operators_train_with_layers():
    x = keras.Input(shape=(3,))
    h = layers.Dense(4)(x)
    model = keras.Model(x, layers.Dense(1)(h * 2 + x[:, :1]))
    model.compile(optimizer="sgd", loss="mse")
    loss = model.fit(A, np.ones((2, 1), np.float32), epochs=2, verbose=0).history["loss"]
    assert len(loss) == 2 and np.isfinite(loss).all()


@pytest.mark.parametrize("fn", [lambda x: tf.nn.relu(x), lambda x: tf.add(x, 1),
                                lambda x: tf.reduce_sum(x, axis=1)])
def test_runtime_op_on_keras_tensor_is_kerass_value_error(fn):
    with pytest.raises(ValueError, match=r"(?s)A KerasTensor cannot be used as input to a "
                       r"TensorFlow function.*wrap `tf_fn` in a layer"):
        fn(keras.Input(shape=(3,)))


def test_lambda_with_arguments_eager_and_symbolic():
    layer = layers.Lambda(lambda t, a: t * a, arguments={"a": 3.0})
    np.testing.assert_allclose(np.asarray(layer(A)), A * 3.0)
    x = keras.Input(shape=(3,))
    out = layer(x)
    assert out.shape == (None, 3)
    np.testing.assert_allclose(np.asarray(keras.Model(x, out)(A)), A * 3.0)


@pytest.mark.parametrize("output_shape, expected", [
    (None, (None, 6)), ((7,), (None, 7)), (lambda s: (s[0], 9), (None, 9))])
def test_lambda_output_shape(output_shape, expected):
    layer = layers.Lambda(lambda t: tf.concat([t, t], -1), output_shape=output_shape)
    assert layer(keras.Input(shape=(3,))).shape == expected


def test_lambda_gets_training_when_it_asks_for_it():
    layer = layers.Lambda(lambda t, training=None: t * (2.0 if training else 1.0))
    np.testing.assert_allclose(np.asarray(layer(A, training=True)), A * 2.0)
    np.testing.assert_allclose(np.asarray(layer(A)), A)


def test_lambda_in_sequential_trains():
    model = keras.Sequential([keras.Input((3,)), layers.Lambda(lambda t: t * 2),
                              layers.Dense(2)])
    assert [type(layer).__name__ for layer in model.layers] == ["Lambda", "Dense"]
    model.compile(optimizer="sgd", loss="mse")
    model.fit(A, B[:, :2], epochs=1, verbose=0)
    np.testing.assert_allclose(model.predict(A, verbose=0),
                               np.asarray(model.layers[1](A * 2)), rtol=1e-5)


def test_lambda_needs_a_callable():
    with pytest.raises(TypeError, match="unsupported callable"):
        layers.Lambda(3)
