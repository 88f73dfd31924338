"""LoRA (`lora_rank`, `lora_alpha`, `enable_lora`) on Dense, EinsumDense, Embedding
and Conv1D/2D/3D against Keras 3.15's recorded results (on TF 2.21;
tools/record_keras_lora.py wrote tests/data/keras_lora_keras315.json and
keras_lora_keras315.keras): variables (paths, dtypes, shapes, trainability,
values) and their order, outputs, gradients, a two-epoch fit, configs and
their round trip, .keras / .weights.h5 files (Keras saves the kernel with LoRA
merged in and zeros the LoRA pair on loading), LoRA on int8 / int4 layers, and
every error message; `save_own_variables` / `load_own_variables`; and the
`Layer.dtype_policy` setter (a quantized policy quantizes a built layer)."""

import json
import os

import numpy as np
import pytest

import runtime as tf
import runtime.keras as keras
from tools.record_keras_lora import _fill, _model, _values, run_cases

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data")
RECORDED = json.load(open(os.path.join(DATA, "keras_lora_keras315.json")))["cases"]


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    return run_cases(keras, tf, str(tmp_path_factory.mktemp("lora")))


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
        # 16-bit matmuls round apart (bfloat16: an ulp is 0.8%)
        rel = 1e-2 if "bfloat16" in path else 1e-3 if "float16" in path else 1e-5
        assert ours == pytest.approx(theirs, rel=rel, abs=2e-6), path
    else:
        assert ours == theirs, path


@pytest.mark.parametrize("group", ["dense", "einsum_dense", "embedding", "conv", "quantized",
                                   "fit", "seeded_fit", "files", "dtype_policy_setter",
                                   "store", "more"])
def test_values_match_keras(ours, group):
    _close(ours[group], RECORDED[group], group)


@pytest.mark.parametrize("name", sorted(RECORDED["errors"]))
def test_errors_match_keras(ours, name):
    theirs = RECORDED["errors"][name]
    if "Exception encountered when calling" in theirs:      # Keras wraps call errors
        kind, rest = theirs.split(": ", 1)
        theirs = f"{kind}: {rest.split(chr(27) + '[1m')[1].split(chr(27))[0]}"
    assert ours["errors"][name] == theirs


def test_keras_file_with_lora_loads_merged():
    model = keras.saving.load_model(os.path.join(DATA, "keras_lora_keras315.keras"))
    hidden = model.get_layer("hidden")
    assert hidden.lora_enabled and (hidden.lora_rank, hidden.lora_alpha) == (2, 2)
    assert not hidden.lora_kernel_a.numpy().any() and not hidden.lora_kernel_b.numpy().any()
    _close(_values(model(_fill((3, 5), 71, 1.0))), RECORDED["keras_file_output"], "output")


def _lora_layer(kind):
    if kind == "model":
        return _model(keras), _fill((3, 5), 1, 1.0)
    if kind == "embedding":
        layer = keras.layers.Embedding(6, 3, lora_rank=2)
        return layer, np.array([[0, 5, 2]], "int32")
    layer, x = {"conv2d": (keras.layers.Conv2D(3, 2, lora_rank=2), _fill((2, 4, 4, 3), 2)),
                "einsum": (keras.layers.EinsumDense("abc,cd->abd", (2, 4), lora_rank=2),
                           _fill((3, 2, 5), 3)),
                "int8": (keras.layers.Dense(4), _fill((3, 5), 4))}[kind]
    if kind == "int8":
        layer.build(x.shape)
        layer.quantize("int8")
        layer.enable_lora(2)
    return layer, x


@pytest.mark.parametrize("kind", ["model", "embedding", "conv2d", "einsum", "int8"])
def test_traced_call_and_gradients_match_eager(kind):
    layer, x = _lora_layer(kind)
    layer(x)
    for i, w in enumerate(layer.weights):      # b nonzero, so a has a gradient
        if w.dtype.name == "float32":
            w.assign(_fill(tuple(w.shape), 40 + i))
    x = tf.constant(x)

    def run(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        return loss, tape.gradient(loss, layer.trainable_weights)

    eager, traced = run(x), tf.function(run)(x)
    assert len(eager[1]) == len([w for w in layer.weights if w.trainable])
    np.testing.assert_allclose(traced[0].numpy(), eager[0].numpy(), rtol=1e-6)
    for a, b in zip(traced[1], eager[1]):
        np.testing.assert_allclose(tf.convert_to_tensor(a).numpy(),
                                   tf.convert_to_tensor(b).numpy(), rtol=1e-5)
        assert np.abs(tf.convert_to_tensor(b).numpy()).sum() > 0
