"""Record Keras 3.15's Conv1DTranspose/Conv2DTranspose with `output_padding`
(ones kernels, zero bias) on TF 2.21.

    $BENCH_TF_PYTHON tools/record_conv_transpose_padding.py
    # writes tests/data/conv_transpose_output_padding.npz

`CASES` and `run(keras)` are shared with the test, which runs them here.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "conv_transpose_output_padding.npz"
CASES = {
    "2d_same_op1": ("Conv2DTranspose", dict(kernel_size=3, strides=2, padding="same",
                                            output_padding=1)),
    "2d_valid_op1": ("Conv2DTranspose", dict(kernel_size=3, strides=2, padding="valid",
                                             output_padding=1)),
    "2d_same_k4_s3_op2": ("Conv2DTranspose", dict(kernel_size=4, strides=3, padding="same",
                                                  output_padding=2)),
    "2d_valid_mixed": ("Conv2DTranspose", dict(kernel_size=(2, 3), strides=(2, 1),
                                               padding="valid", output_padding=(1, 0))),
    "1d_same_op1": ("Conv1DTranspose", dict(kernel_size=3, strides=2, padding="same",
                                            output_padding=1)),
    "1d_valid_op2": ("Conv1DTranspose", dict(kernel_size=2, strides=3, padding="valid",
                                             output_padding=2)),
}


def inputs(kind):
    shape = (2, 5, 6, 3) if kind == "Conv2DTranspose" else (2, 5, 3)
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 50


def run(keras):
    out = {}
    for name, (kind, kwargs) in CASES.items():
        layer = getattr(keras.layers, kind)(4, kernel_initializer="ones",
                                            bias_initializer="zeros", **kwargs)
        out[name] = np.asarray(layer(inputs(kind)))
    return out


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    np.savez(OUT, **run(keras))
    print(f"wrote {OUT}")
