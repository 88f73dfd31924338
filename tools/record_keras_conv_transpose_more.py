"""Record Keras 3.15's Conv1DTranspose/Conv2DTranspose/Conv3DTranspose with
`data_format="channels_first"`, `dilation_rate` > 1 and (3-D) `output_padding`
on TF 2.21: outputs, and the gradients of the output's weighted sum with
respect to the input, kernel and bias, for kernels and biases drawn from
numpy's seed 0.

    $BENCH_TF_PYTHON tools/record_keras_conv_transpose_more.py
    # writes tests/data/keras_conv_transpose_more.npz

`CASES` and `run_case(keras, tf, name, wrap)` are shared with the test, which
runs them here eagerly and wrapped in `tf.function`.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_conv_transpose_more.npz"
CASES = {
    "1d_first": ("Conv1DTranspose", (2, 3, 5), dict(kernel_size=3, strides=2,
                                                    data_format="channels_first")),
    "1d_dilated": ("Conv1DTranspose", (2, 5, 3), dict(kernel_size=3, dilation_rate=2)),
    "1d_dilated_same_first": ("Conv1DTranspose", (2, 3, 6),
                              dict(kernel_size=2, dilation_rate=3, padding="same",
                                   data_format="channels_first")),
    "2d_first": ("Conv2DTranspose", (2, 3, 4, 5), dict(kernel_size=3, strides=2,
                                                       data_format="channels_first")),
    "2d_first_same_op": ("Conv2DTranspose", (2, 3, 4, 5),
                         dict(kernel_size=3, strides=2, padding="same", output_padding=1,
                              data_format="channels_first")),
    "2d_dilated": ("Conv2DTranspose", (2, 4, 5, 3), dict(kernel_size=3, dilation_rate=2)),
    "2d_dilated_same": ("Conv2DTranspose", (2, 4, 5, 3),
                        dict(kernel_size=(2, 3), dilation_rate=(3, 2), padding="same")),
    "3d_first": ("Conv3DTranspose", (1, 2, 3, 4, 3), dict(kernel_size=2, strides=2,
                                                          data_format="channels_first")),
    "3d_dilated": ("Conv3DTranspose", (1, 3, 4, 3, 2), dict(kernel_size=2,
                                                            dilation_rate=2)),
    "3d_dilated_same": ("Conv3DTranspose", (1, 3, 4, 3, 2),
                        dict(kernel_size=3, dilation_rate=(2, 1, 2), padding="same")),
    "3d_output_padding": ("Conv3DTranspose", (1, 3, 2, 3, 2),
                          dict(kernel_size=3, strides=2, output_padding=(1, 0, 1))),
    "3d_same_output_padding": ("Conv3DTranspose", (1, 3, 2, 3, 2),
                               dict(kernel_size=3, strides=(2, 3, 2), padding="same",
                                    output_padding=(1, 2, 0))),
}


def run_case(keras, tf, name, wrap=lambda f: f):
    kind, shape, kwargs = CASES[name]
    layer = getattr(keras.layers, kind)(4, **kwargs)
    x = np.sin(np.arange(np.prod(shape), dtype=np.float32) * 0.37).reshape(shape)
    layer.build(shape)
    rng = np.random.default_rng(0)
    layer.set_weights([rng.uniform(-1, 1, w.shape).astype(np.float32)
                       for w in layer.get_weights()])

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x)
            total = tf.reduce_sum(y * tf.cos(tf.reshape(
                tf.range(tf.size(y), dtype="float32"), tf.shape(y))))
        return [y] + tape.gradient(total, [x, layer.kernel, layer.bias])

    y, gx, gk, gb = wrap(step)(tf.constant(x))
    return {"y": np.asarray(y), "dx": np.asarray(gx), "dkernel": np.asarray(gk),
            "dbias": np.asarray(gb)}


def run(keras, tf):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, tf, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
