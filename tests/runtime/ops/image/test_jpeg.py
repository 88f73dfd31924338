"""JPEG decoding and encoding against TensorFlow 2.21's recorded bytes and
pixels (tests/data/jpeg_tf221.npz, from tools/record_jpeg.py): encode_jpeg
byte for byte, decode_jpeg / decode_and_crop_jpeg pixel for pixel, eagerly
and traced, plus TF's errors."""

import sys

import numpy as np
import pytest

import runtime as tf
from runtime._src.core.errors import InvalidArgumentError
from tests.paths import DATA, TOOLS

sys.path.insert(0, str(TOOLS))
import record_jpeg  # noqa: E402

RECORDED = np.load(DATA / "jpeg_tf221.npz")
IMAGES = record_jpeg.images()


def _keys(kind):
    return sorted(k for k in RECORDED.files if k.startswith(kind + "|"))


def _file(name):
    return RECORDED[f"file|{name}"].tobytes()


@pytest.mark.parametrize("key", _keys("enc"))
def test_encode_jpeg_writes_tfs_bytes(key):
    _, image, option = key.split("|")
    got = tf.io.encode_jpeg(IMAGES[image], **record_jpeg.ENCODE_OPTIONS[option])
    assert got.numpy() == RECORDED[key].tobytes()


@pytest.mark.parametrize("key", [k for k in _keys("dec") if "truncated" not in k])
def test_decode_jpeg_gives_tfs_pixels(key):
    _, name, option = key.split("|")
    got = tf.io.decode_jpeg(_file(name), **record_jpeg.DECODE_OPTIONS[option])
    assert got.dtype == tf.uint8
    np.testing.assert_array_equal(got.numpy(), RECORDED[key])


@pytest.mark.parametrize("key", _keys("crop"))
def test_decode_and_crop_jpeg_gives_tfs_pixels(key):
    _, name, window = key.split("|")
    window = [int(v) for v in window.split(",")]
    got = tf.io.decode_and_crop_jpeg(_file(name), window)
    np.testing.assert_array_equal(got.numpy(), RECORDED[key])


def test_a_truncated_file_fails_unless_recovery_is_asked_for():
    data = _file("truncated")
    with pytest.raises(InvalidArgumentError, match="try_recover_truncated=True"):
        tf.io.decode_jpeg(data)
    got = tf.io.decode_jpeg(data, try_recover_truncated=True).numpy()
    tfs = RECORDED["dec|truncated|recover"]
    assert got.shape == tfs.shape == (23, 37, 3)
    # the MCUs decoded before the data ends are TF's; where it ends the rest
    # is gray here and may differ from TF's (docs/tf_differences.md)
    np.testing.assert_array_equal(got[:15, :31], tfs[:15, :31])
    assert (got[-6:, -16:] == 128).all()


def test_traced_ops_give_the_eager_values_and_tfs_static_shapes():
    data = _file("smooth_default")

    @tf.function
    def run(contents):
        return (tf.io.decode_jpeg(contents, channels=3), tf.io.extract_jpeg_shape(contents),
                tf.io.decode_and_crop_jpeg(contents, [3, 5, 11, 17]),
                tf.io.encode_jpeg(tf.io.decode_jpeg(contents), quality=10))

    shapes = [t.shape.as_list() for t in run.get_concrete_function(
        tf.TensorSpec([], tf.string)).structured_outputs]
    assert shapes == [[None, None, 3], [3], [11, 17, None], []]
    pixels, shape, crop, again = run(tf.constant(data))
    np.testing.assert_array_equal(pixels.numpy(), RECORDED["dec|smooth_default|rgb"])
    assert shape.numpy().tolist() == [23, 37, 3]
    np.testing.assert_array_equal(crop.numpy(), RECORDED["crop|smooth_default|3,5,11,17"])
    expected = tf.io.encode_jpeg(RECORDED["dec|smooth_default|default"], quality=10)
    assert again.numpy() == expected.numpy()


def test_decode_image_and_the_quality_augmentations_match_tf():
    data = _file("smooth_default")
    for dtype in ("uint16", "float32"):
        got = tf.io.decode_image(data, dtype=getattr(tf, dtype))
        np.testing.assert_array_equal(got.numpy(), RECORDED[f"image|smooth|{dtype}"])
    np.testing.assert_array_equal(tf.image.adjust_jpeg_quality(IMAGES["smooth"], 30).numpy(),
                                  RECORDED["image|adjust|q30"])
    floats = tf.image.adjust_jpeg_quality(IMAGES["smooth"].astype(np.float32) / 255, 50,
                                          dct_method="INTEGER_ACCURATE")
    assert floats.dtype == tf.float32
    np.testing.assert_array_equal(floats.numpy(), RECORDED["image|adjust|float"])
    got = tf.image.stateless_random_jpeg_quality(IMAGES["smooth"], 10, 90, seed=(1, 2))
    np.testing.assert_array_equal(got.numpy(), RECORDED["image|stateless|1,2"])
    shaken = tf.image.random_jpeg_quality(IMAGES["smooth"], 20, 21, seed=5)
    np.testing.assert_array_equal(shaken.numpy(), tf.image.adjust_jpeg_quality(
        IMAGES["smooth"], 20).numpy())


def test_extract_jpeg_shape_reads_the_header_only():
    data = _file("gray_default")
    assert tf.io.extract_jpeg_shape(data).numpy().tolist() == [19, 27, 1]
    assert tf.io.extract_jpeg_shape(data[:200], output_type=tf.int64).dtype == tf.int64
    with pytest.raises(InvalidArgumentError, match="Invalid JPEG data, size 3"):
        tf.io.extract_jpeg_shape(b"abc")


def test_png_data_through_decode_jpeg_and_jpeg_through_decode_png():
    png = tf.io.encode_png(IMAGES["tiny"])
    np.testing.assert_array_equal(tf.io.decode_jpeg(png).numpy(), IMAGES["tiny"])
    np.testing.assert_array_equal(tf.io.decode_png(_file("tiny_default")).numpy(),
                                  RECORDED["dec|tiny_default|default"])
    with pytest.raises(InvalidArgumentError, match="can run on JPEG only, but detected PNG"):
        tf.io.decode_and_crop_jpeg(png, [0, 0, 1, 1])


@pytest.mark.parametrize("call, message", [
    (lambda d: tf.io.decode_jpeg(d, ratio=3), "ratio must be 1, 2, 4, or 8, got 3"),
    (lambda d: tf.io.decode_jpeg(d, channels=2), "`channels` must be 0, 1, 3 or 4 but got 2"),
    (lambda d: tf.io.decode_jpeg(d, channels=4), "JPEG does not support 4 channels"),
    (lambda d: tf.io.decode_jpeg(d, dct_method="X"), "dct_method must be one of"),
    (lambda d: tf.io.decode_jpeg(d[:40]), "Invalid JPEG data or crop window"),
    (lambda d: tf.io.decode_jpeg(b"garbage!"), "Unknown image file format"),
    (lambda d: tf.io.decode_and_crop_jpeg(d, [0, 0, 24, 4]), "Invalid JPEG data or crop"),
    (lambda d: tf.io.decode_and_crop_jpeg(d, [0, 0, 0, 4]), "Invalid JPEG data or crop"),
    (lambda d: tf.io.decode_and_crop_jpeg(d, [0, 0, 4]), "crop_size must have four elements"),
    (lambda d: tf.io.encode_jpeg(IMAGES["tiny"][..., :2]), "must have 1 or 3 channels"),
    (lambda d: tf.io.encode_jpeg(IMAGES["tiny"], format="grayscale"),
     "format grayscale expects 1 channels"),
    (lambda d: tf.io.encode_jpeg(IMAGES["tiny"][0]), "image must be 3-dimensional"),
    (lambda d: tf.io.encode_jpeg(IMAGES["tiny"], quality=101), r"quality must be in \[0,100\]"),
    (lambda d: tf.io.encode_jpeg(np.zeros([0, 5, 3], np.uint8)), "JPEG encoding failed"),
    (lambda d: tf.image.adjust_jpeg_quality(IMAGES["tiny"], 101), r"quality must be in"),
])
def test_errors_are_tfs(call, message):
    with pytest.raises((InvalidArgumentError, ValueError), match=message):
        call(_file("smooth_default"))


def test_random_quality_range_is_checked_as_tf_does():
    with pytest.raises(ValueError, match="must be less than"):
        tf.image.random_jpeg_quality(IMAGES["tiny"], 50, 40)
    with pytest.raises(ValueError, match="between 0 and 100"):
        tf.image.stateless_random_jpeg_quality(IMAGES["tiny"], 0, 101, seed=(1, 2))


def test_cmyk_has_no_grey_conversion_as_in_tf():
    with pytest.raises(InvalidArgumentError, match="Unsupported color conversion request"):
        tf.io.decode_jpeg(_file("pil_cmyk"), channels=1)
