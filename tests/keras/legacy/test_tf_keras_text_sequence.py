"""tf.keras's Keras 2 names (TF 2.21's Keras 3.15 `keras._tf_keras`) against
their recorded values (tools/record_tf_keras_legacy.py wrote
tests/data/tf_keras_legacy.json; each test reruns the recorder's cases on
runtime.keras and compares): `tf.keras.preprocessing.text.Tokenizer`
(word_index, word_counts, index_docs, texts_to_sequences,
sequences_to_texts, texts_to_matrix in binary / count / freq / tfidf
modes, to_json then `tf.keras.preprocessing.text.tokenizer_from_json`),
`tf.keras.preprocessing.text.text_to_word_sequence`,
`tf.keras.preprocessing.text.hashing_trick` (md5),
`tf.keras.preprocessing.sequence.make_sampling_table`,
`tf.keras.preprocessing.sequence.skipgrams` (Python's `random` seeded: the
same couples and labels) and
`tf.keras.preprocessing.sequence.TimeseriesGenerator` (numpy's seeded RNG
for shuffle), with their errors."""

import json
import os
import random

import numpy as np
import pytest

import runtime as tf
from tools import record_tf_keras_legacy as recorder

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "tf_keras_legacy.json")
T = tf.keras.preprocessing.text
S = tf.keras.preprocessing.sequence


@pytest.fixture(scope="module")
def recorded():
    with open(DATA) as f:
        return json.load(f)


def _close(ours, theirs, path="value"):
    """Equal JSON values, floats to 1e-6 relative."""
    if isinstance(theirs, float) or isinstance(ours, float):
        assert np.isclose(ours, theirs, rtol=1e-6, atol=1e-7), path
    elif isinstance(theirs, dict):
        assert sorted(map(str, ours)) == sorted(theirs), path
        for key in theirs:
            _close(ours.get(key, ours.get(int(key)) if key.isdigit() else None), theirs[key],
                   f"{path}.{key}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, f"{path}[{i}]")
    else:
        assert ours == theirs, path


@pytest.fixture(scope="module")
def ours():
    return {"text": json.loads(json.dumps(recorder._text(tf.keras))),
            "sequence": json.loads(json.dumps(recorder._sequence(tf.keras)))}


@pytest.mark.parametrize("section,key", [
    ("text", "words"), ("text", "words_raw"), ("text", "md5"), ("text", "errors"),
    ("text", "fit_on_sequences")] + [("tokenizer", k) for k in
                                     ("plain", "num4", "oov", "char", "nolower")] + [
    ("sequence", "table"), ("sequence", "table_f"), ("sequence", "skipgrams"),
    ("sequence", "timeseries"), ("sequence", "ts_errors")])
def test_matches_keras_3_15_recorded(recorded, ours, section, key):
    if section == "tokenizer":
        _close(ours["text"]["tokenizer"][key], recorded["text"]["tokenizer"][key], key)
        return
    theirs = recorded[section][key]
    if key == "ts_errors":      # Keras 3.15's to_json fails (AttributeError); ours works
        theirs = theirs[:2]
        assert json.loads(S.TimeseriesGenerator(np.arange(4), np.arange(4), 1).to_json())[
            "class_name"] == "TimeseriesGenerator"
        assert ours[section][key][2] is None
        _close(ours[section][key][:2], theirs, key)
        return
    _close(ours[section][key], theirs, key)


def test_word_index_orders_by_count_then_first_seen():
    tok = T.Tokenizer()
    tok.fit_on_texts(["b a", "c a b"])
    assert tok.word_index == {"b": 1, "a": 2, "c": 3}      # b and a: 2 each
    assert tok.texts_to_matrix(["a a z"], mode="count").tolist() == [[0, 0, 2, 0]]
    assert tok.texts_to_matrix(["a a z"]).dtype == np.float64


def test_one_hot_hashes_into_range_and_repeats():
    out = T.one_hot("the cat the dog", 7)
    assert len(out) == 4 and all(1 <= i <= 6 for i in out) and out[0] == out[2]
    assert T.hashing_trick("x", 5, hash_function=lambda w: 13) == [13 % 4 + 1]


def test_to_json_round_trip_keeps_tables():
    tok = T.Tokenizer(num_words=3, oov_token="?")
    tok.fit_on_texts(["a b a", "c"])
    back = T.tokenizer_from_json(tok.to_json())
    assert back.word_index == tok.word_index and back.index_word == tok.index_word
    assert back.texts_to_sequences(["a c q"]) == tok.texts_to_sequences(["a c q"]) == [[2, 1, 1]]
    assert back.num_words == 3 and back.document_count == 2


def test_timeseries_generator_is_a_py_dataset_model_fit_reads():
    gen = S.TimeseriesGenerator(np.ones((12, 2), "float32"), np.zeros((12, 1), "float32"),
                                length=3, batch_size=4)
    assert isinstance(gen, tf.keras.utils.PyDataset) and len(gen) == 3
    model = tf.keras.Sequential([tf.keras.Input((3, 2)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    history = model.fit(gen, epochs=1, verbose=0)
    assert len(history.history["loss"]) == 1


def test_skipgrams_seed_none_draws_from_pythons_random():
    random.seed(1)
    a = S.skipgrams([1, 2, 3], 4)
    random.seed(1)
    assert S.skipgrams([1, 2, 3], 4) == a
    assert sorted(a[1]) == [0] * 6 + [1] * 6      # 6 pairs, 6 negatives
