"""`tf.extract_volume_patches` against TF 2.21's recorded values and gradients
(tests/data/volume_patches_tf221.npz, tools/record_volume_patches.py): VALID
and SAME, strides, a window as large as the input and one deeper than it (no
patches), eagerly and inside tf.function."""


import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA as TEST_DATA

DATA = np.load(TEST_DATA / "volume_patches_tf221.npz")
CASES = [   # (ksizes, strides, padding), as tools/record_volume_patches.py
    ([1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 2, 3, 2, 1], [1, 2, 2, 3, 1], "SAME"),
    ([1, 1, 1, 1, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 3, 4, 5, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 4, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
    ([1, 3, 1, 4, 1], [1, 1, 3, 2, 1], "SAME"),
]


def _patches_and_gradient(x, ksizes, strides, padding):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.extract_volume_patches(x, ksizes, strides, padding)
        w = np.arange(int(np.prod(y.shape)), dtype=np.float32).reshape(y.shape) % 7
        loss = tf.reduce_sum(y * w)
    return y, tape.gradient(loss, x)


@pytest.mark.parametrize("i", range(len(CASES)))
def test_extract_volume_patches_is_tfs(i):
    x = tf.constant(DATA["x"])
    y, g = _patches_and_gradient(x, *CASES[i])
    assert y.shape == DATA[f"y{i}"].shape and y.dtype == tf.float32
    np.testing.assert_array_equal(y.numpy(), DATA[f"y{i}"])
    np.testing.assert_allclose(g.numpy(), DATA[f"g{i}"], rtol=0, atol=1e-5)
    traced = tf.function(lambda t: _patches_and_gradient(t, *CASES[i]))(x)
    np.testing.assert_array_equal(traced[0].numpy(), DATA[f"y{i}"])
    np.testing.assert_allclose(traced[1].numpy(), DATA[f"g{i}"], rtol=0, atol=1e-5)


def test_extract_volume_patches_ints_and_bad_arguments():
    ones = tf.ones([1, 1, 1, 1, 1], tf.int32)
    assert tf.extract_volume_patches(ones, [1] * 5, [1] * 5, "VALID").dtype == tf.int32   # as TF
    with pytest.raises(ValueError, match="must be 5-D"):
        tf.extract_volume_patches(tf.ones([1, 2, 2, 1]), [1] * 5, [1] * 5, "VALID")
    with pytest.raises(ValueError, match=r"ksizes must be \[1, planes, rows, cols, 1\]"):
        tf.extract_volume_patches(ones, [2, 1, 1, 1, 1], [1] * 5, "VALID")
    with pytest.raises(ValueError, match="padding must be"):
        tf.extract_volume_patches(ones, [1] * 5, [1] * 5, "FULL")
