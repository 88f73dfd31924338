"""Record Keras 3.15's audio pieces on TF 2.21: `keras.initializers.STFT`
kernels (sides, windows, scalings, periodic), `STFTSpectrogram` outputs in every
mode with the gradients of a weighted output sum for its kernels, and
`MelSpectrogram` outputs (Keras needs scipy in the recording venv for the
window names).

    $BENCH_TF_PYTHON tools/record_keras_spectrogram.py
    # writes tests/data/keras_spectrogram.npz

`INITS`, `STFT_CASES`, `MEL_CASES` and the `run_*` functions are shared with
the test, which runs them here.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_spectrogram.npz"
INITS = {
    "real_hann": dict(side="real"),
    "imag_hann_periodic": dict(side="imag", periodic=True),
    "real_hamming_spectrum": dict(side="real", window="hamming", scaling="spectrum"),
    "imag_blackman_none": dict(side="imag", window="blackman", scaling=None),
    "real_boxcar": dict(side="real", window="boxcar"),
    "real_triang_periodic": dict(side="real", window="triang", periodic=True),
    "imag_bartlett": dict(side="imag", window="bartlett"),
    "real_no_window": dict(side="real", window=None),
    "imag_array_window": dict(side="imag", window=[0.1, 0.5, 1.0, 0.5, 0.25, 0.2, 0.1]),
    "real_flattop": dict(side="real", window="flattop", periodic=True),
    "real_nuttall": dict(side="real", window="nuttall"),
    "real_blackmanharris": dict(side="real", window="blackmanharris"),
    "real_cosine": dict(side="real", window="cosine"),
}
INIT_SHAPES = {"imag_array_window": (7, 1, 5), "real_triang_periodic": (6, 1, 5)}
STFT_CASES = {
    "log": dict(frame_length=8),
    "magnitude_same": dict(mode="magnitude", frame_length=8, frame_step=3, padding="same"),
    "psd": dict(mode="psd", frame_length=6, fft_length=8, window="hamming"),
    "real_expand": dict(mode="real", frame_length=8, expand_dims=True),
    "imag_first": dict(mode="imag", frame_length=8, frame_step=4, data_format="channels_first"),
    "angle": dict(mode="angle", frame_length=8, frame_step=5),
    "stft_first_expand": dict(mode="stft", frame_length=7, fft_length=8, periodic=True,
                              data_format="channels_first", expand_dims=True),
    "log_no_window": dict(frame_length=4, window=None, scaling=None),
}
MEL_CASES = {
    "default_small": (dict(fft_length=64, sequence_stride=16, num_mel_bins=10,
                           sampling_rate=8000), (2, 200)),
    "no_db": (dict(fft_length=32, sequence_stride=8, sequence_length=24, num_mel_bins=6,
                   sampling_rate=4000, power_to_db=False, mag_exp=1.0), (3, 90)),
    "one_signal_hamming": (dict(fft_length=64, sequence_stride=20, window="hamming",
                                num_mel_bins=8, min_freq=100.0, max_freq=3000.0,
                                top_db=20.0, ref_power=2.0), (150,)),
}


def signal(shape, scale=0.37):
    return np.sin(np.arange(int(np.prod(shape)), dtype=np.float32) * scale).reshape(shape) \
        + np.cos(np.arange(int(np.prod(shape)), dtype=np.float32) * 1.3).reshape(shape) * 0.5


def run_init(keras, name):
    init = keras.initializers.STFT(**INITS[name])
    return np.asarray(init(INIT_SHAPES.get(name, (8, 1, 5)), "float32"))


def run_stft(keras, tf, name, wrap=lambda f: f):
    kwargs = STFT_CASES[name]
    layer = keras.layers.STFTSpectrogram(**kwargs)
    shape = (2, 3, 30) if kwargs.get("data_format") == "channels_first" else (2, 30, 3)
    layer.build(shape)

    def step(x):
        with tf.GradientTape() as tape:
            y = layer(x)
            total = tf.reduce_sum(y * tf.cos(tf.reshape(
                tf.range(tf.size(y), dtype="float32"), tf.shape(y))))
        return [y] + tape.gradient(total, layer.trainable_weights)

    out = wrap(step)(tf.constant(signal(shape)))
    return {"y": np.asarray(out[0]),
            **{f"grad{i}": np.asarray(g) for i, g in enumerate(out[1:])}}


def run_mel(keras, name, wrap=lambda f: f):
    kwargs, shape = MEL_CASES[name]
    layer = keras.layers.MelSpectrogram(**kwargs)
    return np.asarray(wrap(layer)(signal(shape, 0.9)))


def run(keras, tf):
    out = {f"init/{name}": run_init(keras, name) for name in INITS}
    for name in STFT_CASES:
        out.update({f"stft/{name}/{k}": v for k, v in run_stft(keras, tf, name).items()})
    out.update({f"mel/{name}": run_mel(keras, name) for name in MEL_CASES})
    return out


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
