"""Keras's image helpers (`keras.utils` and `keras.preprocessing.image`):
`load_img`, `save_img`, `array_to_img`, `img_to_array` and `smart_resize`.

    img = keras.utils.load_img("cat.jpg", target_size=(180, 180))   # a PIL image
    x = keras.utils.img_to_array(img)                                # float32 (180, 180, 3)

As in Keras, `load_img`, `save_img` and `array_to_img` work on PIL images and
need Pillow: without it they raise Keras's ImportError ("... requires PIL").
Pillow is not a dependency of this project; `img_to_array` and `smart_resize`
need only numpy and the runtime.
"""

import io
import pathlib
import warnings

import numpy as np

from runtime._src.keras.backend import config
from runtime._src.keras.ops import image as image_ops

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]

_RESAMPLE = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil(what):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{what}` requires "
                          "PIL.") from None
    return Image


def _data_format(data_format):
    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return data_format


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image of a rank-3 array (scaled to 0..255 first when `scale`)."""
    data_format = _data_format(data_format)
    image = _pil("array_to_img")
    x = np.asarray(x, dtype=dtype or config.floatx())
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got array "
                         f"with shape: {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img, data_format=None, dtype=None):
    """A PIL image (or any array-like) as a rank-3 numpy array of `dtype`."""
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or config.floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x[None] if data_format == "channels_first" else x[..., None]
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes a rank-3 array as an image file through PIL."""
    img = array_to_img(x, data_format=_data_format(data_format), scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.",
                      stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def _open(image, path):
    if isinstance(path, io.BytesIO):
        return image.open(path)
    if isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            return image.open(io.BytesIO(f.read()))
    raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")


def _centre_box(size, target):
    """Keras's keep_aspect_ratio crop box (left, top, right, bottom)."""
    (width, height), (target_width, target_height) = size, target
    crop_h = min(height, (width * target_height) // target_width)
    crop_w = min(width, (height * target_width) // target_height)
    top, left = (height - crop_h) // 2, (width - crop_w) // 2
    return [left, top, left + crop_w, top + crop_h]


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    """A PIL image of a file (or io.BytesIO) in `color_mode`, resized to
    `target_size` (height, width) with PIL's `interpolation`."""
    image = _pil("load_img")
    img = _open(image, path)
    modes = {"grayscale": ("L", "I;16", "I"), "rgba": ("RGBA",), "rgb": ("RGB",)}
    if color_mode not in modes:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if img.mode not in modes[color_mode]:
        img = img.convert(modes[color_mode][0])
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    if interpolation not in _RESAMPLE:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported "
                         f"methods are {', '.join(_RESAMPLE)}")
    resample = getattr(image.Resampling, interpolation.upper())
    box = _centre_box(img.size, size) if keep_aspect_ratio else None
    return img.resize(size, resample, box=box)


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last"):
    """The largest centred crop of `size`'s aspect ratio, resized to `size`:
    numpy in, numpy out; a tensor in, a tensor out."""
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    shape = np.shape(x)
    if not 3 <= len(shape) <= 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, "
                         "or `(batch_size, height, width, channels)`, but got input with "
                         f"incorrect rank, of shape {shape}.")
    h_axis = len(shape) - 3 if data_format == "channels_last" else len(shape) - 2
    height, width = shape[h_axis], shape[h_axis + 1]
    target_h, target_w = size
    crop_h = max(min(height, int(float(width * target_h) / target_w)), 1)
    crop_w = max(min(width, int(float(height * target_w) / target_h)), 1)
    top, left = int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)
    index = [slice(None)] * len(shape)
    index[h_axis], index[h_axis + 1] = slice(top, top + crop_h), slice(left, left + crop_w)
    out = image_ops.resize(x[tuple(index)], size, interpolation=interpolation,
                           data_format=data_format)
    return np.asarray(out) if isinstance(x, np.ndarray) else out
