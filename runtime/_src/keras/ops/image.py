"""`keras.ops.image`: resizing, color conversion, padding and cropping of
image batches (channels_last) over the runtime's `tf.image` ops."""

import numpy as np

from runtime._src.keras.ops.operation import cast_to, keras_op, tensor, to_float
from runtime._src.keras.ops.tfops import tf
from runtime._src.ops import image_color

__all__ = []


def _two_of(kind, names, values):
    """Keras's rule: exactly two of (start, end, target) per axis."""
    if sum(v is not None for v in values) != 2:
        raise ValueError(f"Must specify exactly two of {', '.join(names)}. "
                         f"Received: {kind}")


def _export(fn):
    __all__.append(fn.__name__)
    return fn


@_export
@keras_op
def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
           data_format=None):
    """`keras.ops.image.resize(images, size, interpolation="bilinear")`: float output
    in images' float dtype (float32 for ints)."""
    if antialias or crop_to_aspect_ratio or pad_to_aspect_ratio:
        raise ValueError("antialias and aspect-ratio options are not supported here")
    images, undo = _batched(images, data_format)
    out = tf.resize(images, list(size), method=interpolation)
    return undo(cast_to(out, images.dtype) if images.dtype.is_floating else out)


@_export
@keras_op
def rgb_to_grayscale(images, data_format=None):
    """`keras.ops.image.rgb_to_grayscale(images)`: one channel, images' dtype."""
    images, undo = _batched(images, data_format)
    return undo(cast_to(image_color.rgb_to_grayscale(to_float(images)), images.dtype))


@_export
@keras_op
def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None, data_format=None):
    """`keras.ops.image.pad_images(images, top_padding, left_padding, bottom_padding,
    right_padding, target_height, target_width)`: zero padding."""
    _two_of("padding", ("top_padding", "bottom_padding", "target_height"),
            (top_padding, bottom_padding, target_height))
    _two_of("padding", ("left_padding", "right_padding", "target_width"),
            (left_padding, right_padding, target_width))
    images, undo = _batched(images, data_format)
    h, w = images.shape.as_list()[-3:-1]
    top = top_padding if top_padding is not None else target_height - h - bottom_padding
    left = left_padding if left_padding is not None else target_width - w - right_padding
    bottom = bottom_padding if bottom_padding is not None else target_height - h - top
    right = right_padding if right_padding is not None else target_width - w - left
    return undo(tf.pad(images, [[0, 0], [top, bottom], [left, right], [0, 0]]))


@_export
@keras_op
def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None, data_format=None):
    """`keras.ops.image.crop_images(images, top_cropping, left_cropping, ...,
    target_height, target_width)`."""
    _two_of("cropping", ("top_cropping", "bottom_cropping", "target_height"),
            (top_cropping, bottom_cropping, target_height))
    _two_of("cropping", ("left_cropping", "right_cropping", "target_width"),
            (left_cropping, right_cropping, target_width))
    images, undo = _batched(images, data_format)
    h, w = images.shape.as_list()[-3:-1]
    top = top_cropping if top_cropping is not None else h - target_height - bottom_cropping
    left = left_cropping if left_cropping is not None else w - target_width - right_cropping
    height = target_height if target_height is not None else h - top - (bottom_cropping or 0)
    width = target_width if target_width is not None else w - left - (right_cropping or 0)
    return undo(images[:, top:top + height, left:left + width, :])



@_export
@keras_op
def rgb_to_hsv(images, data_format=None):
    """`keras.ops.image.rgb_to_hsv(images)`: float images in [0, 1];
    hue in [0, 1)."""
    images, undo = _batched(to_float(images), data_format)
    r, g, b = images[..., 0], images[..., 1], images[..., 2]
    value = tf.maximum(tf.maximum(r, g), b)
    low = tf.minimum(tf.minimum(r, g), b)
    delta = value - low
    safe_value = tf.where(value > 0, value, tf.ones_like(value))
    saturation = tf.where(value > 0, delta / safe_value, tf.zeros_like(value))
    safe_delta = tf.where(delta > 0, delta, tf.ones_like(delta))
    hue = tf.where(tf.equal(value, r), (g - b) / safe_delta,
                   tf.where(tf.equal(value, g), 2.0 + (b - r) / safe_delta,
                            4.0 + (r - g) / safe_delta)) / 6.0
    hue = tf.where(delta > 0, hue - tf.floor(hue), tf.zeros_like(hue))
    return undo(tf.stack([hue, saturation, value], axis=-1))


@_export
@keras_op
def hsv_to_rgb(images, data_format=None):
    """`keras.ops.image.hsv_to_rgb(images)`: the inverse of `rgb_to_hsv`."""
    images, undo = _batched(to_float(images), data_format)
    h, s, v = images[..., 0], images[..., 1], images[..., 2]
    channels = []
    for n in (5.0, 3.0, 1.0):
        k = tf.floormod(n + h * 6.0, tensor(6.0, images.dtype))
        weight = tf.clip_by_value(tf.minimum(k, 4.0 - k), 0.0, 1.0)
        channels.append(v - v * s * weight)
    return undo(tf.stack(channels, axis=-1))



def _batched(images, data_format):
    """images as a channels_last batch, and how to undo that."""
    images = tensor(images)
    single = len(images.shape) == 3
    if single:
        images = tf.expand_dims(images, 0)
    if data_format == "channels_first":
        images = tf.transpose(images, [0, 2, 3, 1])

    def undo(out):
        if data_format == "channels_first":
            out = tf.transpose(out, [0, 3, 1, 2])
        return tf.squeeze(out, [0]) if single else out
    return images, undo


@_export
@keras_op
def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """`keras.ops.image.extract_patches(images, size, strides=None, dilation_rate=1,
    padding="valid")`: 2-D patches flattened (row, column, channel) on the last axis."""
    images, undo = _batched(images, data_format)
    ph, pw = (size, size) if isinstance(size, int) else tuple(size)
    sh, sw = (ph, pw) if strides is None else \
        (strides, strides) if isinstance(strides, int) else tuple(strides)
    d = int(dilation_rate)
    _, h, w, c = images.shape.as_list()
    span_h, span_w = (ph - 1) * d + 1, (pw - 1) * d + 1
    if padding.lower() == "same":
        rows, cols = -(-h // sh), -(-w // sw)
        pad_h = max((rows - 1) * sh + span_h - h, 0)
        pad_w = max((cols - 1) * sw + span_w - w, 0)
        images = tf.pad(images, [[0, 0], [pad_h // 2, pad_h - pad_h // 2],
                                 [pad_w // 2, pad_w - pad_w // 2], [0, 0]])
    else:
        rows, cols = (h - span_h) // sh + 1, (w - span_w) // sw + 1
    parts = []
    for i in range(ph):
        for j in range(pw):
            parts.append(images[:, i * d:i * d + (rows - 1) * sh + 1:sh,
                                j * d:j * d + (cols - 1) * sw + 1:sw, :])
    out = tf.stack(parts, axis=3)
    out = tf.reshape(out, [-1, rows, cols, ph * pw * c])
    return undo(out)


@_export
@keras_op
def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """`keras.ops.image.gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0))`:
    a depthwise Gaussian filter with "same" zero padding."""
    images, undo = _batched(to_float(images), data_format)
    dtype = images.dtype.np_dtype

    def kernel1d(n, sig):
        x = np.arange(n, dtype=dtype) - (n - 1) / 2.0
        k = np.exp(-0.5 * (x / sig) ** 2)
        return k / k.sum()
    kernel = np.multiply.outer(kernel1d(kernel_size[1], sigma[1]),
                               kernel1d(kernel_size[0], sigma[0]))
    c = images.shape.as_list()[-1]
    kernel = np.tile(kernel.reshape(kernel_size[0], kernel_size[1], 1, 1), [1, 1, c, 1])
    out = tf.depthwise_conv2d(images, tensor(kernel.astype(dtype)), [1, 1, 1, 1], "SAME")
    return undo(out)


__all__.sort()
