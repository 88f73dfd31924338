"""keras.initializers.STFT, keras.layers.STFTSpectrogram and MelSpectrogram
against Keras 3.15 on TF 2.21 (tests/data/keras_spectrogram.npz, recorded by
tools/record_keras_spectrogram.py): kernels for each window, outputs in every
mode with the kernels' gradients, eagerly and in a tf.function; configs,
output shapes and Keras's errors."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_spectrogram import (INITS, MEL_CASES, OUT, STFT_CASES, run_init,
                                            run_mel, run_stft)

RECORD = np.load(OUT)


@pytest.mark.parametrize("name", sorted(INITS))
def test_stft_initializer_is_keras(name):
    np.testing.assert_allclose(run_init(tf.keras, name), RECORD[f"init/{name}"],
                               rtol=1e-5, atol=2e-6)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(STFT_CASES))
def test_stft_spectrogram_is_keras(name, mode):
    ours = run_stft(tf.keras, tf, name, MODES[mode])
    keys = sorted(k.rsplit("/", 1)[1] for k in RECORD.files if k.startswith(f"stft/{name}/"))
    assert sorted(ours) == keys
    for key, got in ours.items():
        want = RECORD[f"stft/{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4, err_msg=f"{name}/{key}")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(MEL_CASES))
def test_mel_spectrogram_is_keras(name, mode):
    got, want = run_mel(tf.keras, name, MODES[mode]), RECORD[f"mel/{name}"]
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


def test_configs_round_trip_and_shapes():
    layer = tf.keras.layers.STFTSpectrogram(mode="stft", frame_length=8, expand_dims=True)
    assert tf.keras.layers.STFTSpectrogram.from_config(layer.get_config()).get_config() == \
        layer.get_config()
    assert layer.compute_output_shape((2, 30, 3)) == (2, 6, 10, 3)
    assert tf.keras.layers.STFTSpectrogram(frame_length=8).compute_output_shape(
        (None, 30, 3)) == (None, 6, 15)
    mel = tf.keras.layers.MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=10)
    assert mel.get_config()["max_freq"] == 8000
    assert tf.keras.layers.MelSpectrogram.from_config(mel.get_config()).get_config() == \
        mel.get_config()
    assert mel.compute_output_shape((2, 200)) == [2, 10, 13]
    init = tf.keras.initializers.get("stft")
    assert isinstance(init, tf.keras.initializers.STFTInitializer)
    assert tf.keras.initializers.serialize(tf.keras.initializers.STFT("imag"))["config"] == \
        {"side": "imag", "window": "hann", "periodic": False, "scaling": "density"}


@pytest.mark.parametrize("make,match", [
    (lambda: tf.keras.initializers.STFT("both"), "side should be 'real' or 'imag'"),
    (lambda: tf.keras.initializers.STFT(window="nope"), "Unknown window type"),
    (lambda: tf.keras.layers.STFTSpectrogram(mode="db"), "Output mode is invalid"),
    (lambda: tf.keras.layers.STFTSpectrogram(frame_length=8, frame_step=9),
     "`frame_step` should be a positive integer"),
    (lambda: tf.keras.layers.STFTSpectrogram(frame_length=8, fft_length=4),
     "`fft_length` should be not less than `frame_length`"),
    (lambda: tf.keras.layers.MelSpectrogram(fft_length=32, sequence_length=64),
     "`fft_length` must be greater than or equal to"),
])
def test_bad_arguments_are_keras_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()
