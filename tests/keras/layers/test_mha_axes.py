"""MultiHeadAttention with `attention_axes` against Keras 3.15 on TF 2.21
(tests/data/keras_mha_axes.npz, recorded by tools/record_keras_mha_axes.py):
outputs, attention scores and the gradients for the query and the weights,
eagerly and in a tf.function, with one or two attention axes, a negative axis,
an attention mask and dropout (off: not training)."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_mha_axes import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_attention_axes_are_keras(name, mode):
    ours = run_case(tf.keras, tf, name, MODES[mode])
    keys = sorted(k.split("/", 1)[1] for k in RECORD.files if k.startswith(name + "/"))
    assert sorted(ours) == keys
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{name}/{key}")


def test_attention_axes_argument_and_config():
    with pytest.raises(ValueError, match="`attention_axes` must be an int, list, or tuple"):
        tf.keras.layers.MultiHeadAttention(2, 3, attention_axes="1")
    layer = tf.keras.layers.MultiHeadAttention(2, 3, attention_axes=[2])
    config = layer.get_config()
    assert config["attention_axes"] == (2,)
    assert tf.keras.layers.MultiHeadAttention.from_config(config).get_config() == config
