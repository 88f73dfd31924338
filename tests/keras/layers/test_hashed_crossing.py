"""keras.layers.HashedCrossing against Keras 3.15 on TF 2.21
(tests/data/keras_hashed_crossing.npz, recorded by
tools/record_keras_hashed_crossing.py): exact bins and one-hot outputs, dtypes
and configs, eagerly and in a tf.function; Keras's errors for bad features."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_hashed_crossing import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_hashed_crossing_is_keras(name, mode):
    ours = run_case(tf.keras, name, MODES[mode])
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, (name, key)
        np.testing.assert_array_equal(got, want, err_msg=f"{name}/{key}")


def test_config_round_trips_and_output_shape():
    layer = tf.keras.layers.HashedCrossing(7, output_mode="one_hot", name="cross")
    again = tf.keras.layers.HashedCrossing.from_config(layer.get_config())
    assert again.get_config() == layer.get_config()
    assert layer.compute_output_shape([(None, 1), (None, 1)]) == (None, 7)
    a, b = tf.keras.Input((1,), dtype="string"), tf.keras.Input((1,), dtype="int64")
    model = tf.keras.Model([a, b], tf.keras.layers.HashedCrossing(5)([a, b]))
    np.testing.assert_array_equal(
        model.predict([np.array([["A"], ["B"]]), np.array([[101], [101]])], verbose=0),
        [[1], [4]])


@pytest.mark.parametrize("inputs,match", [
    (np.array([1, 2]), "should be called on a list or tuple"),
    ([np.array([1, 2])], "at least two inputs"),
    ([np.ones((2, 2), np.int64), np.ones((2, 2), np.int64)], "should have shape"),
    ([np.ones((2,), np.int64), np.ones((3,), np.int64)], "equal shape"),
    ([np.ones((2,), np.float32), np.ones((2,), np.int64)], "integer or string dtype"),
])
def test_bad_features_are_keras_errors(inputs, match):
    with pytest.raises(ValueError, match=match):
        tf.keras.layers.HashedCrossing(3)(inputs)
