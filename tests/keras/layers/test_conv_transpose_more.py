"""Conv1DTranspose/Conv2DTranspose/Conv3DTranspose with channels_first,
dilation_rate and (3-D) output_padding against Keras 3.15 on TF 2.21
(tests/data/keras_conv_transpose_more.npz, recorded by
tools/record_keras_conv_transpose_more.py): outputs and the gradients for the
input, kernel and bias, eagerly and in a tf.function; configs and Keras's error
for dilation with strides."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_conv_transpose_more import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_transposed_conv_is_keras(name, mode):
    ours = run_case(tf.keras, tf, name, MODES[mode])
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, (name, key)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{name}/{key}")


@pytest.mark.parametrize("kind,n", [("Conv1DTranspose", 1), ("Conv2DTranspose", 2),
                                    ("Conv3DTranspose", 3)])
def test_config_round_trips(kind, n):
    cls = getattr(tf.keras.layers, kind)
    layer = cls(4, 3, dilation_rate=2, data_format="channels_first")
    config = layer.get_config()
    assert config["dilation_rate"] == (2,) * n and config["data_format"] == "channels_first"
    assert cls.from_config(config).get_config() == config


@pytest.mark.parametrize("kind,n", [("Conv1DTranspose", 1), ("Conv2DTranspose", 2),
                                    ("Conv3DTranspose", 3)])
def test_dilation_with_strides_is_keras_error(kind, n):
    with pytest.raises(ValueError, match=r"`strides > 1` not supported in conjunction with "
                                         r"`dilation_rate > 1`\. Received: strides=\(2"):
        getattr(tf.keras.layers, kind)(4, 3, strides=2, dilation_rate=2)
