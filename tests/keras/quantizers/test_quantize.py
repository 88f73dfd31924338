"""`layer.quantize` / `model.quantize` ("int8", "int4", "float8") against Keras 3.15's
recorded results (on TF 2.21; tools/record_keras_quantize.py wrote
tests/data/keras_quantize_keras315.json and keras_quantized_keras315.keras):
Dense, EinsumDense, Embedding and ReversibleEmbedding variables (names, dtypes,
shapes, values), outputs,
input gradients, a fit, configs and their round trip, the quantized dtype
policies (`keras.dtype_policies.QuantizedDTypePolicy`,
`keras.dtype_policies.Int4DTypePolicy`, `keras.dtype_policies.QuantizedFloat8DTypePolicy`),
`keras.quantizers.Int8QuantizationConfig`, `keras.quantizers.Int4QuantizationConfig`,
`keras.quantizers.Float8QuantizationConfig` (float8 training: fit losses, scales and
amax histories), `keras.quantizers.QuantizationConfig`,
`keras.quantizers.quantize_and_dequantize`, and every error message."""

import json
import os

import numpy as np
import pytest

import runtime as tf
import runtime.keras as keras
from tools.record_keras_quantize import _inputs, _values, run_cases, save_model

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data")
RECORDED = json.load(open(os.path.join(DATA, "keras_quantize_keras315.json")))["cases"]
# Keras 3.15 also has the gptq and awq modes (docs/tf_differences.md)
_THEIR_MODES = "('int8', 'float8', 'int4', 'gptq', 'awq')"
pytestmark = pytest.mark.filterwarnings("ignore:Layer Dropout does not have")


@pytest.fixture(scope="module")
def ours():
    return run_cases(keras, tf)


def _close(ours, theirs, path):
    if isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs), path
        for key in theirs:
            _close(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, f"{path}[{i}]")
    elif isinstance(theirs, float):
        # under mixed_bfloat16 Keras's input gradient is float32's (its dequantized
        # kernel unrounded); ours dequantizes in bfloat16 (2% at most here)
        rel = 2.5e-2 if "bfloat16_int8.input_gradient" in path else 1e-5
        assert ours == pytest.approx(theirs, rel=rel, abs=2e-6), path
    else:
        assert ours == theirs, path


@pytest.mark.parametrize("group", ["dense", "einsum_dense", "embedding", "reversible", "model",
                                   "float8",
                                   "policies",
                                   "quantize_and_dequantize"])
def test_values_match_keras(ours, group):
    theirs = {k: v for k, v in RECORDED[group].items() if not k.startswith("ellipsis")}
    _close({k: ours[group][k] for k in theirs}, theirs, group)


@pytest.mark.parametrize("mode", ["int8", "int4"])
def test_an_ellipsis_equation_quantizes_as_its_spelled_out_form(ours, mode):
    # Keras 3.15 raises TypeError for "..." equations (docs/tf_differences.md)
    assert RECORDED["einsum_dense"][f"ellipsis_{mode}"]["error"].startswith("TypeError")
    rng = np.random.RandomState(3)
    x = rng.normal(size=(3, 2, 5)).astype("float32")
    kernel = rng.normal(size=(5, 4)).astype("float32")
    outputs = []
    for equation in ("...b,bc->...c", "abc,cd->abd"):
        layer = keras.layers.EinsumDense(equation, output_shape=(2, 4) if "a" in equation
                                         else 4)
        layer.build((None, 2, 5))
        layer.set_weights([kernel])
        layer.quantize(mode)
        outputs.append(layer(x).numpy())
    np.testing.assert_array_equal(outputs[0], outputs[1])


@pytest.mark.parametrize("name", sorted(RECORDED["errors"]))
def test_errors_match_keras(ours, name):
    assert ours["errors"][name] == RECORDED["errors"][name].replace(
        _THEIR_MODES, "('int8', 'float8', 'int4')")


def test_keras_file_loads_with_its_quantized_variables(tmp_path):
    model = keras.saving.load_model(os.path.join(DATA, "keras_quantized_keras315.keras"))
    ids = np.array([[0, 1, 2, 3, 4], [5, 5, 0, 1, 3]], "int32")
    _close(_values(model(ids)), RECORDED["saved_model_outputs"], "outputs")
    hidden = model.get_layer("hidden")
    assert repr(hidden.dtype_policy) == '<QuantizedDTypePolicy "int8_from_float32">'
    assert [(w.name, w.dtype.name) for w in hidden.weights] == [
        ("bias", "float32"), ("kernel", "int8"), ("kernel_scale", "float32")]
    table = model.get_layer("table")
    assert [w.name for w in table.weights][-3:] == [
        "reverse_embeddings", "reverse_embeddings_scale", "reverse_embeddings_zero"]
    assert table.reverse_embeddings.shape == (2, 6)
    scaled = model.get_layer("scaled")
    assert repr(scaled.dtype_policy) == '<QuantizedFloat8DTypePolicy "float8_from_float32">'
    assert len(scaled.weights) == 8 and scaled.inputs_amax_history.shape == (1024,)
    path = str(tmp_path / "again.keras")             # and back through our own file
    model.save(path)
    again = keras.saving.load_model(path)
    _close(_values(again(ids)), RECORDED["saved_model_outputs"], "outputs")


def test_our_quantized_model_saves_and_loads(tmp_path):
    model, ids = save_model(keras, str(tmp_path / "m.keras"))
    loaded = keras.saving.load_model(str(tmp_path / "m.keras"))
    np.testing.assert_array_equal(loaded(ids).numpy(), model(ids).numpy())
    def by_name(m):        # a layer built quantized makes its float8 scales first
        return {(layer.name, w.name): w for layer in m.layers for w in layer.weights}
    saved, back = by_name(model), by_name(loaded)
    assert sorted(saved) == sorted(back)
    for key, w in saved.items():
        assert w.dtype == back[key].dtype
        np.testing.assert_array_equal(w.numpy(), back[key].numpy())


@pytest.mark.parametrize("mode", ["int8", "int4"])
def test_traced_call_and_gradient_match_eager(mode):
    layer = keras.layers.Dense(4, name="dense")
    layer.build((None, 5))
    layer.quantize(mode)
    x = tf.constant(_inputs())

    @tf.function
    def traced(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x)
            total = tf.reduce_sum(y)
        return y, tape.gradient(total, x)

    y, grad = traced(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        eager = layer(x)
        total = tf.reduce_sum(eager)
    np.testing.assert_array_equal(y.numpy(), eager.numpy())
    np.testing.assert_allclose(grad.numpy(), tape.gradient(total, x).numpy(), rtol=1e-6)
    assert layer.trainable_weights == [layer.bias]


def test_plain_int8_and_float8_input_dtypes_are_not_policy_names():
    # "int8_from_float32" names a quantized policy; Input(dtype="int8") stays an
    # int8 input, as in Keras 3.15 (keras.dtype_policies.get("int8") refuses, as Keras)
    ids = keras.Input((3,), dtype="int8")
    model = keras.Model(ids, keras.layers.Embedding(5, 2)(ids))
    assert ids.dtype == "int8" and model(np.array([[1, 2, 3]], "int8")).shape == (1, 3, 2)
    assert keras.Input((2,), dtype="float8_e4m3fn").dtype == "float8_e4m3fn"
    with pytest.raises(ValueError, match="Cannot convert `policy` into a valid pair"):
        keras.dtype_policies.get("int8")
