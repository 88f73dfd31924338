"""Conv1DTranspose/Conv2DTranspose `output_padding` against Keras 3.15 on TF 2.21
(tests/data/conv_transpose_output_padding.npz, recorded by
tools/record_conv_transpose_padding.py): output shapes and values, the config, and
Keras's error for a padding not below its stride."""

import numpy as np
import pytest

import runtime as tf
from tools.record_conv_transpose_padding import CASES, OUT, run

RECORD = np.load(OUT)


def test_outputs_are_keras():
    ours = run(tf.keras)
    assert sorted(ours) == sorted(RECORD.files) == sorted(CASES)
    for name, want in RECORD.items():
        assert ours[name].shape == want.shape, name
        np.testing.assert_allclose(ours[name], want, rtol=1e-6, atol=1e-5, err_msg=name)


def test_config_keeps_output_padding_as_keras():
    assert tf.keras.layers.Conv2DTranspose(4, 3, strides=2).get_config()["output_padding"] \
        is None
    assert tf.keras.layers.Conv2DTranspose(4, 3, strides=2,
                                           output_padding=1).get_config()["output_padding"] \
        == (1, 1)
    assert tf.keras.layers.Conv1DTranspose(4, 3, strides=2,
                                           output_padding=1).get_config()["output_padding"] \
        == (1,)


def test_output_padding_must_be_below_the_stride():
    with pytest.raises(ValueError, match=r"`output_padding` must be strictly less than "
                                         r"`strides` for all dimensions\. At dimension 0, "
                                         r"`output_padding` is 2 but `strides` is 2\. "
                                         r"Received: output_padding=\(2, 2\), strides=\(2, 2\)"):
        tf.keras.layers.Conv2DTranspose(4, 3, strides=2, output_padding=2)
