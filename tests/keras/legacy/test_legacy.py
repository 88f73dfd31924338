"""keras.optimizers.legacy, keras.legacy.saving and keras.utils.legacy against
Keras 3.15's recorded results (on TF 2.21; tools/record_keras_legacy.py wrote
tests/data/keras_legacy_keras315.json): every `keras.optimizers.legacy.Adam`
(`SGD`, `RMSprop`, `Adagrad`, `Ftrl`, `Optimizer`) raises Keras's ImportError,
and `keras.legacy.saving.serialize_keras_object` /
`keras.legacy.saving.deserialize_keras_object` (the same functions as
`keras.utils.legacy.serialize_keras_object` /
`keras.utils.legacy.deserialize_keras_object`) write and read Keras 2's
{"class_name", "config"} dicts: layers, optimizers, losses, metrics,
initializers, regularizers, functions by name, a user's class holding objects
(marked "__passive_serialization__"), and the errors for bad configs."""

import json
import os

import pytest

import runtime as tf
from tools.record_keras_legacy import run_cases

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "keras_legacy_keras315.json")
# Keras 3.15 fails on a name found only in module_objects (AttributeError on a
# module attribute Keras 3 no longer has); we return the object
# (docs/tf_differences.md)
DIFFERS = {"error_name_in_module_objects"}


@pytest.fixture(scope="module")
def results():
    with open(DATA) as f:
        recorded = json.load(f)["cases"]
    return recorded, run_cases(tf.keras)


def _cases():
    with open(DATA) as f:
        recorded = json.load(f)["cases"]
    out = [(key, None) for key in recorded if not isinstance(recorded[key], dict)
           or key == "optimizers"]
    for label in ("legacy_saving", "utils_legacy"):
        for part in ("serialized", "deserialized"):
            out += [(label, (part, name)) for name in recorded[label][part]
                    if name not in DIFFERS]
    return out


@pytest.mark.parametrize("key,sub", _cases(), ids=lambda v: "-".join(v) if isinstance(v, tuple) else v)
def test_matches_keras(results, key, sub):
    recorded, ours = results
    want, got = recorded[key], ours[key]
    if sub is not None:
        want, got = want[sub[0]][sub[1]], got[sub[0]][sub[1]]
    assert got == want


def test_name_only_in_module_objects_is_found(results):
    _, ours = results
    for label in ("legacy_saving", "utils_legacy"):
        assert ours[label]["deserialized"]["error_name_in_module_objects"] == "no error"
        module = tf.keras.utils.legacy if label == "utils_legacy" else tf.keras.legacy.saving
        zeros = module.deserialize_keras_object("Zeros", module_objects={
            "Zeros": tf.keras.initializers.Zeros})
        assert isinstance(zeros, tf.keras.initializers.Zeros)


def test_legacy_optimizer_is_not_an_optimizer():
    legacy = tf.keras.optimizers.legacy
    assert not issubclass(legacy.Adam, tf.keras.optimizers.Optimizer)
    with pytest.raises(ImportError, match="tf_keras"):
        legacy.SGD(0.1, momentum=0.9)
