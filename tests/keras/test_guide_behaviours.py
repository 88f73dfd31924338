"""Behaviours the keras.io guides rely on (tools/keras_guides.py), each checked
against Keras 3.15 on TF 2.21 ($BENCH_TF_PYTHON): the values below are its outputs
for the same code."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
layers = keras.layers


# --- layer.input / layer.output: the first call's KerasTensors -------------------------

def test_layer_input_output_are_the_first_calls_tensors():
    inputs = keras.Input((3,))
    dense = layers.Dense(2)
    first = dense(inputs)
    dense(keras.Input((3,)))                   # a second call: still the first one's
    assert dense.output is first and dense.input is inputs
    assert inputs._keras_history[0].output is inputs      # the InputLayer's own
    with pytest.raises(AttributeError, match="^The layer unused has never been called "
                       "and thus has no defined output.$"):
        layers.Dense(2, name="unused").output


def test_sequential_layers_outputs_make_a_feature_extractor():
    # sequential_model guide: Keras 3.15 gives these shapes
    model = keras.Sequential([
        keras.Input(shape=(25, 25, 3)),
        layers.Conv2D(4, 5, strides=2, activation="relu"),
        layers.Conv2D(4, 3, activation="relu", name="my_intermediate_layer"),
        layers.Conv2D(4, 3, activation="relu"),
    ])
    extractor = keras.Model(inputs=model.inputs,
                            outputs=[layer.output for layer in model.layers])
    features = extractor(np.ones((1, 25, 25, 3), "float32"))
    assert [tuple(f.shape) for f in features] == [(1, 11, 11, 4), (1, 9, 9, 4), (1, 7, 7, 4)]
    one = keras.Model(inputs=model.inputs,
                      outputs=model.get_layer(name="my_intermediate_layer").output)
    np.testing.assert_allclose(one(np.ones((1, 25, 25, 3), "float32")).numpy(),
                               features[1].numpy(), rtol=1e-6)


# --- names: Keras's rule (no "/"), not tf.Module's --------------------------------------

def test_layer_and_model_names_follow_keras():
    inputs = keras.Input(shape=(4,), name="digits")
    outputs = layers.Dense(2, name="dense_1")(inputs)
    model = keras.Model(inputs, outputs, name="3_layer_mlp")     # serialization guide
    assert model.name == "3_layer_mlp"
    assert layers.Dense(1, name="a b").name == "a b"
    with pytest.raises(ValueError, match="^Argument `name` must be a string and cannot "
                       "contain character `/`. Received: name=x/y"):
        layers.Dense(1, name="x/y")
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="3_module")             # tf.Module keeps its own rule


# --- functions in configs, as Keras 3.15 writes them -------------------------------------

@pytest.fixture
def custom_fn():
    def custom_fn(x):
        return x ** 2
    keras.saving.register_keras_serializable(package="my_package", name="custom_fn")(
        custom_fn)
    yield custom_fn
    keras.saving.get_custom_objects().pop("my_package>custom_fn", None)


def test_function_config_is_keras_3_15s(custom_fn):
    def plain(x):
        return x
    assert layers.Dense(1, activation=custom_fn).get_config()["activation"] == {
        "module": "builtins", "class_name": "function", "config": "my_package>custom_fn",
        "registered_name": "function"}
    assert keras.saving.serialize_keras_object(plain) == {
        "module": "builtins", "class_name": "function", "config": "plain",
        "registered_name": "function"}
    assert layers.Dense(1, activation="relu").get_config()["activation"] == "relu"
    config = layers.Dense(1, activation=custom_fn).get_config()
    assert layers.Dense.from_config(config).activation is custom_fn
    with pytest.raises(ValueError, match="Could not interpret activation function "
                       "identifier"):
        keras.activations.get("my_package>custom_fn")    # names: built-ins only
    assert keras.saving.deserialize_keras_object(
        keras.saving.serialize_keras_object(plain), custom_objects={"plain": plain}) is plain


def test_saved_model_with_registered_or_passed_activation_loads(custom_fn, tmp_path):
    inputs = keras.Input(shape=(4,))
    outputs = layers.Dense(1, activation=custom_fn)(inputs)
    model = keras.Model(inputs, outputs)
    x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    path = str(tmp_path / "m.keras")
    model.save(path)
    for loaded in (keras.models.load_model(path),
                   keras.models.load_model(path, custom_objects={"custom_fn": custom_fn})):
        np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
        assert loaded.layers[-1].activation is custom_fn


# --- _keras_mask on outputs (understanding_masking_and_padding) --------------------------

PADDED = np.array([[711, 632, 71, 0, 0, 0], [73, 8, 3215, 55, 927, 0],
                   [83, 91, 1, 645, 1253, 927]], "int32")
MASK = [[True, True, True, False, False, False], [True, True, True, True, True, False],
        [True] * 6]                                   # Keras 3.15's mask of PADDED


class _TemporalSplit(layers.Layer):
    def call(self, inputs):
        return keras.ops.split(inputs, 2, axis=1)

    def compute_mask(self, inputs, mask=None):
        return None if mask is None else keras.ops.split(mask, 2, axis=1)


class _MaskUser(layers.Layer):
    supports_masking = True

    def call(self, inputs, mask=None):
        assert mask is not None                     # Keras passes the mask, also at build
        return inputs * keras.ops.expand_dims(keras.ops.cast(mask, "float32"), -1)


def test_masks_ride_on_eager_outputs():
    out = layers.Embedding(input_dim=5000, output_dim=4, mask_zero=True)(PADDED)
    assert out._keras_mask.dtype == tf.bool and out._keras_mask.numpy().tolist() == MASK
    dense = layers.Dense(2)(out)                    # Dense supports masking: passed on
    assert dense._keras_mask.numpy().tolist() == MASK
    masked = layers.Masking()(keras.ops.cast(keras.ops.tile(
        keras.ops.expand_dims(PADDED, -1), [1, 1, 3]), "float32"))
    assert masked._keras_mask.numpy().tolist() == MASK
    first, second = _TemporalSplit()(masked)
    assert first._keras_mask.numpy().tolist() == [[True] * 3] * 3
    assert second._keras_mask.numpy().tolist() == [[False] * 3, [True, True, False],
                                                   [True] * 3]
    assert not hasattr(layers.Dense(2)(np.ones((1, 3), "float32")), "_keras_mask")
    assert not hasattr(layers.Flatten()(out), "_keras_mask")      # no masking support


def test_masks_in_a_functional_model_and_a_traced_call():
    inputs = keras.Input(shape=(None,), dtype="int32")
    x = layers.Embedding(input_dim=10, output_dim=4, mask_zero=True)(inputs)
    assert (x._keras_mask.shape, x._keras_mask.dtype) == ((None, None), "bool")
    x = layers.Dense(1)(x)
    outputs = _MaskUser()(x)
    model = keras.Model(inputs, outputs)
    ids = np.array([[1, 2, 0], [3, 0, 0]], "int32")
    y = model(ids).numpy()
    assert y.shape == (2, 3, 1) and (y[:, :, 0] == 0).tolist() == [[False, False, True],
                                                                    [False, True, True]]
    traced = tf.function(lambda t: model(t))(tf.constant(ids))
    np.testing.assert_allclose(traced.numpy(), y, rtol=1e-6)


# --- printing as Keras 3.15 prints --------------------------------------------------------

WRAP_SUMMARY = """\
Model: "wrap"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ img (InputLayer)    │ (None, 4, 4, 3)   │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ global_average_poo… │ (None, 3)         │          0 │ img[0][0]         │
│ (GlobalAveragePool… │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ a_rather_long_dens… │ (None, 3)         │         12 │ global_average_p… │
│ (Dense)             │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add (Add)           │ (None, 3)         │          0 │ global_average_p… │
│                     │                   │            │ a_rather_long_de… │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 12 (48.00 B)
 Trainable params: 12 (48.00 B)
 Non-trainable params: 0 (0.00 B)
"""


def test_summary_cuts_long_words_with_an_ellipsis(capsys):
    keras.backend.clear_session()        # the layer names' counters start again
    inputs = keras.Input((4, 4, 3), name="img")
    x = layers.GlobalAveragePooling2D()(inputs)
    y = layers.Dense(3, name="a_rather_long_dense_layer_name")(x)
    keras.Model(inputs, layers.add([x, y]), name="wrap").summary()
    assert capsys.readouterr().out == WRAP_SUMMARY


def test_predict_prints_its_progress_line_and_callbacks_print_as_keras(capsys):
    inputs = keras.Input((3,))
    model = keras.Model(inputs, layers.Dense(1)(inputs))
    model.predict(np.ones((70, 3), "float32"), verbose=2)
    out = capsys.readouterr().out
    assert out.startswith("3/3 - ") and out.endswith("/step\n") and " - loss" not in out
    model.predict(np.ones((70, 3), "float32"), verbose=0)
    assert capsys.readouterr().out == ""
    history = keras.callbacks.History()
    assert repr(history) == f"<keras.src.callbacks.history.History object at {hex(id(history))}>"

    class Mine(keras.callbacks.Callback):
        pass
    assert repr(Mine()).startswith(f"<{__name__}.")


def test_config_serializes_nested_keras_objects_and_user_module_as_none():
    @keras.saving.register_keras_serializable(package="MyLayers", name="KernelMult")
    class MyDense(layers.Layer):
        def __init__(self, units, nested=None, reg=None, **kwargs):
            super().__init__(**kwargs)
            self.units, self.nested, self.reg = units, nested, reg

        def get_config(self):
            return {**super().get_config(), "units": self.units, "nested": self.nested,
                    "reg": self.reg}
    MyDense.__module__ = "__main__"                  # as the guide's class in a notebook
    try:
        inner = MyDense(3, reg=keras.regularizers.L1(0.5), name="inner")
        config = layers.serialize(MyDense(4, nested=inner, name="outer"))
    finally:
        keras.saving.get_custom_objects().pop("MyLayers>KernelMult", None)
    # Keras 3.15's layout for the same objects
    assert config["module"] is None and config["registered_name"] == "MyLayers>KernelMult"
    nested = config["config"]["nested"]
    assert (nested["module"], nested["class_name"], nested["registered_name"]) == (
        None, "MyDense", "MyLayers>KernelMult")
    assert nested["config"]["reg"] == {"module": "keras.regularizers", "class_name": "L1",
                                       "config": {"l1": 0.5}, "registered_name": None}
    assert layers.Dense(2).get_config()["quantization_config"] is None
    assert layers.Embedding(3, 2).get_config()["quantization_config"] is None


def test_a_layer_without_build_is_traced_once_to_build_its_sublayers(capsys):
    class Printing(layers.Layer):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(2)

        def call(self, x):
            print("call", tuple(x.shape))
            return self.dense(x)
    layer = Printing()
    layer(np.ones((1, 3), "float32"))
    layer(np.ones((1, 3), "float32"))
    # Keras 3.15 builds the Dense by running call on symbolic inputs first
    assert capsys.readouterr().out == "call (1, 3)\ncall (1, 3)\ncall (1, 3)\n"
    assert len(layer.weights) == 2


def test_squeeze_of_a_keras_tensor_keeps_its_unknown_sizes():
    inputs = keras.layers.Input([2, 2, 1])       # migrating_to_keras_3: Keras 3.15's shape
    assert keras.ops.squeeze(inputs).shape == (None, 2, 2)
    assert keras.ops.squeeze(keras.Input([1, 3]), axis=1).shape == (None, 3)
    assert keras.ops.squeeze(np.ones((1, 2, 1), "float32")).shape == (2,)


# --- a plain tf.Variable in a Keras layer is not a weight ---------------------------------

def test_plain_tf_variable_in_a_layer_is_not_a_weight_but_is_checkpointed(tmp_path):
    # TF's intro_to_modules guide: Keras 3.15 on TF 2.21 lists no variables and
    # zero parameters for such a layer; its tf.train.Checkpoint still saves it.
    class Flexible(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(tf.ones([3, 2]), name="w")
            self.k = keras.Variable(tf.ones([2]), name="k")

        def call(self, x):
            return tf.matmul(x, self.w)

    layer = Flexible()
    assert [v.name for v in layer.variables] == ["k"]
    assert [v.name for v in layer.trainable_weights] == ["k"]
    np.testing.assert_array_equal(layer(tf.ones([1, 3])).numpy(), [[3.0, 3.0]])
    path = tf.train.Checkpoint(l=layer).write(str(tmp_path / "c"))
    assert [k for k, _ in tf.train.list_variables(path)] == ["_CHECKPOINTABLE_OBJECT_GRAPH",
        "l/k/.ATTRIBUTES/VARIABLE_VALUE", "l/w/.ATTRIBUTES/VARIABLE_VALUE"]
    model = keras.Sequential([keras.Input((3,)), Flexible()])
    model.compile(loss="mse", optimizer="sgd")
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        model.fit(tf.ones([4, 3]), tf.ones([4, 2]), verbose=0)


# --- TF's custom_layers guide: input_shape with free dimensions, name="" --------------------

def test_sequential_with_input_shape_of_free_dims_builds_at_once():
    # Keras 3.15: a warning, and the model is built before any call, its output
    # shapes keep every free dimension (summary: (None, None, None, 1), 4 + 4 params)
    with pytest.warns(UserWarning, match="^Do not pass an `input_shape`/`input_dim` argument "
                      "to a layer. When using Sequential models, prefer using an "
                      "`Input\\(shape\\)` object as the first layer in the model instead.$"):
        conv = layers.Conv2D(1, (1, 1), input_shape=(None, None, 3))
    model = keras.Sequential([conv, layers.BatchNormalization()])
    assert model.built and len(model.weights) == 6
    assert [tuple(layer.output.shape) for layer in model.layers] == [(None, None, None, 1)] * 2
    model(tf.zeros([1, 2, 3, 3]))
    assert tuple(model.layers[0].output.shape) == (None, None, None, 1)


def test_an_empty_name_is_kept():
    class Block(keras.Model):
        def __init__(self):
            super().__init__(name="")
            self.dense = layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    block = Block()
    block(tf.zeros([1, 3]))
    assert block.name == "" and layers.Dense(2, name="").name == ""
