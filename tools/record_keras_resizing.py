"""Record Keras 3.15's Resizing (every interpolation, antialias,
pad_to_aspect_ratio with a fill value) and UpSampling2D (bilinear, bicubic,
lanczos3, channels_first) on TF 2.21, with the gradients of a weighted output
sum for the input (but for "area", which TF does not differentiate).

    $BENCH_TF_PYTHON tools/record_keras_resizing.py
    # writes tests/data/keras_resizing.npz

`CASES` and `run_case(keras, tf, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_resizing.npz"
CASES = {
    "bicubic": ("Resizing", dict(height=7, width=9, interpolation="bicubic"), (2, 5, 6, 3)),
    "area_down": ("Resizing", dict(height=3, width=4, interpolation="area"), (2, 7, 9, 2)),
    "lanczos3": ("Resizing", dict(height=8, width=5, interpolation="lanczos3"), (1, 5, 6, 2)),
    "lanczos5_first": ("Resizing", dict(height=6, width=6, interpolation="lanczos5",
                                        data_format="channels_first"), (1, 2, 5, 7)),
    "antialias_down": ("Resizing", dict(height=3, width=4, antialias=True), (2, 8, 9, 1)),
    "pad_tall": ("Resizing", dict(height=6, width=6, pad_to_aspect_ratio=True, fill_value=9.0),
                 (1, 4, 7, 2)),
    "pad_wide": ("Resizing", dict(height=4, width=8, pad_to_aspect_ratio=True), (2, 5, 6, 1)),
    "up_bilinear": ("UpSampling2D", dict(size=(2, 3), interpolation="bilinear"), (2, 3, 4, 2)),
    "up_bicubic_first": ("UpSampling2D", dict(interpolation="bicubic",
                                              data_format="channels_first"), (1, 2, 3, 3)),
    "up_lanczos3": ("UpSampling2D", dict(size=2, interpolation="lanczos3"), (1, 4, 3, 1)),
}


def run_case(keras, tf, name, wrap=lambda f: f):
    kind, kwargs, shape = CASES[name]
    layer = getattr(keras.layers, kind)(**kwargs)
    x = np.sin(np.arange(int(np.prod(shape)), dtype=np.float32) * 0.7).reshape(shape) * 5

    def step(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = layer(v)
            total = tf.reduce_sum(y * tf.cos(tf.reshape(
                tf.range(tf.size(y), dtype="float32"), tf.shape(y))))
        return y, tape.gradient(total, v)

    if kwargs.get("interpolation") == "area":          # TF has no ResizeArea gradient
        return {"y": np.asarray(wrap(layer)(tf.constant(x)))}
    y, dx = wrap(step)(tf.constant(x))
    return {"y": np.asarray(y), "dx": np.asarray(dx)}


def run(keras, tf):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, tf, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
