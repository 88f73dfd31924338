"""`tf.keras.layers.RandomHeight`, `tf.keras.layers.RandomWidth` and
`tf.keras.layers.ThresholdedReLU` (tf.keras's Keras 2 layers, TF 2.21's Keras
3.15) against their recorded values (tests/data/tf_keras_legacy.json, from
tools/record_tf_keras_legacy.py): resized values for fixed factors (every
interpolation), configs, output shapes and errors. Random factors: Keras's
stream is TF's, so the sizes drawn are checked for their bounds
(int(side * U[1 + lower, 1 + upper))) and their spread, eagerly and inside
tf.function."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from tools import record_tf_keras_legacy as recorder

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "tf_keras_legacy.json")
L = tf.keras.layers
X = np.arange(2 * 4 * 5 * 1, dtype="float32").reshape(2, 4, 5, 1)


@pytest.fixture(scope="module")
def pair():
    with open(DATA) as f:
        theirs = json.load(f)["layers"]
    return json.loads(json.dumps(recorder._layers(tf.keras))), theirs


def _same(a, b, key):
    if key.endswith("errors"):
        assert a == b, key
    elif isinstance(b, list) and b and isinstance(b[0], (list, float)):
        np.testing.assert_allclose(np.asarray(a, "float64"), np.asarray(b, "float64"),
                                   rtol=1e-5, atol=1e-5, err_msg=key)
    else:
        assert a == b, key


@pytest.mark.parametrize("name", ["RandomHeight", "RandomWidth", "ThresholdedReLU"])
def test_matches_keras_3_15_recorded(pair, name):
    ours, theirs = pair
    assert sorted(ours[name]) == sorted(theirs[name])
    for key in theirs[name]:
        _same(ours[name][key], theirs[name][key], f"{name}.{key}")


@pytest.mark.parametrize("cls,axis", [(L.RandomHeight, 1), (L.RandomWidth, 2)])
def test_random_sizes_within_keras_bounds(cls, axis):
    layer = cls((-0.5, 0.5), seed=3)
    side = X.shape[axis]
    sizes = {layer(X).shape[axis] for _ in range(30)}
    assert sizes <= set(range(int(side * 0.5), int(side * 1.5) + 1)) and len(sizes) >= 3
    assert layer(X, training=False).shape == X.shape
    assert np.array_equal(cls(0.0)(X).numpy(), X)      # factor 0: the identity


@pytest.mark.parametrize("cls,axis", [(L.RandomHeight, 1), (L.RandomWidth, 2)])
def test_inside_tf_function(cls, axis):
    fixed, free = cls((1.0, 1.0)), cls(0.5)
    f = tf.function(lambda x: (fixed(x), free(x)))
    doubled, drawn = f(tf.constant(X))
    np.testing.assert_allclose(doubled.numpy(), fixed(X).numpy())
    assert doubled.shape[axis] == 2 * X.shape[axis]
    assert int(X.shape[axis] * 0.5) <= drawn.shape[axis] <= int(X.shape[axis] * 1.5)
    g = tf.function(lambda x, t: free(x, training=t))
    assert g(tf.constant(X), tf.constant(False)).shape == X.shape


def test_config_round_trip_and_serialization():
    layer = L.RandomWidth((-0.2, 0.3), interpolation="nearest", seed=7)
    back = L.RandomWidth.from_config(layer.get_config())
    assert (back.factor, back.interpolation, back.seed) == ((-0.2, 0.3), "nearest", 7)
    relu = L.deserialize(L.serialize(L.ThresholdedReLU(theta=0.25)))
    assert isinstance(relu, L.ThresholdedReLU) and relu.get_config()["theta"] == 0.25


def test_thresholded_relu_gradient_and_mask():
    x = tf.constant([-1.0, 0.5, 1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = L.ThresholdedReLU(theta=0.5)(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0, 0, 1, 1])
    assert L.ThresholdedReLU().supports_masking
    assert L.ThresholdedReLU().compute_output_shape((2, 3)) == (2, 3)
