"""StringLookup/IntegerLookup with num_oov_indices 0, 2, 3, 4, 5 (and salts), and
Hashing with a salt, against
Keras 3.15 on TF 2.21 (tests/data/keras_lookup_oov.npz, recorded by
tools/record_keras_lookup_oov.py): exact indices and encodings, and the
vocabularies, eagerly and in a tf.function; the error for an unknown token
without OOV indices."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_lookup_oov import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_lookup_oov_is_keras(name, mode):
    ours = run_case(tf.keras, name, MODES[mode])
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_array_equal(got, want, err_msg=f"{name}/{key}")


@pytest.mark.parametrize("mode", list(MODES))
def test_unknown_token_without_oov_indices_is_an_error(mode):
    layer = tf.keras.layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"When `num_oov_indices=0` all inputs should be in vocabulary, "
                             r"found OOV values\] \[x zz\]"):
        MODES[mode](layer)(np.array(["a", "x", "zz"]))


def test_arguments_and_config():
    with pytest.raises(ValueError, match="`num_oov_indices` must be greater than or equal to 0"):
        tf.keras.layers.StringLookup(num_oov_indices=-1)
    layer = tf.keras.layers.IntegerLookup(vocabulary=[1, 2], num_oov_indices=3,
                                          oov_method="farmhash")
    config = layer.get_config()
    assert config["num_oov_indices"] == 3 and config["oov_method"] == "farmhash"
    assert tf.keras.layers.IntegerLookup.from_config(config).get_config() == config
