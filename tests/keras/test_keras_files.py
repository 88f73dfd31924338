"""`model.save("m.keras")` / `load_model`, `to_json` / `model_from_json`, the
registry of user classes, and `tf.keras.utils`. Keras 3's JSON below was
recorded from TensorFlow 2.21's Keras (`model.to_json()`)."""

import json
import os
import textwrap
import zipfile

import numpy as np
import pytest

import runtime as tf
from tests import fresh_process

layers = tf.keras.layers

_USER_CODE = textwrap.dedent('''
    import numpy as np
    import runtime as tf

    @tf.keras.saving.register_keras_serializable(package="demo")
    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w * self.factor
''')


def _run(code, tmp_path):
    script = tmp_path / "script.py"
    script.write_text(_USER_CODE + textwrap.dedent(code))
    done = fresh_process.run([str(script)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_keras_file_round_trips_in_a_fresh_process(tmp_path):
    _run('''
        x = np.random.RandomState(0).rand(8, 3).astype("float32")
        y = np.random.RandomState(1).rand(8, 2).astype("float32")
        model = tf.keras.Sequential([tf.keras.Input((3,)),
                                     tf.keras.layers.Dense(4, activation="relu",
                                                           kernel_regularizer="l2"),
                                     Scale(3.0), tf.keras.layers.Dense(2)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
        model.fit(x, y, epochs=2, verbose=0)
        model.save("m.keras")
        np.save("pred.npy", model.predict(x, verbose=0))
        np.save("eval.npy", np.array(model.evaluate(x, y, verbose=0)))
    ''', tmp_path)
    with zipfile.ZipFile(tmp_path / "m.keras") as z:
        assert z.namelist() == ["metadata.json", "config.json", "model.weights.h5"]
        config = json.loads(z.read("config.json"))
    assert (config["module"], config["class_name"]) == ("keras", "Sequential")
    assert config["compile_config"]["loss"] == "mse"
    assert config["config"]["layers"][2]["registered_name"] == "demo>Scale"
    out = _run('''
        x = np.random.RandomState(0).rand(8, 3).astype("float32")
        y = np.random.RandomState(1).rand(8, 2).astype("float32")
        model = tf.keras.models.load_model("m.keras")
        print(np.abs(model.predict(x, verbose=0) - np.load("pred.npy")).max())
        print(np.abs(np.array(model.evaluate(x, y, verbose=0)) - np.load("eval.npy")).max())
        print([v.path for v in model.weights])
        print(type(model.optimizer).__name__, float(model.optimizer.learning_rate))
    ''', tmp_path)
    lines = out.splitlines()
    assert float(lines[0]) == 0.0 and float(lines[1]) == 0.0
    assert lines[2] == ("['sequential/dense/kernel', 'sequential/dense/bias', "
                        "'sequential/scale/w', 'sequential/dense_1/kernel', "
                        "'sequential/dense_1/bias']")
    assert lines[3].startswith("Adam 0.00999")


def test_functional_model_with_branches_round_trips(tmp_path):
    inputs = tf.keras.Input((3,), name="x")
    a, b = layers.Dense(2, name="a")(inputs), layers.Dense(2, name="b")(inputs)
    model = tf.keras.Model(inputs, [layers.Concatenate(name="concatenate")([a, b]),
                                    layers.Add(name="add")([a, b])])
    model.save(tmp_path / "f.keras")
    loaded = tf.keras.models.load_model(tmp_path / "f.keras")
    x = np.arange(6, dtype="float32").reshape(2, 3)
    for got, want in zip(loaded(x), model(x)):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert [lay.name for lay in loaded.layers] == ["x", "a", "b", "concatenate", "add"]


def test_user_class_needs_registration_or_custom_objects(tmp_path):
    class Twice(layers.Layer):
        def call(self, x):
            return x * 2.0

    model = tf.keras.Sequential([tf.keras.Input((2,)), Twice(name="twice")])
    model.save(tmp_path / "t.keras")
    with pytest.raises(TypeError, match="Could not locate class 'Twice'"):
        tf.keras.models.load_model(tmp_path / "t.keras")
    loaded = tf.keras.models.load_model(tmp_path / "t.keras", custom_objects={"Twice": Twice})
    assert loaded(np.ones((1, 2), "float32")).numpy().tolist() == [[2.0, 2.0]]


def test_lambda_layer_function_is_not_saved_as_code(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((2,)), layers.Lambda(lambda x: x + 1.0)])
    with pytest.raises(ValueError, match="its function is a Python lambda, which "
                                         "runtime.keras cannot save"):
        model.save(tmp_path / "l.keras")
    with pytest.raises(ValueError, match="disallowed by runtime.keras"):
        tf.keras.saving.deserialize_keras_object(
            {"class_name": "__lambda__", "config": {"code": "..."}})


# Keras 3 (TF 2.21): keras.Model(Input((3,), name="x") -> Dense(4, relu, "hidden") ->
# Dropout(0.1, "drop") -> Dense(2, "out"), name="net").to_json(), shortened only by
# leaving out the initializer / regularizer entries that are Keras's defaults.
_KERAS_JSON = json.dumps({
    "module": "keras.src.models.functional", "class_name": "Functional", "config": {
        "name": "net", "trainable": True, "layers": [
            {"module": "keras.layers", "class_name": "InputLayer", "config": {
                "batch_shape": [None, 3], "dtype": "float32", "sparse": False,
                "ragged": False, "name": "x", "optional": False},
             "registered_name": None, "name": "x", "inbound_nodes": []},
            {"module": "keras.layers", "class_name": "Dense", "config": {
                "name": "hidden", "trainable": True, "dtype": {
                    "module": "keras", "class_name": "DTypePolicy",
                    "config": {"name": "float32"}, "registered_name": None},
                "units": 4, "activation": "relu", "use_bias": True,
                "kernel_initializer": {"module": "keras.initializers",
                                       "class_name": "GlorotUniform",
                                       "config": {"seed": None, "input_axes": None,
                                                  "output_axes": None},
                                       "registered_name": None},
                "quantization_config": None},
             "registered_name": None, "build_config": {"input_shape": [None, 3]},
             "name": "hidden", "inbound_nodes": [{"args": [{
                 "class_name": "__keras_tensor__", "config": {
                     "shape": [None, 3], "dtype": "float32",
                     "keras_history": ["x", 0, 0]}}], "kwargs": {}}]},
            {"module": "keras.layers", "class_name": "Dropout", "config": {
                "name": "drop", "trainable": True, "dtype": {
                    "module": "keras", "class_name": "DTypePolicy",
                    "config": {"name": "float32"}, "registered_name": None},
                "rate": 0.1, "seed": None, "noise_shape": None},
             "registered_name": None, "name": "drop", "inbound_nodes": [{"args": [{
                 "class_name": "__keras_tensor__", "config": {
                     "shape": [None, 4], "dtype": "float32",
                     "keras_history": ["hidden", 0, 0]}}], "kwargs": {"training": False}}]},
            {"module": "keras.layers", "class_name": "Dense", "config": {
                "name": "out", "trainable": True, "units": 2, "activation": "linear"},
             "registered_name": None, "build_config": {"input_shape": [None, 4]},
             "name": "out", "inbound_nodes": [{"args": [{
                 "class_name": "__keras_tensor__", "config": {
                     "shape": [None, 4], "dtype": "float32",
                     "keras_history": ["drop", 0, 0]}}], "kwargs": {}}]}],
        "input_layers": ["x", 0, 0], "output_layers": ["out", 0, 0]},
    "registered_name": "Functional", "build_config": {"input_shape": None},
    "compile_config": {}})


def test_model_from_keras_3_json_and_keras_file_with_hdf5_weights(tmp_path):
    model = tf.keras.models.model_from_json(_KERAS_JSON)
    assert [lay.name for lay in model.layers] == ["x", "hidden", "drop", "out"]
    assert [v.path for v in model.weights] == ["hidden/kernel", "hidden/bias", "out/kernel",
                                               "out/bias"]
    assert model.layers[2].rate == 0.1 and model(np.ones((5, 3), "float32")).shape == (5, 2)
    path = tmp_path / "keras_written.keras"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("metadata.json", '{"keras_version": "3.15.1"}')
        z.writestr("config.json", _KERAS_JSON)
        z.writestr("model.weights.h5", b"\x89HDF\r\n\x1a\n")
    with pytest.raises(ValueError, match=r"truncated or corrupt HDF5 file"):
        tf.keras.models.load_model(path)        # real ones: tests/keras/test_keras3_files.py


def test_to_json_round_trip_gives_fresh_weights_of_the_same_shapes():
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(4, name="d1"),
                                 layers.BatchNormalization(), layers.Dense(1)])
    text = model.to_json()
    assert json.loads(text)["config"]["build_input_shape"] == [None, 3]
    clone = tf.keras.models.model_from_json(text)
    assert [v.shape for v in clone.weights] == [v.shape for v in model.weights]
    assert clone.to_json() == text


def test_utils_to_categorical_seed_clear_session_and_plot_model(tmp_path):
    # Keras 3 (TF 2.21): to_categorical([0, 2, 1, 2]) and ([1, 3], num_classes=5), float64
    cat = tf.keras.utils.to_categorical([0, 2, 1, 2])
    assert cat.dtype == np.float64 and cat.tolist() == [
        [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert tf.keras.utils.to_categorical([[1], [3]], num_classes=5).tolist() == [
        [0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0]]
    tf.keras.utils.set_random_seed(3)
    first = (np.random.rand(), tf.random.uniform([2]).numpy().tolist())
    tf.keras.utils.set_random_seed(3)
    assert (np.random.rand(), tf.random.uniform([2]).numpy().tolist()) == first
    tf.keras.backend.clear_session()
    assert layers.Dense(1).name == "dense" and layers.Dense(1).name == "dense_1"
    inputs = tf.keras.Input((3,), name="x")
    model = tf.keras.Model(inputs, layers.Add()([layers.Dense(2, name="a")(inputs),
                                                 layers.Dense(2, name="b")(inputs)]))
    dot = tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m.dot"), show_shapes=True)
    assert (tmp_path / "m.dot").read_text() == dot
    assert 'n1 [label="a (Dense)\\n(None, 2)"];' in dot
    assert "n0 -> n1;" in dot and "n0 -> n2;" in dot and "n2 -> n3;" in dot
    page = tmp_path / "m.html"
    tf.keras.utils.plot_model(model, to_file=str(page), show_shapes=True)
    text = page.read_text()
    data = json.loads(text.split('id="graph-data">')[1].split("</script>")[0])
    assert [(n["label"], n["detail"], n["inputs"]) for n in data["nodes"]] == [
        ("x (InputLayer)", "(None, 3)", []), ("a (Dense)", "(None, 2)", ["n0"]),
        ("b (Dense)", "(None, 2)", ["n0"]), ("add (Add)", "(None, 2)", ["n1", "n2"])]
    assert data["outputs"] == ["n3"] and "<script>" in text
    if not any(os.access(os.path.join(p, "dot"), os.X_OK)
               for p in os.environ.get("PATH", "").split(os.pathsep)):
        with pytest.raises(ImportError, match="needs Graphviz's `dot` program"):
            tf.keras.utils.plot_model(model, to_file=str(tmp_path / "m.png"))


def test_registered_subclassed_model_round_trips(tmp_path):
    @tf.keras.saving.register_keras_serializable(package="tests")
    class Net(tf.keras.Model):
        def __init__(self, units=4, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.hidden = layers.Dense(units, activation="relu")
            self.out = layers.Dense(1)

        def call(self, x):
            return self.out(self.hidden(x))

    net = Net(5, name="net")
    x = np.random.RandomState(0).rand(6, 3).astype("float32")
    net.compile(optimizer="sgd", loss="mse")
    net.fit(x, x[:, :1], verbose=0)
    assert net.get_config()["units"] == 5          # plain constructor arguments, as Keras 3
    net.save(tmp_path / "net.keras")
    loaded = tf.keras.models.load_model(tmp_path / "net.keras")
    assert type(loaded) is Net and loaded.units == 5
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), net.predict(x, verbose=0))


def test_lambda_with_a_registered_function_round_trips(tmp_path):
    @tf.keras.saving.register_keras_serializable(package="tests")
    def add_one(x):
        return x + 1.0

    model = tf.keras.Sequential([tf.keras.Input((2,)), layers.Lambda(add_one)])
    model.save(tmp_path / "l.keras")
    loaded = tf.keras.models.load_model(tmp_path / "l.keras")
    assert loaded(np.zeros((1, 2), "float32")).numpy().tolist() == [[1.0, 1.0]]
    assert loaded.layers[0].function is add_one


def test_compile_config_round_trips_objects_and_schedules(tmp_path):
    k = tf.keras
    model = k.Sequential([k.Input((3,)), layers.Dense(1, activation="sigmoid")])
    schedule = k.optimizers.schedules.CosineDecay(0.1, 100, warmup_target=0.2, warmup_steps=5)
    model.compile(optimizer=k.optimizers.AdamW(schedule, clipnorm=1.0),
                  loss=k.losses.BinaryFocalCrossentropy(gamma=3.0),
                  metrics=[k.metrics.AUC(num_thresholds=50), "accuracy",
                           k.metrics.Precision(thresholds=[0.3, 0.6])],
                  weighted_metrics=["mse"])
    x = np.random.RandomState(0).rand(16, 3).astype("float32")
    y = (x[:, 0] > 0.5).astype("float32")
    model.fit(x, y, verbose=0)
    model.save(tmp_path / "c.keras")
    loaded = k.models.load_model(tmp_path / "c.keras")
    assert type(loaded.optimizer) is k.optimizers.AdamW and loaded.optimizer.clipnorm == 1.0
    assert loaded.optimizer.get_config()["learning_rate"]["class_name"] == "CosineDecay"
    assert loaded.loss.get_config()["gamma"] == 3.0
    want = model.evaluate(x, y, verbose=0, return_dict=True)
    got = loaded.evaluate(x, y, verbose=0, return_dict=True)
    assert sorted(got) == ["accuracy", "auc", "loss", "precision", "weighted_mse"]
    assert got == want and len(got["precision"]) == 2


def test_clone_model_and_get_custom_objects():
    inputs = tf.keras.Input((3,), name="x")
    model = tf.keras.Model(inputs, layers.Dense(2, name="d")(layers.Dense(4, name="h")(inputs)))
    clone = tf.keras.models.clone_model(model)
    assert [lay.name for lay in clone.layers] == ["x", "h", "d"]
    assert [v.shape for v in clone.weights] == [v.shape for v in model.weights]
    assert all(a is not b for a, b in zip(clone.weights, model.weights))   # new weights

    class Twice(layers.Layer):
        def call(self, x):
            return x * 2.0

    tf.keras.utils.get_custom_objects()["Twice"] = Twice
    try:
        seq = tf.keras.Sequential([tf.keras.Input((2,)), Twice()])
        again = tf.keras.models.model_from_json(seq.to_json())     # found by name
        assert type(again.layers[0]) is Twice
    finally:
        del tf.keras.utils.get_custom_objects()["Twice"]
