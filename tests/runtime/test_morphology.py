"""tf.nn.dilation2d and erosion2d against TensorFlow 2.21's values and
gradients (tools/record_morphology.py's `cases`, written once for both
libraries; TF's results in tests/data/morphology_tf221.npz): VALID and SAME,
strides and rates, random images without ties, eagerly and inside
tf.function, with the gradients of a weighted sum with respect to the image
and the filters. float64 agrees to 1e-10, float32 to 1e-5."""

import pathlib
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import record_morphology as table  # noqa: E402  (the shared case table)

DATA = np.load(table.OUT)
NAMES = sorted({k.split("/")[0] for k in DATA.files})


@pytest.fixture(scope="module", params=["eager", "function"])
def results(request):
    wrap = (lambda f: f) if request.param == "eager" else \
        (lambda f: tf.function(f, autograph=False))
    return table.cases(tf, wrap)


@pytest.mark.parametrize("name", NAMES)
def test_morphology_values_and_gradients_are_tfs(results, name):
    got = results[name]
    for i, value in enumerate(got):
        want = DATA[f"{name}/{i}"]
        assert value.shape == want.shape and value.dtype == want.dtype, (name, i)
        tol = 1e-10 if want.dtype == np.float64 else 1e-5
        np.testing.assert_allclose(value, want, rtol=tol, atol=tol, err_msg=f"{name}/{i}")


def test_erosion_is_the_dual_of_dilation_and_formats_are_checked():
    x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    f = tf.constant([[[0.0], [1.0]], [[2.0], [0.5]]])
    dual = -tf.nn.dilation2d(-x, tf.reverse(f, [0, 1]), [1, 1, 1, 1], "SAME", "NHWC",
                             [1, 1, 1, 1])
    np.testing.assert_array_equal(
        tf.nn.erosion2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]).numpy(), dual.numpy())
    with pytest.raises(ValueError, match="other  than 'NHWC' are not supported"):
        tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NCHW", [1, 1, 1, 1])
