"""Resizing with every interpolation, antialias and pad_to_aspect_ratio, and
UpSampling2D with bilinear, bicubic and lanczos3 interpolation, against
Keras 3.15 on TF 2.21 (tests/data/keras_resizing.npz, recorded by
tools/record_keras_resizing.py): outputs and input gradients, eagerly and in a
tf.function; Keras's errors for bad arguments."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_resizing import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_resizing_is_keras(name, mode):
    ours = run_case(tf.keras, tf, name, MODES[mode])
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=f"{name}/{key}")


def test_bad_arguments_are_keras_errors():
    with pytest.raises(ValueError, match="Invalid value for argument `interpolation`"):
        tf.keras.layers.Resizing(4, 4, interpolation="cubic")
    with pytest.raises(ValueError, match="Only one of `pad_to_aspect_ratio` & "
                                         "`crop_to_aspect_ratio` can be `True`"):
        tf.keras.layers.Resizing(4, 4, pad_to_aspect_ratio=True, crop_to_aspect_ratio=True)
    with pytest.raises(ValueError, match="Invalid value for argument `interpolation`"):
        tf.keras.layers.UpSampling2D(interpolation="gaussian")
    layer = tf.keras.layers.UpSampling2D(interpolation="bilinear")
    assert tf.keras.layers.UpSampling2D.from_config(layer.get_config()).get_config() == \
        layer.get_config()
