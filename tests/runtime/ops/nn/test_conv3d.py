"""tf.nn.conv3d, conv3d_transpose, max_pool3d and avg_pool3d against
TensorFlow 2.21's values and gradients.

The table is tools/record_conv3d.py's `cases` (written once for both
libraries), TF's results recorded in tests/data/conv3d_tf221.npz: VALID and
SAME, strides, a depth smaller than the window; each case runs eagerly and
inside tf.function with the gradient of a weighted sum of its output.
float64 agrees to 1e-10, float32 to 1e-5. TF's CPU kernels refuse NCDHW
and dilations (ours compute them: checked here against NDHWC and against a
dilated kernel written out with zeros).
"""


import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_conv3d")
results = results_fixture(table)


@pytest.mark.parametrize("name", NAMES)
def test_conv3d_family_values_and_gradients_are_tfs(results, name):
    got = results[name]
    keys = sorted((k for k in DATA.files if k.split("/")[0] == name),
                  key=lambda k: int(k.split("/")[1]))
    assert len(keys) == len(got)
    for key in keys:
        want, value = DATA[key], got[int(key.split("/")[1])]
        assert value.shape == want.shape and value.dtype == want.dtype, (key, value.shape)
        tol = 1e-10 if want.dtype == np.float64 else 1e-5
        np.testing.assert_allclose(value, want, rtol=tol, atol=tol, err_msg=key)


def test_ncdhw_and_dilations_agree_with_ndhwc_and_a_spread_kernel():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal([1, 5, 4, 5, 2]))
    k = tf.constant(rng.standard_normal([2, 2, 2, 2, 3]))
    to_first, to_last = [0, 4, 1, 2, 3], [0, 2, 3, 4, 1]
    want = tf.nn.conv3d(x, k, [1, 2, 1, 1, 1], "SAME")
    got = tf.nn.conv3d(tf.transpose(x, to_first), k, [1, 1, 2, 1, 1], "SAME",
                       data_format="NCDHW")
    np.testing.assert_allclose(tf.transpose(got, to_last).numpy(), want.numpy(), atol=1e-12)
    pooled = tf.nn.max_pool3d(tf.transpose(tf.cast(x, tf.float32), to_first), 2, 1, "VALID",
                              data_format="NCDHW")
    np.testing.assert_array_equal(tf.transpose(pooled, to_last).numpy(),
                                  tf.nn.max_pool3d(tf.cast(x, tf.float32), 2, 1, "VALID"))
    spread = np.zeros([3, 3, 3, 2, 3])           # dilation 2: the taps two apart
    spread[::2, ::2, ::2] = k.numpy()
    np.testing.assert_allclose(
        tf.nn.conv3d(x, k, 1, "VALID", dilations=[1, 2, 2, 2, 1]).numpy(),
        tf.nn.conv3d(x, tf.constant(spread), 1, "VALID").numpy(), atol=1e-12)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1], tf.float64), 1, 1, "VALID"),
     tf.errors.InvalidArgumentError, "float64"),
    (lambda: tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), 1, "FULL"),
     ValueError, "padding must be 'SAME' or 'VALID'"),
    (lambda: tf.nn.conv3d(tf.ones([2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), 1, "VALID"),
     ValueError, "input must be 5-D"),
    (lambda: tf.nn.avg_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, "VALID", data_format="NHWC"),
     ValueError, "data_format must be 'NDHWC' or 'NCDHW'"),
])
def test_bad_arguments_raise(call, error, message):
    with pytest.raises(error, match=message):
        call()
