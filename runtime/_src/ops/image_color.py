"""`tf.image` dtype conversion, colour and cropping, and `tf.saturate_cast`,
as TensorFlow 2.21 computes them (compositions of ops, so they trace and
have gradients where TF's do):

    convert_image_dtype(u8, tf.float32)      # x / 255
    convert_image_dtype(f, tf.uint8)         # x * 255.5, cast (saturate=True clips first)
    adjust_brightness(image, 0.1)            # + delta in float, back to the dtype (clipped)
    adjust_contrast(image, 2.0)              # (x - mean) * factor + mean per channel
    rgb_to_grayscale(image)                  # [..., 3] -> [..., 1], weights 0.2989 0.5870 0.1140
    grayscale_to_rgb(image)                  # [..., 1] -> [..., 3]
    central_crop(image, 0.5)                 # the centre half in height and width
    saturate_cast(x, tf.uint8)               # clipped to uint8's range, then cast
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import shape
from runtime._src.ops.tile_ops import tile
from runtime._src.ops.einsum_ops import tensordot
from runtime._src.ops.manipulation_ops import expand_dims, stack
from runtime._src.ops.math_ops import (add, cast, clip_by_value, floordiv, identity, is_nan,
                                       multiply, subtract, where)
from runtime._src.ops.reduction_ops import reduce_mean
from runtime._src.ops.shape_ops import slice as slice_

__all__ = ["convert_image_dtype", "adjust_brightness", "adjust_contrast", "rgb_to_grayscale",
           "grayscale_to_rgb", "central_crop", "saturate_cast"]


def _bounds(dtype):
    return dtype.min, dtype.max


def _representable_below(bound, np_dtype, up):
    """`bound` as a value of `np_dtype` that does not pass it (float32 has no
    2**31 - 1: int32's max becomes the float just below 2**31)."""
    value = np_dtype.type(bound)
    if up and float(value) > bound:
        value = np.nextafter(value, np_dtype.type(-np.inf))
    if not up and float(value) < bound:
        value = np.nextafter(value, np_dtype.type(np.inf))
    return value


def saturate_cast(value, dtype, name=None):
    """`value` cast to `dtype`, clipped first to the values `dtype` holds
    (NaN becomes 0, as in TF)."""
    value = convert_to_tensor(value)
    dtype = dtypes.as_dtype(dtype)
    if value.dtype == dtype:
        return identity(value)
    in_lo, in_hi = _bounds(value.dtype) if not value.dtype.is_bool else (0, 1)
    out_lo, out_hi = _bounds(dtype) if not dtype.is_bool else (0, 1)
    np_in = value.dtype.np_dtype
    if out_lo > in_lo or out_hi < in_hi:
        lo = _representable_below(max(in_lo, out_lo), np_in, up=False)
        hi = _representable_below(min(in_hi, out_hi), np_in, up=True)
        value = clip_by_value(value, lo, hi)
    if value.dtype.is_floating and not dtype.is_floating:
        value = where(is_nan(value), np_in.type(0), value)
    return cast(value, dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """TF's rescaling between image dtypes: integers span [0, MAX], floats [0, 1]."""
    image = convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    for what, d in (("image", image.dtype), ("dtype", dtype)):
        if not (d.is_floating or d.is_integer):
            raise AttributeError(f"{what} dtype must be either floating point or integer, "
                                 f"got {d.name}")
    if dtype == image.dtype:
        return identity(image)
    to = saturate_cast if saturate else cast
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = _bounds(image.dtype)[1], _bounds(dtype)[1]
        if scale_in > scale_out:
            scale = (int(scale_in) + 1) // (int(scale_out) + 1)
            return to(floordiv(image, image.dtype.np_dtype.type(scale)), dtype)
        scale = (int(scale_out) + 1) // (int(scale_in) + 1)
        return multiply(to(image, dtype), dtype.np_dtype.type(scale))
    if image.dtype.is_floating and dtype.is_floating:
        return cast(image, dtype)
    if image.dtype.is_integer:
        return multiply(cast(image, dtype), dtype.np_dtype.type(1.0 / _bounds(image.dtype)[1]))
    scaled = multiply(image, image.dtype.np_dtype.type(_bounds(dtype)[1] + 0.5))
    return to(scaled, dtype)


def _as_float(image):
    if image.dtype in (dtypes.float16, dtypes.float32):
        return image
    return convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image, delta):
    """`image + delta` computed in float (integers scaled to [0, 1] first)."""
    image = convert_to_tensor(image)
    flt = _as_float(image)
    adjusted = add(flt, cast(delta, flt.dtype))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    """`(x - mean) * contrast_factor + mean`, the mean per image and channel
    over height and width."""
    images = convert_to_tensor(images)
    flt = _as_float(images)
    mean = reduce_mean(flt, axis=[-3, -2], keepdims=True)
    factor = cast(contrast_factor, flt.dtype)
    adjusted = add(multiply(subtract(flt, mean), factor), mean)
    return convert_image_dtype(adjusted, images.dtype, saturate=True)


def rgb_to_grayscale(images, name=None):
    """The luma of RGB images, [..., 3] -> [..., 1], in the images' dtype."""
    images = convert_to_tensor(images)
    flt = convert_image_dtype(images, dtypes.float32)
    weights = convert_to_tensor(np.array([0.2989, 0.5870, 0.1140], np.float32))
    gray = expand_dims(tensordot(flt, weights, [[-1], [-1]]), -1)
    return convert_image_dtype(gray, images.dtype)


def grayscale_to_rgb(images, name=None):
    """[..., 1] -> [..., 3]: the channel repeated."""
    images = convert_to_tensor(images)
    if images.shape.rank is not None and images.shape.rank < 2:
        raise ValueError(f"grayscale_to_rgb: 'images' must be at least two-dimensional, "
                         f"got shape {images.shape}")
    if images.shape.rank is not None and images.shape.dims[-1] not in (None, 1):
        raise ValueError(f"grayscale_to_rgb: the last dimension must be size 1, got shape "
                         f"{images.shape}")
    multiples = [1] * (images.shape.rank - 1) + [3]
    return tile(images, multiples)


def central_crop(image, central_fraction):
    """The centre of each image: `central_fraction` of its height and width
    (TF's rounding: the start is int((size - size * fraction) / 2))."""
    image = convert_to_tensor(image)
    fraction = float(rules.static_value(central_fraction, "central_crop", "central_fraction")
                     if hasattr(central_fraction, "dtype") else central_fraction)
    if fraction <= 0.0 or fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if fraction == 1.0:
        return image
    rank = image.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"central_crop: 'image' must have either 3 or 4 dimensions, got "
                         f"shape {image.shape}")
    h_axis = rank - 3
    if None in image.shape.dims[h_axis:h_axis + 2]:
        return _central_crop_at_run_time(image, h_axis, fraction)
    cuts = []
    for size in image.shape.dims[h_axis:h_axis + 2]:
        start = int((size - size * fraction) / 2)
        cuts.append(slice(start, size - start))
    index = (slice(None),) * h_axis + tuple(cuts)
    return image[index]


def _central_crop_at_run_time(image, h_axis, fraction):
    """central_crop of an image sized only at run time: TF's float64 start."""
    sizes = shape(image)[h_axis:h_axis + 2]
    wide = cast(sizes, dtypes.float64)
    starts = cast((wide - wide * fraction) / 2, dtypes.int32)
    begin = [0] * h_axis + [starts[0], starts[1], 0]
    size = [-1] * h_axis + [sizes[0] - 2 * starts[0], sizes[1] - 2 * starts[1], -1]
    out = slice_(image, stack(begin), stack(size))
    dims = list(image.shape.dims)
    dims[h_axis:h_axis + 2] = [None, None]
    out.set_shape(dims)
    return out

