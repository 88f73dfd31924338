"""Record TensorFlow 2.21's values for tests/data/conv3d_tf221.npz.

    /tmp/tfvenv/bin/python tools/record_conv3d.py

`cases(tf, wrap)` is written once for both libraries: each case runs
tf.nn.conv3d, conv3d_transpose, max_pool3d or avg_pool3d on fixed inputs
(VALID and SAME, strides, a depth smaller than the window; TF's CPU
kernels refuse NCDHW and dilations, which the test checks otherwise) under a GradientTape, through `wrap` (the identity, or tf.function
in the test's traced mode), and returns the output and the gradients of
its weighted sum with respect to the float inputs.
tests/runtime/test_conv3d.py replays them.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "conv3d_tf221.npz"


def _values(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape)


def _case_table(tf):
    """name -> (function, inputs as (values, dtype))."""
    nn = tf.nn
    f32, f64 = "float32", "float64"
    x = _values([2, 5, 4, 6, 3], 1)
    k = _values([2, 3, 2, 3, 4], 2)
    return {
        "conv_valid": (lambda a, b: nn.conv3d(a, b, [1, 1, 1, 1, 1], "VALID"),
                       [(x, f32), (k, f32)]),
        "conv_same_strided": (lambda a, b: nn.conv3d(a, b, [1, 2, 1, 2, 1], "SAME"),
                              [(x, f64), (k, f64)]),
        "transpose_same": (lambda a, b: nn.conv3d_transpose(
            a, b, [2, 5, 4, 6, 4], [1, 1, 1, 1, 1], "SAME"),
            [(_values([2, 5, 4, 6, 3], 3), f64), (_values([2, 3, 2, 4, 3], 4), f64)]),
        "transpose_valid_strided": (lambda a, b: nn.conv3d_transpose(
            a, b, [2, 6, 5, 7, 4], [1, 2, 1, 2, 1], "VALID"),
            [(_values([2, 3, 3, 3, 3], 5), f64), (_values([2, 3, 2, 4, 3], 6), f64)]),
        "transpose_same_strided": (lambda a, b: nn.conv3d_transpose(
            a, b, [1, 5, 4, 5, 2], 2, "SAME"),
            [(_values([1, 3, 2, 3, 3], 7), f32), (_values([3, 2, 3, 2, 3], 8), f32)]),
        "max_valid": (lambda a: nn.max_pool3d(a, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
                      [(x, f32)]),
        "max_same_strided": (lambda a: nn.max_pool3d(a, 3, 2, "SAME"), [(x, f32)]),
        "avg_valid": (lambda a: nn.avg_pool3d(a, [1, 2, 3, 2, 1], [1, 1, 1, 2, 1], "VALID"),
                      [(x, f32)]),
        "avg_same_strided": (lambda a: nn.avg_pool3d(a, 3, [1, 2, 2, 2, 1], "SAME"),
                             [(x, f32)]),
        "avg_same_deep_window": (lambda a: nn.avg_pool3d(a, [1, 4, 1, 1, 1], 1, "SAME"),
                                 [(x[:, :2], f32)]),
    }


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [output, gradients...] as numpy arrays."""
    out = {}
    for name, (fn, inputs) in _case_table(tf).items():
        if names is not None and name not in names:
            continue
        args = [tf.constant(np.asarray(v, dtype)) for v, dtype in inputs]

        def run(*args, fn=fn):
            with tf.GradientTape() as tape:
                tape.watch(args)
                y = fn(*args)
                weights = tf.cos(tf.reshape(tf.range(tf.size(y), dtype=y.dtype), tf.shape(y)))
                loss = tf.reduce_sum(y * weights)
            return [y] + list(tape.gradient(loss, args))
        out[name] = [np.asarray(t.numpy()) for t in wrap(run)(*args)]
    return out


def main():
    import tensorflow as tf
    flat = {f"{name}/{i}": v for name, values in cases(tf).items()
            for i, v in enumerate(values)}
    np.savez_compressed(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
