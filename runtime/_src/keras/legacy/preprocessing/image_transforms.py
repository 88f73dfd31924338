"""`tf.keras.preprocessing.image`'s Keras 2 transforms of one image (a 3-D
numpy array), as Keras 3.15's legacy module does them.

    apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1,
                           row_axis=1, col_axis=2, channel_axis=0,
                           fill_mode="nearest", cval=0.0, order=1)
        rotation by theta degrees, shift by (tx, ty) pixels, shear in degrees,
        zoom (zx, zy), about the image centre; each channel resampled
        (affine.py); nothing but a copy when all are at rest
    apply_channel_shift(x, intensity, channel_axis=0)
        intensity added, clipped to the image's own [min, max]
    apply_brightness_shift(x, brightness, scale=True)
        PIL's ImageEnhance.Brightness on the image as 8 bits (Pillow needed)
    random_rotation / random_shift / random_shear / random_zoom /
    random_channel_shift / random_brightness
        the same with parameters drawn from numpy's global RNG
"""

import numpy as np

from runtime._src.keras.legacy.preprocessing.affine import affine_resample
from runtime._src.keras.utils import image_utils

__all__ = ["apply_affine_transform", "apply_brightness_shift", "apply_channel_shift",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear",
           "random_shift", "random_zoom"]


def _rotation(theta):
    t = np.deg2rad(theta)
    return np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])


def _matrix(theta, tx, ty, shear, zx, zy):
    """The product of the transforms not at rest (rotation, shift, shear,
    zoom, in that order), or None."""
    parts = []
    if theta != 0:
        parts.append(_rotation(theta))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if not parts:
        return None
    out = parts[0]
    for part in parts[1:]:
        out = np.dot(out, part)
    return out


def _about_centre(matrix, h, w):
    oy, ox = float(h) / 2 - 0.5, float(w) / 2 - 0.5
    there = np.array([[1, 0, oy], [0, 1, ox], [0, 0, 1]])
    back = np.array([[1, 0, -oy], [0, 1, -ox], [0, 0, 1]])
    return np.dot(np.dot(there, matrix), back)


def _check_axes(x, row_axis, col_axis, channel_axis):
    axes = {row_axis, col_axis, channel_axis}
    if len(axes) != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    if axes != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {axes - {0, 1, 2}}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1,
                           col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0, order=1):
    """`x` rotated, shifted, sheared and zoomed about its centre."""
    _check_axes(x, row_axis, col_axis, channel_axis)
    matrix = _matrix(theta, tx, ty, shear, zx, zy)
    if matrix is None:
        return x
    matrix = _about_centre(matrix, x.shape[row_axis], x.shape[col_axis])
    if col_axis > row_axis:         # Keras 2 swaps the matrix's two coordinates here
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    planes = np.moveaxis(x, channel_axis, 0)
    out = [affine_resample(p, matrix[:2, :2], matrix[:2, 2], order, fill_mode, cval)
           for p in planes]
    return np.moveaxis(np.stack(out, axis=0), 0, channel_axis)


def apply_channel_shift(x, intensity, channel_axis=0):
    """`intensity` added to every channel, clipped to x's [min, max]."""
    planes = np.moveaxis(x, channel_axis, 0)
    low, high = np.min(planes), np.max(planes)
    shifted = np.stack([np.clip(p + intensity, low, high) for p in planes], axis=0)
    return np.moveaxis(shifted, 0, channel_axis)


def apply_brightness_shift(x, brightness, scale=True):
    """PIL's brightness enhancement by `brightness` (1: unchanged)."""
    try:
        from PIL import ImageEnhance
    except ImportError as e:
        raise ImportError("Could not import PIL.Image. The use of `apply_brightness_shift` "
                          "requires PIL.") from e
    low, high = np.min(x), np.max(x)
    out_of_8_bits = bool(low < 0 or high > 255)
    img = image_utils.array_to_img(x, scale=out_of_8_bits or scale)
    out = image_utils.img_to_array(ImageEnhance.Brightness(img).enhance(brightness))
    if not scale and out_of_8_bits:
        out = out / 255 * (high - low) + low
    return out


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                    cval=0.0, interpolation_order=1):
    """`x` rotated by U(-rg, rg) degrees."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0.0, interpolation_order=1):
    """`x` shifted by U(-hrg, hrg) of its height and U(-wrg, wrg) of its width."""
    tx = np.random.uniform(-hrg, hrg) * x.shape[row_axis]
    ty = np.random.uniform(-wrg, wrg) * x.shape[col_axis]
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0.0, interpolation_order=1):
    """`x` sheared by U(-intensity, intensity) degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def zoom_pair(zoom_range):
    """(zx, zy): (1, 1) for the range (1, 1), else two draws from U(zoom_range)."""
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        return 1, 1
    return tuple(np.random.uniform(zoom_range[0], zoom_range[1], 2))


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                cval=0.0, interpolation_order=1):
    """`x` zoomed by (zx, zy), each from U(zoom_range)."""
    if len(zoom_range) != 2:
        raise ValueError("`zoom_range` should be a tuple or list of two floats. "
                         f"Received: {zoom_range}")
    zx, zy = zoom_pair(zoom_range)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """`apply_channel_shift` by U(-intensity_range, intensity_range)."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def random_brightness(x, brightness_range, scale=True):
    """`apply_brightness_shift` by U(brightness_range)."""
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. "
                         f"Received: {brightness_range}")
    return apply_brightness_shift(x, np.random.uniform(*brightness_range), scale)
