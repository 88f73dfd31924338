"""`Model.export`, `keras.export.ExportArchive` and `keras.layers.TFSMLayer`:
a model's inference as a SavedModel, reloaded without its code. What Keras
3.15 on TF 2.21 gives for the same code: `reloaded.serve(x)` is the model's
output, `signatures["serving_default"]` returns {"output_0": ...}, the
printed "Saved artifact at ..." message, and the errors below."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras


@pytest.fixture
def model():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones",
                                                                bias_initializer="ones")])
    return m


def test_model_export_serves_its_inference(model, tmp_path, capsys):
    path = str(tmp_path / "m")
    model.export(path)
    printed = capsys.readouterr().out
    assert printed.startswith(f"Saved artifact at '{path}'. The following endpoints are "
                              "available:\n\n* Endpoint 'serve'\n  args_0 (POSITIONAL_ONLY): "
                              "TensorSpec(shape=(None, 3), dtype=tf.float32")
    assert "Output Type:\n  TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)" in printed
    reloaded = tf.saved_model.load(path)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(reloaded.serve(x).numpy(), [[4, 4], [13, 13]])
    out = reloaded.signatures["serving_default"](tf.constant(x))
    np.testing.assert_array_equal(out["output_0"].numpy(), [[4, 4], [13, 13]])
    assert len(reloaded.variables) == 2
    with pytest.raises(ValueError, match=r"^Unrecognized format=h5. Supported formats are: "
                       r"\['tf_saved_model', 'onnx', 'openvino', 'litert', 'torch'\].$"):
        model.export(path, format="h5")


def test_export_archive_endpoints_collections_and_errors(model, tmp_path):
    archive = keras.export.ExportArchive()
    with pytest.raises(ValueError, match="^No endpoints have been set yet. Call add_endpoint"):
        archive.write_out(str(tmp_path / "none"))
    with pytest.raises(ValueError, match="^The layer provided has not yet been built"):
        archive.track(keras.layers.Dense(2))
    archive.track(model)
    archive.add_endpoint("call", model.call,
                         input_signature=[keras.InputSpec(shape=(None, 3), dtype="float32")])
    with pytest.raises(ValueError, match="^Endpoint name 'call' is already taken.$"):
        archive.add_endpoint("call", model.call)
    with pytest.raises(ValueError, match="^If the `fn` argument provided is not a "
                       "`tf.function`, you must provide an `input_signature`"):
        archive.add_endpoint("other", model.call)
    with pytest.raises(ValueError, match="has never been called"):
        archive.add_endpoint("other", tf.function(lambda x: x))
    doubled = tf.function(lambda x: 2.0 * model(x))
    doubled(tf.ones([1, 3]))
    archive.add_endpoint("doubled", doubled)
    with pytest.raises(ValueError, match="^Expected `variables` to be a list/tuple/set"):
        archive.add_variable_collection("v", model.weights[0])
    archive.add_variable_collection("my_weights", model.weights)
    assert [v.shape for v in archive.trainable_variables] == [(3, 2), (2,)]
    path = str(tmp_path / "archive")
    archive.write_out(path, verbose=False)
    reloaded = tf.saved_model.load(path)
    np.testing.assert_array_equal(reloaded.call(tf.ones([1, 3])).numpy(), [[4, 4]])
    np.testing.assert_array_equal(reloaded.doubled(tf.ones([1, 3])).numpy(), [[8, 8]])
    np.testing.assert_array_equal(
        reloaded.signatures["serving_default"](tf.ones([1, 3]))["output_0"].numpy(), [[4, 4]])


def test_tfsm_layer_runs_an_export_inside_a_model(model, tmp_path):
    path = str(tmp_path / "m")
    model.export(path, verbose=False)
    layer = keras.layers.TFSMLayer(path, call_endpoint="serve", trainable=False)
    assert layer.get_config()["call_endpoint"] == "serve" and layer.trainable_weights == []
    assert [tuple(w.shape) for w in layer.weights] == [(3, 2), (2,)]
    inputs = keras.Input((3,))
    outer = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(layer(inputs)))
    np.testing.assert_array_equal(outer(tf.ones([2, 3])).numpy(), [[8.0], [8.0]])
    with pytest.raises(ValueError, match="^The endpoint 'nope' is neither an attribute of "
                       "the reloaded SavedModel, nor an entry in the `signatures` field"):
        keras.layers.TFSMLayer(path, call_endpoint="nope")


def test_tfsm_layer_trains_and_a_loaded_function_joins_a_trace(tmp_path):
    # Keras 3.15 on TF 2.21, the same fit: kernel 0.7 everywhere, bias -0.3
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    path = str(tmp_path / "m")
    m.export(path, verbose=False)
    reloaded = tf.saved_model.load(path)
    doubled = tf.function(lambda x: reloaded.serve(x) * 2.0)
    np.testing.assert_array_equal(doubled(tf.ones([1, 3])).numpy(), [[6.0, 6.0]])
    layer = keras.layers.TFSMLayer(path)
    inputs = keras.Input((3,))
    model = keras.Model(inputs, layer(inputs))
    model.compile(loss="mse", optimizer=keras.optimizers.SGD(0.1))
    model.fit(np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32), verbose=0)
    np.testing.assert_allclose(layer.weights[0].numpy(), np.full((3, 2), 0.7), rtol=1e-6)
    np.testing.assert_allclose(layer.weights[1].numpy(), [-0.3, -0.3], rtol=1e-6)
