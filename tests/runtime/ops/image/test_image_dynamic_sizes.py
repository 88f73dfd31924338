"""tf.image's crops, pads and standardization of images whose height and
width are known only at run time (a decoded file in a tf.data map): the
values, TF's static output shapes and the gradients of the known-size path,
which tests/runtime/ops/image/test_image_ops.py holds to TF 2.21's."""

import numpy as np
import pytest

import runtime as tf

IMAGE = np.random.default_rng(8).random((13, 17, 3)).astype(np.float32)
CASES = {
    "crop_to_bounding_box": (lambda x: tf.image.crop_to_bounding_box(x, 1, 2, 5, 6), [5, 6]),
    "pad_to_bounding_box": (lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 20, 26), [20, 26]),
    "crop_or_pad_smaller": (lambda x: tf.image.resize_with_crop_or_pad(x, 8, 9), [8, 9]),
    "crop_or_pad_larger": (lambda x: tf.image.resize_with_crop_or_pad(x, 16, 20), [16, 20]),
    "crop_or_pad_mixed": (lambda x: tf.image.resize_with_crop_or_pad(x, 7, 30), [7, 30]),
    "standardization": (tf.image.per_image_standardization, [None, None]),
    "central_crop": (lambda x: tf.image.central_crop(x, 0.875), [None, None]),
    "central_crop_half": (lambda x: tf.image.central_crop(x, 0.5), [None, None]),
}


def _value_and_grad(fn):
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, x)
    return run


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("batched", [False, True])
def test_unknown_size_gives_the_known_size_values(name, batched):
    fn, hw = CASES[name]
    image = np.stack([IMAGE, IMAGE[::-1] * 2]) if batched else IMAGE
    spec = tf.TensorSpec(([2] if batched else []) + [None, None, 3], tf.float32)
    run = _value_and_grad(fn)
    y, dx = run(tf.constant(image))
    traced = tf.function(run, input_signature=[spec])
    shape = traced.get_concrete_function().structured_outputs[0].shape.as_list()
    assert shape == ([2] if batched else []) + hw + [3]
    y2, dx2 = traced(tf.constant(image))
    np.testing.assert_allclose(y2.numpy(), y.numpy(), rtol=0, atol=1e-6)
    np.testing.assert_allclose(dx2.numpy(), dx.numpy(), rtol=0, atol=1e-6)


def test_a_window_past_the_image_fails_when_it_runs():
    traced = tf.function(lambda x: tf.image.crop_to_bounding_box(x, 10, 0, 5, 6),
                         input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    with pytest.raises(tf.errors.InvalidArgumentError):
        traced(IMAGE)
