"""Record TF's `tf.extract_volume_patches` values and gradients into
tests/data/volume_patches_tf221.npz (for tests/runtime/ops/image/test_volume_patches.py).

Run under TensorFlow (2.21 recorded): `$BENCH_TF_PYTHON tools/record_volume_patches.py`.
Case i stores `y{i}` (the patches) and `g{i}` (d sum(patches * w) / d input, with
w = range(size) % 7 in the patches' shape); the input is `x`.
"""

import os

import numpy as np
import tensorflow as tf

CASES = [   # (ksizes, strides, padding)
    ([1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 2, 3, 2, 1], [1, 2, 2, 3, 1], "SAME"),
    ([1, 1, 1, 1, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 3, 4, 5, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 4, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),      # deeper than the input: no patches
    ([1, 3, 1, 4, 1], [1, 1, 3, 2, 1], "SAME"),
]


def weights(shape):
    return tf.reshape(tf.range(int(np.prod(shape)), dtype=tf.float32) % 7., shape)


def main():
    x = tf.constant(np.random.default_rng(0).normal(size=(2, 3, 4, 5, 2)).astype(np.float32))
    out = {"x": x.numpy()}
    for i, (ksizes, strides, padding) in enumerate(CASES):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.extract_volume_patches(x, ksizes, strides, padding)
            loss = tf.reduce_sum(y * weights(y.shape))
        out[f"y{i}"], out[f"g{i}"] = y.numpy(), tape.gradient(loss, x).numpy()
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "volume_patches_tf221.npz")
    np.savez_compressed(path, **out)


if __name__ == "__main__":
    main()
