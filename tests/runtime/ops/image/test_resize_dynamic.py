"""`tf.image.resize` of images whose size is known only at run time (the
ResizeAxis op): every method's pixels and gradients equal the static path's,
which tests/runtime/ops/image/test_image_ops.py holds to TF 2.21's."""

import numpy as np
import pytest

import runtime as tf

IMAGES = np.random.default_rng(5).random((2, 13, 17, 3)).astype(np.float32)
UNKNOWN = tf.TensorSpec([None, None, None, 3], tf.float32)
METHODS = ["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"]


def _resize_and_grad(method, antialias, size):
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, size, method=method, antialias=antialias)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, x)
    return run


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("antialias", [False, True])
def test_unknown_size_resizes_as_the_known_size(method, antialias):
    run = _resize_and_grad(method, antialias, (9, 6))
    y, dx = run(tf.constant(IMAGES))
    traced = tf.function(run, input_signature=[UNKNOWN])
    y2, dx2 = traced(tf.constant(IMAGES))
    assert traced.get_concrete_function().structured_outputs[0].shape.as_list() == [
        None, 9, 6, 3]
    np.testing.assert_array_equal(y2.numpy(), y.numpy())
    np.testing.assert_allclose(dx2.numpy(), dx.numpy(), rtol=0, atol=2e-7)


def test_nearest_keeps_the_dtype_and_a_map_gets_tfs_static_shape():
    pixels = (IMAGES[0] * 255).astype(np.uint8)
    traced = tf.function(lambda x: tf.image.resize(x, (4, 5), method="nearest"),
                         input_signature=[tf.TensorSpec([None, None, 3], tf.uint8)])
    np.testing.assert_array_equal(traced(pixels).numpy(),
                                  tf.image.resize(pixels, (4, 5), method="nearest").numpy())
    ds = tf.data.Dataset.from_tensor_slices([tf.io.encode_png(pixels)]).map(
        lambda b: tf.image.resize(tf.io.decode_png(b, channels=3), (8, 8)))
    assert ds.element_spec.shape.as_list() == [8, 8, 3]
    np.testing.assert_array_equal(next(iter(ds)).numpy(),
                                  tf.image.resize(pixels, (8, 8)).numpy())


def test_preserve_aspect_ratio_needs_the_size_while_tracing():
    traced = tf.function(lambda x: tf.image.resize(x, (4, 5), preserve_aspect_ratio=True),
                         input_signature=[UNKNOWN])
    with pytest.raises(ValueError, match="preserve_aspect_ratio needs the image's height"):
        traced(IMAGES)
