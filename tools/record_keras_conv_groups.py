"""Record Keras 3.15's grouped Conv1D and Conv3D (`groups` > 1) on TF 2.21:
outputs and the gradients of a weighted output sum for the input, kernel and
bias, with kernels drawn from numpy's seed 0.

    $BENCH_TF_PYTHON tools/record_keras_conv_groups.py
    # writes tests/data/keras_conv_groups.npz

`CASES` and `run_case(keras, tf, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_conv_groups.npz"
CASES = {
    "conv1d_g2": ("Conv1D", dict(filters=4, kernel_size=3, groups=2), (2, 7, 4)),
    "conv1d_g3_same_causal": ("Conv1D", dict(filters=6, kernel_size=2, groups=3,
                                             padding="causal", dilation_rate=2), (1, 6, 3)),
    "conv3d_g2": ("Conv3D", dict(filters=4, kernel_size=2, groups=2), (1, 3, 4, 3, 4)),
    "conv3d_g2_first_same": ("Conv3D", dict(filters=2, kernel_size=(2, 3, 2), groups=2,
                                            padding="same", data_format="channels_first"),
                             (1, 4, 3, 2, 3)),
}


def run_case(keras, tf, name, wrap=lambda f: f):
    kind, kwargs, shape = CASES[name]
    layer = getattr(keras.layers, kind)(**kwargs)
    layer.build(shape)
    rng = np.random.default_rng(0)
    layer.set_weights([rng.uniform(-1, 1, w.shape).astype(np.float32)
                       for w in layer.get_weights()])
    x = np.sin(np.arange(int(np.prod(shape)), dtype=np.float32) * 0.3).reshape(shape)

    def step(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = layer(v)
            total = tf.reduce_sum(y * tf.cos(tf.reshape(
                tf.range(tf.size(y), dtype="float32"), tf.shape(y))))
        return [y] + tape.gradient(total, [v, layer.kernel, layer.bias])

    y, dx, dk, db = wrap(step)(tf.constant(x))
    return {"y": np.asarray(y), "dx": np.asarray(dx), "dkernel": np.asarray(dk),
            "dbias": np.asarray(db)}


def run(keras, tf):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, tf, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
