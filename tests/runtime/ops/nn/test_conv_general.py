"""`tf.conv`, TensorFlow's N-D convolution op, against TF 2.21's values.

The table is tools/record_conv_general.py's `cases` (TF's outputs in
tests/data/conv_general_tf221.npz): 2-D and 3-D, SAME, VALID and EXPLICIT
padding, strides, dilations, two batch dimensions; eagerly and inside
tf.function, to float32's rounding. TF's CPU kernel refuses 1-D, groups and
CHANNELS_FIRST, and so does this.
"""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_conv_general")
results = results_fixture(table)


@pytest.mark.parametrize("name", NAMES)
def test_conv_values_are_tfs(results, name):
    (value,) = results[name]
    want = DATA[f"{name}/0"]
    assert value.shape == want.shape and value.dtype == want.dtype
    np.testing.assert_allclose(value, want, rtol=1e-5, atol=1e-5)


def test_conv_has_a_gradient_of_its_parts():
    x, k = tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1])
    with tf.GradientTape() as tape:
        tape.watch(k)
        y = tf.reduce_sum(tf.conv(x, k, [1, 1, 1, 1], "VALID"))
    assert tape.gradient(y, k).numpy().ravel().tolist() == [4.0] * 4


def test_what_tfs_cpu_kernel_refuses_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="2 or 3 spatial dimensions"):
        tf.conv(tf.ones([2, 9, 3]), tf.ones([4, 3, 2]), [1, 2, 1], "SAME")
    with pytest.raises(tf.errors.UnimplementedError, match="Grouped/Depthwise"):
        tf.conv(tf.ones([1, 4, 5, 4]), tf.ones([3, 3, 2, 6]), [1, 1, 1, 1], "SAME", groups=2)
    with pytest.raises(tf.errors.UnimplementedError, match="CHANNELS_LAST"):
        tf.conv(tf.ones([1, 2, 4, 5]), tf.ones([3, 3, 2, 2]), [1, 1, 1, 1], "SAME",
                data_format="CHANNELS_FIRST")
