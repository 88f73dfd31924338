"""Keras's image helpers against TF 2.21's Keras
(tests/data/keras_image_utils_tf221.npz, from tools/record_keras_image_utils.py).
`load_img`, `array_to_img` and `save_img` work on PIL images as Keras's do:
with Pillow installed they give Keras's pixels, without it Keras's ImportError."""

import io
import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA, TOOLS

sys.path.insert(0, str(TOOLS))
import record_keras_image_utils as recorder  # noqa: E402

RECORDED = np.load(DATA / "keras_image_utils_tf221.npz")
FILES = recorder.files()
try:
    import PIL.Image  # noqa: F401
    HAVE_PIL = True
except ImportError:
    HAVE_PIL = False


@pytest.mark.parametrize("case", list(recorder.LOADS))
@pytest.mark.parametrize("name", recorder.FILES)
def test_load_img_gives_kerass_pixels_or_kerass_error(name, case):
    kwargs = recorder.LOADS[case]
    if not HAVE_PIL:
        with pytest.raises(ImportError, match="The use of `load_img` requires PIL"):
            tf.keras.utils.load_img(io.BytesIO(FILES[name]), **kwargs)
        return
    img = tf.keras.utils.load_img(io.BytesIO(FILES[name]), **kwargs)
    np.testing.assert_array_equal(np.asarray(img), RECORDED[f"load|{name}|{case}"])


def test_img_to_array_and_array_to_img():
    pixels = RECORDED["load|cats/0.png|plain"]
    first = tf.keras.utils.img_to_array(pixels, data_format="channels_first")
    assert first.dtype == np.float32
    np.testing.assert_array_equal(first, RECORDED["to_array|cats/0.png|first"])
    assert tf.keras.utils.img_to_array(pixels[..., 0]).shape == pixels.shape[:2] + (1,)
    with pytest.raises(ValueError, match="Unsupported image shape"):
        tf.keras.utils.img_to_array(np.zeros(4))
    if not HAVE_PIL:
        with pytest.raises(ImportError, match="The use of `array_to_img` requires PIL"):
            tf.keras.utils.array_to_img(recorder.array())
        return
    np.testing.assert_array_equal(np.asarray(tf.keras.utils.array_to_img(recorder.array())),
                                  RECORDED["to_img|scaled"])
    gray = tf.keras.utils.array_to_img(recorder.array()[..., :1] * 100, scale=False)
    np.testing.assert_array_equal(np.asarray(gray), RECORDED["to_img|gray"])


@pytest.mark.skipif(not HAVE_PIL, reason="save_img writes through Pillow, as Keras's")
def test_save_img_round_trips(tmp_path):
    pixels = RECORDED["load|cats/0.png|plain"]
    tf.keras.utils.save_img(tmp_path / "x.png", pixels, scale=False)
    np.testing.assert_array_equal(np.asarray(tf.keras.utils.load_img(tmp_path / "x.png")),
                                  pixels)


@pytest.mark.parametrize("case", list(recorder.SMART))
def test_smart_resize_is_kerass(case):
    size, method = recorder.SMART[case]
    got = tf.keras.preprocessing.image.smart_resize(recorder.array(), size,
                                                    interpolation=method)
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, RECORDED[f"smart|{case}"], rtol=0, atol=1e-6)
