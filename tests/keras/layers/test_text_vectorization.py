"""TextVectorization against Keras 3.15 (values recorded from TensorFlow 2.21 /
Keras 3.15 into tests/data/keras_text_vectorization.json by
tools/record_keras_text.py): the adapted vocabulary and the outputs of every
output mode, eagerly, inside tf.function and in a functional model."""

import json
import os

import numpy as np
import pytest

import runtime as tf

with open(os.path.join(os.path.dirname(__file__), "..", "..", "data",
                       "keras_text_vectorization.json")) as _f:
    RECORDED = json.load(_f)
CASES = RECORDED["cases"]


def _layer(case):
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
    layer = tf.keras.layers.TextVectorization(**kwargs)
    layer.adapt(RECORDED["data"])
    return layer


def _check(case, got):
    got = np.asarray(got)
    assert str(got.dtype) == case["dtype"]
    np.testing.assert_allclose(got.astype(np.float64), np.array(case["output"]), atol=1e-4)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[str(c["kwargs"]) for c in CASES])
def test_adapt_and_call_match_keras(k):
    case = CASES[k]
    layer = _layer(case)
    assert layer.get_vocabulary() == case["vocabulary"]
    assert layer.vocabulary_size() == len(case["vocabulary"])
    _check(case, layer(np.array(RECORDED["queries"])))


@pytest.mark.parametrize("k", [0, 1, 3, 4, 6])
def test_inside_tf_function(k):
    case = CASES[k]
    layer = _layer(case)
    _check(case, tf.function(layer)(tf.constant(RECORDED["queries"])))


def test_functional_model_and_config():
    layer = tf.keras.layers.TextVectorization(vocabulary=["cat", "dog"],
                                              output_sequence_length=3)
    inp = tf.keras.Input(shape=(1,), dtype="string")
    model = tf.keras.Model(inp, layer(inp))
    out = model(np.array([["cat dog bird"], ["Dog!"]]))
    np.testing.assert_array_equal(out, [[2, 3, 1], [3, 0, 0]])
    config = layer.get_config()
    assert config["vocabulary"] == ["cat", "dog"] and config["vocabulary_size"] == 4
    again = tf.keras.layers.TextVectorization.from_config(config)
    assert again.get_vocabulary() == ["", "[UNK]", "cat", "dog"]
    hot = tf.keras.layers.TextVectorization(vocabulary=["cat", "dog"], output_mode="multi_hot")
    np.testing.assert_array_equal(hot("cat bird"), [1, 1, 0])
    assert hot.get_vocabulary(include_special_tokens=False) == ["cat", "dog"]
    ragged = tf.keras.layers.TextVectorization(vocabulary=["a"], ragged=True)(
        ["a b a", "b"])
    assert ragged.to_list() == [[2, 1, 2], [1]]


def test_bad_arguments():
    with pytest.raises(ValueError, match="output_mode"):
        tf.keras.layers.TextVectorization(output_mode="binary")
    with pytest.raises(ValueError, match="ngrams"):
        tf.keras.layers.TextVectorization(ngrams=[1, 2])
    with pytest.raises(ValueError, match="idf_weights"):
        tf.keras.layers.TextVectorization(vocabulary=["a"], output_mode="tf_idf")
