"""Discretization and Hashing. Expected values come from TF 2.21's Keras 3
for the same inputs."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.layers
X = np.array([[-1.5, 0.0, 0.5], [1.0, 2.5, 7.0]], "float32")
FRUIT = np.array([["apple"], ["banana"], ["cherry"], [""]])


def both(layer, x):
    return [layer(x), tf.function(layer)(tf.constant(x))]


def test_discretization_buckets():
    layer = L.Discretization(bin_boundaries=[0.0, 1.0, 2.5])
    for out in both(layer, X):
        assert out.dtype == tf.int32                                  # TF 2.21: int32
        assert out.numpy().tolist() == [[0, 1, 1], [2, 3, 3]]
    assert layer.get_config() == {"bin_boundaries": [0.0, 1.0, 2.5], "num_bins": None,
                                  "epsilon": 0.01, "output_mode": "int", "sparse": False,
                                  "name": layer.name, "dtype": "float32"}
    out = L.Discretization(bin_boundaries=[0.0, 1.0], output_mode="one_hot")(
        np.array([-1., 0.5, 3.], "float32"))
    np.testing.assert_array_equal(out.numpy(), np.eye(3))
    clone = L.deserialize(L.serialize(layer))
    assert clone(X).numpy().tolist() == [[0, 1, 1], [2, 3, 3]]
    with pytest.raises(ValueError, match="call `adapt\\(dataset\\)` before"):
        L.Discretization(num_bins=4)(X)          # Keras 3.15's error before adapt


def test_hashing_strings_numbers_and_mask():
    layer = L.Hashing(num_bins=5)
    for out in both(layer, FRUIT):
        assert out.dtype == tf.int64 and out.numpy().tolist() == [[1], [1], [1], [3]]
    assert layer(np.array([[1], [22], [-3]])).numpy().tolist() == [[4], [0], [4]]
    assert layer(np.array([[1.7], [22.2]], "float32")).numpy().tolist() == [[4], [0]]
    masked = L.Hashing(num_bins=5, mask_value="")(np.array([["apple"], [""]]))
    assert masked.numpy().tolist() == [[2], [0]]
    assert L.Hashing(num_bins=5, mask_value=0)(np.array([[0], [22]])).numpy().tolist() == [[0],
                                                                                           [1]]
    hot = L.Hashing(num_bins=4, output_mode="one_hot")(np.array([["apple"], ["x"]]))
    np.testing.assert_array_equal(hot.numpy(), [[0, 1, 0, 0], [0, 0, 1, 0]])


def test_hashing_config_and_errors():
    config = L.Hashing(num_bins=5).get_config()
    assert {k: config[k] for k in ("num_bins", "salt", "mask_value", "output_mode",
                                   "sparse")} == {"num_bins": 5, "salt": None,
                                                  "mask_value": None, "output_mode": "int",
                                                  "sparse": False}
    assert config["dtype"]["config"] == {"name": "int64"}
    assert L.Hashing.from_config(config)(FRUIT).numpy().tolist() == [[1], [1], [1], [3]]
    with pytest.raises(ValueError, match="num_bins"):
        L.Hashing(num_bins=0)
    salted = L.Hashing(num_bins=3, salt=133)      # SipHash; TF 2.21's Keras: 0 0 2 1 0
    assert salted(np.array([["A"], ["B"], ["C"], ["D"], ["E"]])).numpy().ravel().tolist() == \
        [0, 0, 2, 1, 0]
    with pytest.raises(ValueError, match="The `salt` argument for `Hashing` can only be a "
                                         "tuple of size 2 integers, or a single integer"):
        L.Hashing(num_bins=3, salt="x")
