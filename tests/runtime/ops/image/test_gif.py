"""GIF decoding against TensorFlow 2.21's recorded frames
(tests/data/gif_tf221.npz, from tools/record_gif.py): decode_gif and
decode_image, eagerly and traced, and TF's errors."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core.errors import InvalidArgumentError
from tests.paths import DATA

RECORDED = np.load(DATA / "gif_tf221.npz")
NAMES = sorted(k.split("|")[1] for k in RECORDED.files if k.startswith("file|"))


def _file(name):
    return RECORDED[f"file|{name}"].tobytes()


@pytest.mark.parametrize("name", NAMES)
def test_decode_gif_composes_frames_as_tf(name):
    got = tf.io.decode_gif(_file(name))
    assert got.dtype == tf.uint8
    np.testing.assert_array_equal(got.numpy(), RECORDED[f"frames|{name}"])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
@pytest.mark.parametrize("expand", [True, False])
def test_decode_image_of_a_gif_is_tfs(name, dtype, expand):
    got = tf.io.decode_image(_file(name), dtype=getattr(tf, dtype), expand_animations=expand)
    np.testing.assert_array_equal(got.numpy(), RECORDED[f"image|{name}|{dtype}|{expand}"])


def test_traced_decoding_has_tfs_static_shapes():
    spec = tf.TensorSpec([], tf.string)
    shapes = [tf.function(f).get_concrete_function(spec).structured_outputs.shape
              for f in (tf.io.decode_gif, tf.io.decode_image,
                        lambda b: tf.io.decode_image(b, channels=3, expand_animations=False))]
    assert [s.as_list() if s.rank is not None else None for s in shapes] == [
        [None, None, None, 3], None, [None, None, 3]]
    run = tf.function(tf.io.decode_gif)
    np.testing.assert_array_equal(run(_file("partial")).numpy(), RECORDED["frames|partial"])


@pytest.mark.parametrize("call, message", [
    (lambda: tf.io.decode_gif(b"not a gif"), "Unknown image file format"),
    (lambda: tf.io.decode_gif(b"GIF8"), "No screen descriptor detected"),
    (lambda: tf.io.decode_image(_file("gray"), channels=1), "channels must be 0 or 3 for GIF"),
    (lambda: tf.io.decode_png(_file("animation")), "Got 3 frames, but animated gifs"),
    (lambda: tf.io.decode_jpeg(_file("animation")), "Got 3 frames, but animated gifs"),
])
def test_errors_are_tfs(call, message):
    with pytest.raises(InvalidArgumentError, match=message):
        call()


def test_a_still_gif_through_decode_png_and_decode_jpeg():
    for decode in (tf.io.decode_png, tf.io.decode_jpeg):
        np.testing.assert_array_equal(decode(_file("gray")).numpy(), RECORDED["frames|gray"][0])
