"""Rescaling, Normalization (adapt), CategoryEncoding, StringLookup and
IntegerLookup against Keras 3: the expected values were recorded from
TensorFlow 2.21 / Keras 3.15 with the same calls; eagerly and in a graph."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.layers


def _both(layer, x):
    """layer(x) eagerly and inside tf.function, as numpy; asserted equal."""
    eager = np.asarray(layer(x))
    graph = np.asarray(tf.function(lambda t: layer(t))(tf.constant(x)))
    np.testing.assert_array_equal(eager, graph)
    return eager


def test_string_lookup_adapt_orders_by_count_then_token():
    layer = L.StringLookup()
    layer.adapt(np.array(["b", "a", "c", "a", "b", "d", "a"]))
    assert layer.get_vocabulary() == ["[UNK]", "a", "b", "d", "c"]     # TF 2.21
    out = _both(layer, np.array([["a", "z"], ["d", "b"]]))
    np.testing.assert_array_equal(out, [[1, 0], [3, 2]])
    assert out.dtype == np.int64
    # strings from Python (held as bytes) look up the same
    np.testing.assert_array_equal(layer(tf.constant(["d", "a", "?"])).numpy(), [3, 1, 0])


def test_integer_lookup_adapt():
    layer = L.IntegerLookup()
    layer.adapt(np.array([5, 3, 3, 9, 5, 5]))
    assert layer.get_vocabulary() == [-1, 5, 3, 9]                       # TF 2.21
    np.testing.assert_array_equal(_both(layer, np.array([[5, 7], [9, 3]])), [[1, 0], [3, 2]])


def test_string_lookup_mask_token_multi_hot_and_invert():
    layer = L.StringLookup(vocabulary=["x", "y"], mask_token="")
    assert layer.get_vocabulary() == ["", "[UNK]", "x", "y"]
    np.testing.assert_array_equal(_both(layer, np.array(["x", "", "q", "y"])), [2, 0, 1, 3])
    hot = L.StringLookup(vocabulary=["x", "y"], output_mode="multi_hot")
    np.testing.assert_array_equal(_both(hot, np.array([["x", "q"], ["y", "y"]])),
                                  [[1, 1, 0], [0, 0, 1]])                # TF 2.21
    back = L.StringLookup(vocabulary=["x", "y"], invert=True)
    assert [v.decode() if isinstance(v, bytes) else v
            for v in np.asarray(back(np.array([[1, 2, 0]]))).reshape(-1)] == ["x", "y", "[UNK]"]


def test_normalization_adapt():
    layer = L.Normalization()
    layer.adapt(np.array([[1., 2.], [3., 6.], [5., 7.]]))
    np.testing.assert_allclose(_both(layer, np.array([[1., 1.]], "float32")),
                               [[-1.2247448, -1.8516402]], rtol=1e-6)   # TF 2.21
    assert [w.name.split("/")[-1].split(":")[0] for w in layer.weights] == \
        ["mean", "variance", "count"]
    assert layer.trainable_weights == []


def test_normalization_given_mean_and_gradient():
    layer = L.Normalization(mean=[1.0, 2.0], variance=[4.0, 0.25])
    x = tf.constant([[3.0, 2.5]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    np.testing.assert_allclose(y.numpy(), [[1.0, 1.0]])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[0.5, 2.0]])


def test_category_encoding_modes():
    ids = np.array([[0, 1, 1], [3, 3, 2]])
    np.testing.assert_array_equal(_both(L.CategoryEncoding(4, output_mode="count"), ids),
                                  [[1, 2, 0, 0], [0, 0, 1, 2]])          # TF 2.21
    np.testing.assert_array_equal(_both(L.CategoryEncoding(4), ids),
                                  [[1, 1, 0, 0], [0, 0, 1, 1]])
    one = L.CategoryEncoding(4, output_mode="one_hot")
    np.testing.assert_array_equal(_both(one, np.array([0, 3])), [[1, 0, 0, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(_both(one, np.array([[1], [2]])),
                                  [[0, 1, 0, 0], [0, 0, 1, 0]])
    assert L.CategoryEncoding(4).get_config()["output_mode"] == "multi_hot"


def test_rescaling_and_its_config():
    layer = L.Rescaling(1 / 255.0, offset=-1)
    np.testing.assert_allclose(_both(layer, np.array([[0.0, 255.0]], "float32")), [[-1, 0]])
    config = layer.get_config()
    assert config["scale"] == 0.00392156862745098 and config["offset"] == -1
    assert L.Rescaling.from_config(config).get_config() == config


def test_bad_arguments_are_errors():
    with pytest.raises(ValueError, match="output_mode"):
        L.CategoryEncoding(3, output_mode="tf_idf")
    with pytest.raises(ValueError, match="both `mean` and `variance`"):
        L.Normalization(mean=[1.0])
