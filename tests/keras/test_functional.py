"""The functional API: `Input`, layers called on KerasTensors, `Model(inputs,
outputs)` with one or several inputs and outputs (lists and dicts),
`summary()` as Keras 3 prints it, `layers` / `get_layer`, the merge layers,
`Reshape`, `Activation`, and compile / fit / predict on functional models."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.keras.utils import naming

keras = tf.keras
layers = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names(monkeypatch):
    naming.reset_names()
    monkeypatch.setenv("COLUMNS", "80")      # summary's width follows the terminal


def mlp():
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(64, activation="relu")(x)
    outputs = layers.Dense(10, name="predictions")(x)
    return keras.Model(inputs=inputs, outputs=outputs)


def test_input_is_a_keras_tensor_with_a_free_batch_dimension():
    x = keras.Input(shape=(784,), name="digits")
    assert repr(x) == ("<KerasTensor shape=(None, 784), dtype=float32, sparse=False, "
                       "ragged=False, name=digits>")
    b = keras.Input((3,), batch_size=4, dtype="float64")
    assert (b.shape, b.dtype, b.name) == ((4, 3), "float64", "keras_tensor")
    assert keras.Input(batch_shape=(None, 5), dtype="int32").shape == (None, 5)
    assert x._keras_history[0].name == "digits"
    assert b._keras_history[0].name == "input_layer"
    with pytest.raises(ValueError, match="You must pass a `shape` argument."):
        keras.Input()
    with pytest.raises(ValueError, match="Cannot convert '3' to a shape."):
        keras.Input(shape=3)
    h = layers.Dense(64)(x)
    assert isinstance(h, keras.KerasTensor) and h.shape == (None, 64)


def test_functional_model_layers_call_and_summary(capsys):
    model = mlp()
    assert type(model).__name__ == "Functional" and isinstance(model, keras.Model)
    assert model.name == "functional"
    assert [layer.name for layer in model.layers] == ["digits", "dense_1", "dense",
                                                      "predictions"]
    assert model.get_layer("dense_1") is model.layers[1]
    assert model.get_layer(index=3).name == "predictions"
    with pytest.raises(ValueError, match=r"No such layer: zz. Existing layers are: "
                                         r"\['digits', 'dense_1', 'dense', 'predictions'\]."):
        model.get_layer("zz")
    x = np.random.default_rng(0).normal(size=(5, 784)).astype(np.float32)
    w = [v.numpy() for v in model.weights]
    h = np.maximum(np.maximum(x @ w[0] + w[1], 0) @ w[2] + w[3], 0)
    np.testing.assert_allclose(model(x).numpy(), h @ w[4] + w[5], rtol=1e-5, atol=1e-5)
    model.summary()
    assert capsys.readouterr().out == """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ digits (InputLayer)             │ (None, 784)            │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_1 (Dense)                 │ (None, 64)             │        50,240 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense (Dense)                   │ (None, 64)             │         4,160 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ predictions (Dense)             │ (None, 10)             │           650 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 55,050 (215.04 KB)
 Trainable params: 55,050 (215.04 KB)
 Non-trainable params: 0 (0.00 B)
"""


def test_wrong_input_shape_names_the_input_and_the_expected_shape():
    model = mlp()
    with pytest.raises(ValueError, match=r"Input 0 with name 'digits' of layer 'functional' "
                                         r"is incompatible with the layer: expected "
                                         r"shape=\(None, 784\), found shape=\(2, 5\)"):
        model(np.zeros((2, 5), np.float32))
    with pytest.raises(ValueError, match=r"Input 0 with name 'None' of layer 'dense_1' is "
                                         r"incompatible with the layer: expected axis -1 of input shape to "
                                         r"have value 3"):
        dense = layers.Dense(2)
        dense(keras.Input((3,)))
        dense(keras.Input((4,)))


def test_several_inputs_and_dict_outputs_summary_with_connections(capsys):
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input((3,), name="b", batch_size=4, dtype="float64")
    c = layers.Concatenate()([a, b])
    d = layers.Add()([a, layers.Dense(3)(b)])
    model = keras.Model([a, b], {"c": c, "d": d}, name="two")
    assert [layer.name for layer in model.layers] == ["b", "a", "dense", "concatenate", "add"]
    assert model.inputs == [a, b]
    model.summary()
    out = capsys.readouterr().out
    assert out == """\
Model: "two"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ b (InputLayer)      │ (4, 3)            │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ a (InputLayer)      │ (None, 3)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ dense (Dense)       │ (4, 3)            │         12 │ b[0][0]           │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ concatenate         │ (None, 6)         │          0 │ a[0][0], b[0][0]  │
│ (Concatenate)       │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add (Add)           │ (4, 3)            │          0 │ a[0][0],          │
│                     │                   │            │ dense[0][0]       │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 12 (48.00 B)
 Trainable params: 12 (48.00 B)
 Non-trainable params: 0 (0.00 B)
"""
    xa = np.arange(12, dtype=np.float32).reshape(4, 3)
    xb = np.ones((4, 3))
    out = model([xa, xb])
    assert sorted(out) == ["c", "d"]
    kernel, bias = (v.numpy() for v in model.get_layer("dense").weights)
    np.testing.assert_allclose(out["c"].numpy(), np.concatenate([xa, xb], 1))
    np.testing.assert_allclose(out["d"].numpy(), xa + xb @ kernel + bias, rtol=1e-6)
    by_name = model({"a": xa, "b": xb})
    np.testing.assert_allclose(by_name["d"].numpy(), out["d"].numpy())
    with pytest.raises(ValueError, match='Layer "two" expects 2 input'):
        model([xa])


def test_dict_inputs_and_missing_keys():
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    model = keras.Model({"a": a, "b": b}, layers.Subtract()([a, b]))
    out = model({"b": np.ones((1, 2)), "a": np.full((1, 2), 3.0)})
    np.testing.assert_allclose(out.numpy(), [[2.0, 2.0]])
    with pytest.raises(ValueError, match=r"missing input\(s\) \['b'\]"):
        model({"a": np.ones((1, 2))})


def test_merge_reshape_and_activation_layers_against_numpy():
    rng = np.random.default_rng(1)
    a, b, c = (rng.normal(size=(2, 3)).astype(np.float32) for _ in range(3))
    cases = [(layers.Add(), [a, b, c], a + b + c),
             (layers.Subtract(), [a, b], a - b),
             (layers.Multiply(), [a, b, c], a * b * c),
             (layers.Average(), [a, b], (a + b) / 2),
             (layers.Maximum(), [a, b, c], np.maximum(np.maximum(a, b), c)),
             (layers.Minimum(), [a, b], np.minimum(a, b)),
             (layers.Add(), [a, b[:, :1]], a + b[:, :1]),
             (layers.Concatenate(), [a, b], np.concatenate([a, b], -1)),
             (layers.Concatenate(axis=0), [a, b], np.concatenate([a, b], 0))]
    for layer, inputs, expected in cases:
        np.testing.assert_allclose(layer(inputs).numpy(), expected, rtol=1e-6,
                                   err_msg=type(layer).__name__)
        graph = tf.function(lambda *xs, layer=layer: layer(list(xs)))
        np.testing.assert_allclose(graph(*inputs).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(layers.Reshape((-1, 1))(a).numpy(), a.reshape(2, 3, 1))
    np.testing.assert_allclose(layers.Reshape((3, 1))(a).numpy(), a.reshape(2, 3, 1))
    e = np.exp(a - a.max(-1, keepdims=True))
    np.testing.assert_allclose(layers.Activation("softmax")(a).numpy(),
                               e / e.sum(-1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(layers.Activation(None)(a).numpy(), a)
    assert layers.Reshape((-1, 2))(keras.Input((4, 3))).shape == (None, 6, 2)


def test_merge_and_reshape_errors_match_keras():
    a = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"A merge layer should be called on a list of "
                                         r"inputs. Received: input_shape=\(2, 3\) \(not a "
                                         r"list of shapes\)"):
        layers.Add()(a)
    with pytest.raises(ValueError, match=r"Inputs have incompatible shapes. Received shapes "
                                         r"\(3,\) and \(4,\)"):
        layers.Add()([keras.Input((3,)), keras.Input((4,))])
    with pytest.raises(ValueError, match=r"A `Concatenate` layer requires inputs with "
                                         r"matching shapes except for the concatenation "
                                         r"axis. Received: input_shape=\[\(None, 3, 5\), "
                                         r"\(None, 2, 5\)\]"):
        layers.Concatenate()([keras.Input((3, 5)), keras.Input((2, 5))])
    with pytest.raises(ValueError, match=r"The total size of the tensor must be unchanged. "
                                         r"Received: input_shape=\(3,\), "
                                         r"target_shape=\(3, 2\)"):
        layers.Reshape((3, 2))(a)
    with pytest.raises(ValueError, match=r"There must be at most one unknown dimension "
                                         r"\(-1\) in `target_shape`. Received: "
                                         r"target_shape=\(-1, -1\)."):
        layers.Reshape((-1, -1))(a)


def test_fit_predict_evaluate_a_functional_model_traces_each_step_once():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(96, 4)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] > 0).astype(np.int32)
    tf.random.set_seed(0)
    inputs = keras.Input((4,))
    h = layers.Dense(16, activation="relu")(inputs)
    model = keras.Model(inputs, layers.Dense(2)(h))
    model.compile(optimizer=keras.optimizers.Adam(0.05),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=6, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    loss, acc = model.evaluate(x, y, verbose=0)
    assert acc > 0.8
    logits = model.predict(x, verbose=0)
    assert logits.shape == (96, 2)
    expected = np.mean(np.argmax(logits, -1) == y)
    assert abs(acc - expected) < 1e-6
    for kind in ("train", "test", "predict"):
        fns = [f for (k, _), f in model._keras_state.functions.items() if k == kind]
        assert len(fns) == 1 and fns[0].experimental_get_tracing_count() == 1


def test_two_inputs_two_outputs_fit_logs_each_output(capsys):
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    total = layers.Add(name="total")([layers.Dense(2)(a), b])
    product = layers.Multiply(name="product")([a, b])
    model = keras.Model([a, b], [total, product])
    assert model.output_names == ["total", "product"]
    model.compile("sgd", loss=["mse", "mse"], loss_weights=[1.0, 0.5],
                  metrics=[["mae"], ["mae"]])
    xa = np.ones((8, 2), np.float32)
    xb = np.full((8, 2), 2.0, np.float32)
    history = model.fit([xa, xb], [np.zeros((8, 2)), np.full((8, 2), 3.0)], epochs=1,
                        verbose=2, shuffle=False)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("1/1 - ")
    assert out[0].endswith(" - product_loss: 1.0000 - product_mae: 1.0000 - total_loss: "
                           + f"{history.history['total_loss'][0]:.4f} - total_mae: "
                           + f"{history.history['total_mae'][0]:.4f}")
    assert sorted(history.history) == ["loss", "product_loss", "product_mae", "total_loss",
                                       "total_mae"]
    np.testing.assert_allclose(history.history["loss"][0],
                               history.history["total_loss"][0] + 0.5, rtol=1e-5)
    pred = model.predict([xa, xb], verbose=0)
    assert isinstance(pred, list) and pred[1].shape == (8, 2)
    np.testing.assert_allclose(pred[1], xa * xb)


def test_sequential_with_input_and_summary_of_unbuilt_and_subclassed_models(capsys):
    model = keras.Sequential([keras.Input((4,)), layers.Dense(2)])
    assert [layer.name for layer in model.layers] == ["dense"] and model.built
    unbuilt = keras.Sequential([layers.Dense(3)])
    unbuilt.summary()
    model.compile("adam", "mse")
    model.fit(np.ones((4, 4)), np.ones((4, 2)), verbose=0)
    model.summary()
    out = capsys.readouterr().out
    assert out == """\
Model: "sequential_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense_1 (Dense)                 │ ?                      │   0 (unbuilt) │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (None, 2)              │            10 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 32 (132.00 B)
 Trainable params: 10 (40.00 B)
 Non-trainable params: 0 (0.00 B)
 Optimizer params: 22 (92.00 B)
"""

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = layers.Dense(4)
            self.f = layers.Flatten()

        def call(self, x):
            return self.f(self.d(x))
    sub = Sub()
    sub(np.ones((7, 2, 5), np.float32))
    sub.summary()
    lines = capsys.readouterr().out.splitlines()
    assert lines[4] == "│ dense_2 (Dense)                 │ (7, 2, 4)              │            24 │"
    assert lines[6] == "│ flatten (Flatten)               │ (7, 8)                 │             0 │"


def test_nested_functional_models_dropout_and_arithmetic_on_keras_tensors():
    inputs = keras.Input((4,), name="x")
    h = layers.Dropout(0.5)(layers.Dense(8, activation="relu")(inputs))
    inner = keras.Model(inputs, layers.Dense(2)(h))
    x = np.ones((3, 4), np.float32)
    np.testing.assert_array_equal(inner(x).numpy(), inner(x).numpy())   # inference
    assert not np.array_equal(inner(x, training=True).numpy(),
                              inner(x, training=True).numpy())
    outer_in = keras.Input((4,))
    outer = keras.Model(outer_in, layers.Activation("softmax")(inner(outer_in)))
    assert [layer.name for layer in outer.layers] == ["input_layer", "functional",
                                                      "activation"]
    np.testing.assert_allclose(outer(x).numpy(), tf.nn.softmax(inner(x)).numpy(), rtol=1e-6)
    assert (inputs + 1).shape == (None, 4)      # an operation (tests/keras/test_lambda...)


def test_dict_inputs_and_outputs_fit_with_validation_split_and_evaluate():
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    h = layers.Concatenate()([a, b])
    model = keras.Model({"a": a, "b": b}, {"reg": layers.Dense(1, name="reg")(h),
                                           "cls": layers.Dense(3, name="cls")(h)})
    model.compile("adam", loss={"reg": "mse", "cls": keras.losses.SparseCategoricalCrossentropy(
        from_logits=True)}, metrics={"cls": ["accuracy"]})
    rng = np.random.default_rng(0)
    xa, xb = rng.normal(size=(40, 2)).astype("float32"), rng.normal(size=(40, 3)).astype(
        "float32")
    x = {"a": xa, "b": xb}
    y = {"reg": xa[:, :1], "cls": (xb[:, 0] > 0).astype("int32")}
    history = model.fit(x, y, epochs=2, validation_split=0.25, verbose=0)
    assert sorted(history.history) == ["cls_accuracy", "cls_loss", "loss", "reg_loss",
                                       "val_cls_accuracy", "val_cls_loss", "val_loss",
                                       "val_reg_loss"]
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["loss"], logs["cls_loss"] + logs["reg_loss"], rtol=1e-5)
    pred = model.predict(x, verbose=0)
    assert {k: v.shape for k, v in pred.items()} == {"cls": (40, 3), "reg": (40, 1)}
    np.testing.assert_allclose(logs["reg_loss"], np.mean((pred["reg"] - y["reg"]) ** 2),
                               rtol=1e-5)
    np.testing.assert_allclose(logs["cls_accuracy"],
                               np.mean(np.argmax(pred["cls"], -1) == y["cls"]), rtol=1e-6)


# --- a Model subclass built functionally, as Keras's "customize what happens in
# fit" guide does (values from TF 2.21's Keras 3 for the same data and weights) ---

class GuideModel(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def test_a_model_subclass_called_with_inputs_and_outputs_is_functional():
    rng = np.random.RandomState(0)
    x = rng.random_sample((64, 4)).astype("float32")
    y = rng.random_sample((64, 1)).astype("float32")
    inputs = tf.keras.Input(shape=(4,))
    outputs = tf.keras.layers.Dense(
        1, kernel_initializer=tf.keras.initializers.Constant(0.1))(inputs)
    model = GuideModel(inputs, outputs)
    assert type(model).__name__ == "GuideModel" and isinstance(model, GuideModel)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=3, batch_size=16, verbose=0, shuffle=False).history
    np.testing.assert_allclose(history["loss"], [0.15497, 0.11937, 0.11628], atol=1e-5)
    np.testing.assert_allclose(history["mae"], [0.33388, 0.30135, 0.2984], atol=1e-5)
    np.testing.assert_allclose(model.layers[-1].kernel.numpy().ravel(),
                               [0.15699, 0.11408, 0.18649, 0.12702], atol=1e-5)


def test_functional_merge_helpers_are_the_layers():
    a, b = tf.keras.Input((4,), name="a"), tf.keras.Input((2,), name="b")
    joined = tf.keras.layers.concatenate([a, b])
    assert tuple(joined.shape) == (None, 6)
    summed = tf.keras.layers.add([a, a])
    model = tf.keras.Model([a, b], [joined, summed])
    x, z = np.ones((3, 4), "float32"), np.zeros((3, 2), "float32")
    out = model([x, z])
    assert out[0].numpy().tolist() == [[1, 1, 1, 1, 0, 0]] * 3
    assert out[1].numpy().tolist() == [[2, 2, 2, 2]] * 3


def test_models_report_their_input_and_output_shapes_as_keras():
    """TF 2.21's Keras 3: Sequential from an Input has inputs/outputs and both
    shapes; a functional model has the shapes too."""
    seq = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3),
                               tf.keras.layers.Dense(2)])
    assert seq.input_shape == (None, 4) and seq.output_shape == (None, 2)
    assert [tuple(t.shape) for t in seq.inputs] == [(None, 4)]
    assert [tuple(t.shape) for t in seq.outputs] == [(None, 2)]
    seq.add(tf.keras.layers.Dense(5))
    assert seq.output_shape == (None, 5)
    i = tf.keras.Input((4,))
    f = tf.keras.Model(i, [tf.keras.layers.Dense(2)(i), tf.keras.layers.Dense(1)(i)])
    assert f.input_shape == (None, 4) and f.output_shape == [(None, 2), (None, 1)]
    with pytest.raises(AttributeError, match="has no defined input"):
        tf.keras.Sequential([tf.keras.layers.Dense(2)]).input_shape
