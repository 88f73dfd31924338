"""Record TensorFlow 2.21's values for tests/data/morphology_tf221.npz.

    /tmp/tfvenv/bin/python tools/record_morphology.py

`cases(tf, wrap)` is written once for both libraries: tf.nn.dilation2d and
erosion2d on random images (no ties) with VALID and SAME padding, strides
and rates, through `wrap` (the identity, or tf.function in the test), with
the gradients of a weighted sum with respect to the image and the filters.
tests/runtime/test_morphology.py replays them.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "morphology_tf221.npz"


def _case_table(tf):
    rng = np.random.default_rng(3)
    x = rng.standard_normal([2, 6, 7, 3])
    f = rng.standard_normal([2, 3, 3]) * 0.5
    nn = tf.nn
    return {
        "dilation_valid": (lambda a, b: nn.dilation2d(a, b, [1, 1, 1, 1], "VALID", "NHWC",
                                                      [1, 1, 1, 1]), x, f, "float32"),
        "dilation_same_strided": (lambda a, b: nn.dilation2d(a, b, [1, 2, 3, 1], "SAME", "NHWC",
                                                             [1, 1, 1, 1]), x, f, "float64"),
        "dilation_rates": (lambda a, b: nn.dilation2d(a, b, [1, 1, 2, 1], "SAME", "NHWC",
                                                      [1, 2, 2, 1]), x, f, "float64"),
        "erosion_valid": (lambda a, b: nn.erosion2d(a, b, [1, 1, 1, 1], "VALID", "NHWC",
                                                    [1, 1, 1, 1]), x, f, "float32"),
        "erosion_same_rates": (lambda a, b: nn.erosion2d(a, b, [1, 2, 1, 1], "SAME", "NHWC",
                                                         [1, 1, 2, 1]), x, f, "float64"),
    }


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [output, gradient wrt input, gradient wrt filters]."""
    out = {}
    for name, (fn, x, f, dtype) in _case_table(tf).items():
        if names is not None and name not in names:
            continue
        args = [tf.constant(x.astype(dtype)), tf.constant(f.astype(dtype))]

        def run(a, b, fn=fn):
            with tf.GradientTape() as tape:
                tape.watch([a, b])
                y = fn(a, b)
                weights = tf.cos(tf.reshape(tf.range(tf.size(y), dtype=y.dtype), tf.shape(y)))
                loss = tf.reduce_sum(y * weights)
            return [y] + list(tape.gradient(loss, [a, b]))
        out[name] = [np.asarray(t.numpy()) for t in wrap(run)(*args)]
    return out


def main():
    import tensorflow as tf
    flat = {f"{n}/{i}": v for n, vs in cases(tf).items() for i, v in enumerate(vs)}
    np.savez_compressed(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
