"""`data_format="channels_first"` in keras.ops's convolutions, pooling and
image ops: the results are Keras 3.15's (on TF 2.21), recorded on the same
inputs in tests/data/keras_ops_channels_first.npz, eagerly and inside
tf.function. (These ops once took the argument and ignored it.)"""

import os

import numpy as np
import pytest

import runtime as tf

ops = tf.keras.ops
DATA = np.load(os.path.join(os.path.dirname(__file__), "..", "..", "data",
                            "keras_ops_channels_first.npz"))
X, IMG = DATA["x"], DATA["img"]
ONES = lambda *shape: np.ones(shape, "float32")  # noqa: E731 - a table of shapes
CF = {"data_format": "channels_first"}

CASES = {
    "conv": lambda x, img: ops.conv(x, ONES(2, 2, 3, 2), **CF),
    "depthwise": lambda x, img: ops.depthwise_conv(x, ONES(2, 2, 3, 2), **CF),
    "separable": lambda x, img: ops.separable_conv(x, ONES(2, 2, 3, 2), ONES(1, 1, 6, 4), **CF),
    "conv_transpose": lambda x, img: ops.conv_transpose(x, ONES(2, 2, 4, 3), strides=2, **CF),
    "max_pool": lambda x, img: ops.max_pool(x, 2, **CF),
    "average_pool": lambda x, img: ops.average_pool(x, 2, **CF),
    "resize": lambda x, img: ops.image.resize(img, (6, 8), **CF),
    "pad_images": lambda x, img: ops.image.pad_images(img, 1, 2, 0, 1, **CF),
    "crop_images": lambda x, img: ops.image.crop_images(img, 1, 1, target_height=2,
                                                         target_width=3, **CF),
    "rgb_to_grayscale": lambda x, img: ops.image.rgb_to_grayscale(img, **CF),
    "rgb_to_hsv": lambda x, img: ops.image.rgb_to_hsv(img, **CF),
    "hsv_to_rgb": lambda x, img: ops.image.hsv_to_rgb(img, **CF),
}


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_channels_first_is_keras_s(name, traced):
    fn = CASES[name]
    run = tf.function(fn) if traced else fn
    got = run(tf.constant(X), tf.constant(IMG))
    want = DATA[name]
    assert tuple(got.shape) == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
