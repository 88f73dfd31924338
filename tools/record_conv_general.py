"""Record TensorFlow 2.21's values for tests/data/conv_general_tf221.npz.

    $BENCH_TF_PYTHON tools/record_conv_general.py

`cases(tf, wrap)` is written once for both libraries: `tf.conv` (the N-D
convolution op) in 2 and 3 spatial dimensions, SAME, VALID and EXPLICIT
padding, strides, dilations and two batch dimensions; each returns the output
(TF registers no gradient for the Conv op; its CPU kernel refuses 1-D, groups
and CHANNELS_FIRST, which the test checks). tests/runtime/ops/nn/test_conv_general.py replays them eagerly and traced.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "conv_general_tf221.npz"


def _values(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def _case_table(tf):
    """name -> (function, input values, filter values)."""
    return {
        "2d_same": (lambda a, b: tf.conv(a, b, [1, 1, 1, 1], "SAME"),
                    _values([2, 5, 5, 2], 1), _values([3, 3, 2, 3], 2)),
        "2d_valid_strided_dilated": (lambda a, b: tf.conv(a, b, [1, 2, 1, 1], "VALID",
                                                          dilations=[1, 1, 2, 1]),
                                     _values([1, 7, 8, 2], 3), _values([2, 3, 2, 4], 4)),
        "2d_explicit": (lambda a, b: tf.conv(a, b, [1, 1, 1, 1], "EXPLICIT",
                                             explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0]),
                        _values([1, 4, 4, 3], 5), _values([2, 2, 3, 2], 6)),
        "2d_batch_dims": (lambda a, b: tf.conv(a, b, [1, 1, 1, 1], "VALID", batch_dims=2),
                          _values([2, 3, 4, 4, 2], 9), _values([2, 2, 2, 3], 10)),
        "3d_valid": (lambda a, b: tf.conv(a, b, [1, 1, 2, 1, 1], "VALID"),
                     _values([1, 4, 5, 4, 2], 15), _values([2, 2, 2, 2, 3], 16)),
    }


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [output]."""
    out = {}
    for name, (fn, x, k) in _case_table(tf).items():
        if names is not None and name not in names:
            continue

        args = [tf.constant(np.asarray(v, np.float32)) for v in (x, k)]
        out[name] = [np.asarray(wrap(fn)(*args).numpy())]
    return out


def main():
    import tensorflow as tf
    flat = {f"{name}/{i}": v for name, values in cases(tf).items()
            for i, v in enumerate(values)}
    np.savez(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
