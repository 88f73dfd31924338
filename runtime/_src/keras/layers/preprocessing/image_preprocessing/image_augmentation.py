"""Keras 3's image augmentation layers (RandomFlip, Resizing and CenterCrop are
in layers/preprocessing/image_preprocessing/image_layers.py). Called directly they augment (training=True, as Keras's);
in `predict`/`evaluate` (training=False) they give their input as float32,
except AutoContrast, which always applies.

    RandomRotation(factor)       rotate by factor * 360 degrees about the centre,
                                 factor drawn in [lower, upper] (a number f: [-f, f])
    RandomZoom(height_factor, width_factor=None)   scale by 1 + factor (the same
                                 draw for both axes without width_factor)
    RandomTranslation(height_factor, width_factor) shift by factor * size
    RandomShear(x_factor, y_factor)   shear by the drawn factors, one sign per image
    RandomPerspective(factor=1.0, scale=1.0)   corners moved at random, image warped
        (these three: image_transform.affine_transform, bilinear or nearest,
        fill_mode reflect / wrap / nearest / constant with fill_value)
    RandomContrast(factor)       (x - mean) * c + mean per image and channel,
                                 c in [1 - lower, 1 + upper], clipped to value_range
    RandomBrightness(factor)     x + delta * (value_range width), clipped
    RandomCrop(height, width)    a random height x width window (one per batch);
                                 from a smaller input the window from a centred
                                 start, resized
    RandomGrayscale(factor=0.5)  each image to grayscale (3 channels) with prob. factor
    RandomInvert(factor=1.0)     value_range[1] - x, for each image with a probability
                                 drawn in factor's range
    Solarization(addition_factor=0, threshold_factor=0)   x + addition, then
                                 255 - x at or above a threshold (on a 0..255 scale)
    AutoContrast(value_range)    each image and channel stretched to the whole range
    Equalization(value_range, bins=256)   histogram equalization per channel
    RandomSaturation(factor)     HSV saturation scaled by f / (1 - f), f in the range
    RandomColorDegeneration(factor)   x + f * (grayscale(x) - x)
    RandomSharpness(factor)      x + (1 - 2f) * (3x3 smoothed x - x)
    RandomHue(factor)            the hue shifted by +-f/2 of the colour circle
    RandomGaussianBlur(factor=1.0, kernel_size=3, sigma=1.0)   a Gaussian blur
    RandomPosterization(factor)  keep the top `bits` bits of each 0..255 value
    RandomColorJitter(value_range, brightness_factor, contrast_factor,
                      saturation_factor, hue_factor)   those four, in that order
    RandAugment(num_ops=2, factor=0.5)   num_ops augmentations drawn from eleven
    MixUp(alpha=0.2)             each image (and label) mixed with another of the batch
    CutMix(factor=1.0)           a box of each image from another, labels by area
    RandomErasing(factor=1.0, scale=(0.02, 0.33), fill_value=None)   a box filled
    MaxNumBoundingBoxes(max_number)   a dict's bounding boxes cut or padded to max_number
    Pipeline(layers)             the layers one after the other

Images are (batch, height, width, channels) or one (height, width, channels);
data_format="channels_first" puts the channels first.
"""

import math
import numbers

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.random import random as keras_random
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import ConfigurableLayer, base_config
from runtime._src.keras.utils.argument_validation import _data_format
from runtime._src.keras.ops.image_transform import (FILL_MODES,
                                                                                         INTERPOLATIONS,
                                                                                         affine_transform,
                                                                                         perspective_transform)
from runtime._src.keras.layers.regularization.noise import _when_training
from runtime._src.keras.ops import image as keras_image
from runtime._src.ops import (array_ops, bitwise_ops, conv_more_ops, image_ops,
                              manipulation_ops, math_ops, random_ops, reduction_ops, shape_ops,
                              tile_ops)

__all__ = ["RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast",
           "RandomBrightness", "RandomCrop", "RandomGrayscale", "RandomInvert",
           "Solarization", "AutoContrast", "RandomPosterization", "Pipeline", "RandomSaturation",
           "RandomColorDegeneration", "RandomSharpness", "RandomHue", "MixUp", "RandomGaussianBlur",
           "RandomShear", "Equalization", "RandomColorJitter",
           "CutMix", "RandomErasing", "RandomPerspective",
           "MaxNumBoundingBoxes", "RandAugment"]


def _factor(factor, bounds, name="factor"):
    """(lower, upper) as Keras's `_set_factor`: a pair sorted, a number f (-|f|, |f|)
    with the lower end raised to bounds[0]."""
    error = (f"The `{name}` argument should be a number (or a list of two numbers) in the "
             f"range [{bounds[0]}, {bounds[1]}]. Received: {name}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(error)
        return tuple(sorted(factor))
    if isinstance(factor, numbers.Number):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(error)
        factor = abs(factor)
        return (max(-factor, bounds[0]), factor)
    raise ValueError(error)


def _value_range(value_range):
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError("The `value_range` argument should be a list of two numbers. "
                         f"Received: value_range={value_range}")
    return value_range


def _rescaled(x, source, target):
    """x mapped linearly from the range `source` to `target`."""
    if tuple(source) == tuple(target):
        return x
    x = (x - source[0]) / (source[1] - source[0])
    return x * (target[1] - target[0]) + target[0]


class _Augment(ConfigurableLayer):
    """The shared call: cast to float32, one image as a batch of one, channels last,
    the augmentation only when training."""

    _always = False      # AutoContrast: applied at inference too

    def __init__(self, data_format=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.seed = seed

    def call(self, inputs, training=True):
        x = math_ops.cast(inputs, dtypes.float32)
        rank = x.shape.rank
        if rank not in (3, 4):
            raise ValueError("Expected the input image to be rank 3 or 4. Received "
                             f"inputs.shape={tuple(x.shape.as_list())}")
        if rank == 3:
            x = array_ops.expand_dims(x, 0)
        if self.data_format == "channels_first":
            x = array_ops.transpose(x, [0, 2, 3, 1])
        out = self._augment(x) if self._always else \
            _when_training(training, lambda: self._augment(x), x)
        if self.data_format == "channels_first":
            out = array_ops.transpose(out, [0, 3, 1, 2])
        return out[0] if rank == 3 else out

    def _uniform(self, x, low, high, per_image=True):
        shape = array_ops.shape(x)[:1] if per_image else []
        return random_ops.uniform(shape, low, high, dtypes.float32, seed=self.seed)

    def compute_output_shape(self, input_shape):
        return input_shape


class _Geometric(_Augment):
    """A random affine transform per image (image_transform.affine_transform)."""

    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        if fill_mode not in FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                      f"{FILL_MODES}.")
        if interpolation not in INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of "
                                      f"one {INTERPOLATIONS}.")
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.fill_value = fill_value

    def _augment(self, x):
        h, w = x.shape.as_list()[1:3]
        return affine_transform(x, self._transforms(x, h, w), self.interpolation,
                                self.fill_mode, self.fill_value)


def _rows(*columns):
    """(batch, 8) transforms from per-image columns (tensors or numbers)."""
    ref = next(c for c in columns if not isinstance(c, numbers.Number))
    return array_ops.stack([c if not isinstance(c, numbers.Number) else
                            array_ops.fill(array_ops.shape(ref), float(c))
                            for c in columns], axis=1)


class RandomRotation(_Geometric):
    """`keras.layers.RandomRotation(factor, fill_mode="reflect",
    interpolation="bilinear", seed=None, fill_value=0.0)`."""

    _config_keys = ("data_format", "factor", "fill_mode", "fill_value", "interpolation",
                    "seed")

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor(factor, (-1, 1))

    def _transforms(self, x, h, w):
        angle = self._uniform(x, self.factor[0] * 360.0, self.factor[1] * 360.0)
        angle = angle * (math.pi / 180.0)
        cos, sin = math_ops.cos(angle), math_ops.sin(angle)
        cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
        return _rows(cos, -sin, cx - cx * cos + cy * sin, sin, cos,
                     cy - cx * sin - cy * cos, 0.0, 0.0)


def _zoom_factor(factor, name):
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(f"The `{name}` argument should be a number (or a list of two "
                             f"numbers) in the range (-1.0, 1.0]. Received: {name}={factor}")
        values = list(factor)
    elif isinstance(factor, numbers.Number):
        values = [abs(factor)]
    else:
        raise ValueError(f"The `{name}` argument should be a number (or a list of two "
                         f"numbers) in the range (-1.0, 1.0]. Received: {name}={factor}")
    for v in values:
        if v > 1.0 or v <= -1.0:
            raise ValueError(f"The `{name}` argument should be in the range (-1.0, 1.0]. "
                             f"Received: {name}={factor}")
    return tuple(sorted(factor)) if len(values) == 2 else (-values[0], values[0])


class RandomZoom(_Geometric):
    """`keras.layers.RandomZoom(height_factor, width_factor=None, fill_mode="reflect",
    interpolation="bilinear", seed=None, fill_value=0.0)`: factor < 0 zooms in."""

    _config_keys = ("data_format", "height_factor", "width_factor", "fill_mode",
                    "interpolation", "seed", "fill_value")

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_factor(height_factor, "height_factor")
        self._width = None if width_factor is None else _zoom_factor(width_factor,
                                                                     "width_factor")

    def _transforms(self, x, h, w):
        zy = self._uniform(x, 1.0 + self._height[0], 1.0 + self._height[1])
        zx = zy if self._width is None else \
            self._uniform(x, 1.0 + self._width[0], 1.0 + self._width[1])
        return _rows(zx, 0.0, (w - 1.0) / 2.0 * (1.0 - zx), 0.0, zy,
                     (h - 1.0) / 2.0 * (1.0 - zy), 0.0, 0.0)


class RandomTranslation(_Geometric):
    """`keras.layers.RandomTranslation(height_factor, width_factor, fill_mode="reflect",
    interpolation="bilinear", seed=None, fill_value=0.0)`: shifts of factor * size."""

    _config_keys = ("data_format", "height_factor", "width_factor", "fill_mode",
                    "interpolation", "seed", "fill_value")

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_factor(height_factor, "height_factor")
        self._width = _zoom_factor(width_factor, "width_factor")

    def _transforms(self, x, h, w):
        dy = self._uniform(x, self._height[0], self._height[1]) * float(h)
        dx = self._uniform(x, self._width[0], self._width[1]) * float(w)
        return _rows(1.0, 0.0, -dx, 0.0, 1.0, -dy, 0.0, 0.0)


def _shear_factor(factor, name):
    values = list(factor) if isinstance(factor, (tuple, list)) else [factor]
    if len(values) not in (1, 2) or not all(isinstance(v, numbers.Number) and 0 <= v <= 1
                                            for v in values):
        raise ValueError(f"The `{name}` argument should be a number (or a list of two "
                         f"numbers) in the range [0, 1]. Received: {name}={factor}")
    return tuple(sorted(values)) if len(values) == 2 else (-abs(values[0]), abs(values[0]))


class RandomShear(_Geometric):
    """`keras.layers.RandomShear(x_factor=0.0, y_factor=0.0, interpolation="bilinear",
    fill_mode="reflect", fill_value=0.0, seed=None)`: output (x, y) reads the input
    at (x + s * sx * y, y + s * sy * x), sx and sy drawn in their ranges and one
    sign s = +-1 per image."""

    _config_keys = ("data_format", "x_factor", "y_factor", "fill_mode", "interpolation",
                    "seed", "fill_value")

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear",
                 fill_mode="reflect", fill_value=0.0, data_format=None, seed=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.x_factor = _shear_factor(x_factor, "x_factor")
        self.y_factor = _shear_factor(y_factor, "y_factor")

    def _transforms(self, x, h, w):
        sign = math_ops.where(self._uniform(x, 0.0, 1.0) > 0.5, -1.0, 1.0)
        sy = self._uniform(x, self.y_factor[0], self.y_factor[1]) * sign
        sx = self._uniform(x, self.x_factor[0], self.x_factor[1]) * sign
        return _rows(1.0, sx, 0.0, sy, 1.0, 0.0, 0.0, 0.0)


class RandomPerspective(_Augment):
    """`keras.layers.RandomPerspective(factor=1.0, scale=1.0, interpolation="bilinear",
    fill_value=0.0, seed=None)`: with a probability drawn in the factor range, each
    image's corners moved by up to scale / 2 of their coordinates, the image warped
    to match (constant fill)."""

    _config_keys = ("data_format", "factor", "scale", "interpolation", "fill_value", "seed")

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0,
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.factor = _factor(factor, (0, 1))
        if not 0 <= scale <= 1:
            raise ValueError("The `scale` argument should be a number in the range [0, 1]. "
                             f"Received: scale={scale}")
        if interpolation not in INTERPOLATIONS:
            raise ValueError(f"Invalid interpolation mode. Expected one of "
                             f"{INTERPOLATIONS}. Received: interpolation={interpolation}")
        self.scale, self.interpolation, self.fill_value = scale, interpolation, fill_value

    def _augment(self, x):
        h, w = x.shape.as_list()[1:3]
        batch = array_ops.shape(x)[:1]
        apply = self._uniform(x, 0.0, 1.0) < self._uniform(x, self.factor[0], self.factor[1])
        shift = random_ops.uniform(array_ops.concat([batch, [4, 2]], 0), -0.5 * self.scale,
                                   0.5 * self.scale, dtypes.float32, seed=self.seed)
        corners = np.array([[0.0, 0.0], [w - 1, 0.0], [0.0, h - 1], [w - 1, h - 1]],
                           np.float32)
        start = array_ops.ones_like(shift) * array_ops.constant(corners)
        out = perspective_transform(x, start, start + start * shift, self.interpolation,
                                    self.fill_value)
        return math_ops.where(array_ops.reshape(apply, [-1, 1, 1, 1]), out, x)


class _Valued(_Augment):
    """Layers with a factor range and a value_range."""

    _bounds = (-1, 1)
    _config_keys = ("data_format", "factor", "value_range", "seed")

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.factor = _factor(factor, self._bounds)
        self.value_range = _value_range(value_range)


class RandomContrast(_Valued):
    """`keras.layers.RandomContrast(factor, value_range=(0, 255), seed=None)`."""

    _bounds = (0, 1)

    def _augment(self, x):
        c = array_ops.reshape(self._uniform(x, 1.0 - self.factor[0], 1.0 + self.factor[1]),
                              [-1, 1, 1, 1])
        mean = reduction_ops.reduce_mean(x, axis=[1, 2], keepdims=True)
        return math_ops.clip_by_value((x - mean) * c + mean, float(self.value_range[0]),
                                      float(self.value_range[1]))


class RandomBrightness(_Valued):
    """`keras.layers.RandomBrightness(factor, value_range=(0, 255), seed=None)`."""

    def _augment(self, x):
        low, high = self.value_range
        delta = self._uniform(x, self.factor[0], self.factor[1]) * float(high - low)
        return math_ops.clip_by_value(x + array_ops.reshape(delta, [-1, 1, 1, 1]),
                                      float(low), float(high))


class RandomInvert(_Valued):
    """`keras.layers.RandomInvert(factor=1.0, value_range=(0, 255), seed=None)`."""

    _bounds = (0, 1)

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None,
                 **kwargs):
        super().__init__(factor, value_range, seed, data_format, **kwargs)

    def _augment(self, x):
        chance = self._uniform(x, self.factor[0], self.factor[1])
        draw = self._uniform(x, 0.0, 1.0)
        flip = array_ops.reshape(math_ops.less(draw, chance), [-1, 1, 1, 1])
        return math_ops.where(flip, float(self.value_range[1]) - x, x)


class RandomPosterization(_Valued):
    """`keras.layers.RandomPosterization(factor, value_range=(0, 255), seed=None)`:
    `bits` drawn from [lower, upper) (the value itself when they are equal)."""

    _bounds = (1, 8)

    def _augment(self, x):
        low, high = self.factor
        if low == high:
            bits = array_ops.fill(array_ops.shape(x)[:1], int(low))
        else:
            bits = math_ops.cast(math_ops.floor(self._uniform(x, float(low), float(high))),
                                 dtypes.int32)
        shift = math_ops.cast(array_ops.reshape(8 - bits, [-1, 1, 1, 1]), dtypes.uint8)
        values = math_ops.cast(_rescaled(x, self.value_range, (0, 255)), dtypes.uint8)
        values = bitwise_ops.left_shift(bitwise_ops.right_shift(values, shift), shift)
        return _rescaled(math_ops.cast(values, dtypes.float32), (0, 255), self.value_range)


class RandomSaturation(_Valued):
    """`keras.layers.RandomSaturation(factor, value_range=(0, 255), seed=None)`: the
    HSV saturation times f / (1 - f + epsilon), f drawn in the factor range, clipped
    to value_range (as Keras 3.15)."""

    def _augment(self, x):
        f = self._uniform(x, self.factor[0], self.factor[1])
        f = array_ops.reshape(f / (1.0 - f + 1e-7), [-1, 1, 1])
        hsv = keras_image.rgb_to_hsv(x)
        s = math_ops.clip_by_value(hsv[..., 1] * f, float(self.value_range[0]),
                                   float(self.value_range[1]))
        return keras_image.hsv_to_rgb(array_ops.stack([hsv[..., 0], s, hsv[..., 2]], -1))


class RandomColorDegeneration(_Valued):
    """`keras.layers.RandomColorDegeneration(factor, value_range=(0, 255), seed=None)`:
    x + f * (grayscale(x) - x), clipped to value_range."""

    def _augment(self, x):
        f = array_ops.reshape(self._uniform(x, self.factor[0], self.factor[1]), [-1, 1, 1, 1])
        gray = keras_image.rgb_to_grayscale(x)
        return math_ops.clip_by_value(x + f * (gray - x), float(self.value_range[0]),
                                      float(self.value_range[1]))


class RandomSharpness(_Valued):
    """`keras.layers.RandomSharpness(factor, value_range=(0, 255), seed=None)`:
    x + (1 - 2f) * (smoothed(x) - x), smoothed by the 3x3 kernel
    [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13 ("same" zero padding), clipped."""

    _bounds = (0, 1)

    def _augment(self, x):
        f = array_ops.reshape(self._uniform(x, self.factor[0], self.factor[1]) * 2.0,
                              [-1, 1, 1, 1])
        channels = x.shape.as_list()[-1]
        kernel = np.full((3, 3, 1, 1), 1.0 / 13.0, np.float32)
        kernel[1, 1] = 5.0 / 13.0
        kernel = array_ops.constant(np.tile(kernel, [1, 1, channels, 1]))
        smoothed = conv_more_ops.depthwise_conv2d(x, kernel, [1, 1, 1, 1], "SAME")
        return math_ops.clip_by_value(x + (1.0 - f) * (smoothed - x),
                                      float(self.value_range[0]), float(self.value_range[1]))


class RandomHue(_Valued):
    """`keras.layers.RandomHue(factor, value_range=(0, 255), seed=None)`: the HSV
    hue (on a 0..1 scale) shifted by +-f/2 (the sign drawn per image), wrapped."""

    _bounds = (0, 1)

    def _augment(self, x):
        sign = math_ops.where(self._uniform(x, 0.0, 1.0) > 0.5, -1.0, 1.0)
        shift = array_ops.reshape(sign * self._uniform(x, self.factor[0], self.factor[1])
                                  * 0.5, [-1, 1, 1])
        hsv = keras_image.rgb_to_hsv(_rescaled(x, self.value_range, (0, 1)))
        hue = hsv[..., 0] + shift
        hue = math_ops.where(hue > 1.0, hue - 1.0, hue)
        hue = math_ops.where(hue < 0.0, hue + 1.0, hue)
        rgb = keras_image.hsv_to_rgb(array_ops.stack([hue, hsv[..., 1], hsv[..., 2]], -1))
        return _rescaled(math_ops.clip_by_value(rgb, 0.0, 1.0), (0, 1), self.value_range)


def _odd_sizes(kernel_size):
    sizes = tuple(kernel_size) if isinstance(kernel_size, (tuple, list)) else \
        (kernel_size, kernel_size)
    if len(sizes) != 2 or any(int(k) % 2 == 0 for k in sizes):
        raise ValueError(f"kernel_size must be an odd number. Received: "
                         f"kernel_size={kernel_size}")
    return tuple(int(k) for k in sizes)


def _gaussian(size, sigma):
    x = array_ops.range(size, dtype=dtypes.float32) - (size - 1) / 2.0
    k = math_ops.exp(-0.5 * math_ops.square(x / sigma))
    return k / reduction_ops.reduce_sum(k)


class RandomGaussianBlur(_Augment):
    """`keras.layers.RandomGaussianBlur(factor=1.0, kernel_size=3, sigma=1.0,
    value_range=(0, 255), seed=None)`: each image blurred with probability drawn in
    the factor range, by a Gaussian whose sigma (one per axis, for the batch) is
    drawn in the sigma range; "same" zero padding."""

    _config_keys = ("data_format", "factor", "kernel_size", "sigma", "value_range", "seed")

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255),
                 data_format=None, seed=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.factor = _factor(factor, (0, 1))
        self.kernel_size = _odd_sizes(kernel_size)
        self.sigma = _factor(sigma, (0, 1), "sigma")
        self.value_range = _value_range(value_range)

    def _augment(self, x):
        chance = self._uniform(x, self.factor[0], self.factor[1])
        apply = math_ops.less(self._uniform(x, 0.0, 1.0), chance)
        sigma = random_ops.uniform([2], self.sigma[0], self.sigma[1], dtypes.float32,
                                   seed=self.seed) + 1e-6
        kx, ky = self.kernel_size
        kernel = array_ops.reshape(_gaussian(ky, sigma[1]), [-1, 1]) * \
            array_ops.reshape(_gaussian(kx, sigma[0]), [1, -1])
        channels = x.shape.as_list()[-1]
        kernel = tile_ops.tile(array_ops.reshape(kernel, [kx, ky, 1, 1]), [1, 1, channels, 1])
        blurred = conv_more_ops.depthwise_conv2d(x, kernel, [1, 1, 1, 1], "SAME")
        out = math_ops.where(array_ops.reshape(apply, [-1, 1, 1, 1]), blurred, x)
        return math_ops.clip_by_value(out, float(self.value_range[0]),
                                      float(self.value_range[1]))


class RandomGrayscale(_Augment):
    """`keras.layers.RandomGrayscale(factor=0.5, seed=None)`: RGB images."""

    _config_keys = ("data_format", "factor")

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        if not 0 <= factor <= 1:
            raise ValueError("`factor` should be between 0 and 1. "
                             f"Received: factor={factor}")
        self.factor = factor

    def _augment(self, x):
        apply = array_ops.reshape(math_ops.less(self._uniform(x, 0.0, 1.0), self.factor),
                                  [-1, 1, 1, 1])
        gray = keras_image.rgb_to_grayscale(x)
        return math_ops.where(apply, gray * array_ops.ones_like(x), x)


class Solarization(_Augment):
    """`keras.layers.Solarization(addition_factor=0.0, threshold_factor=0.0,
    value_range=(0, 255), seed=None)`."""

    _config_keys = ("data_format", "value_range", "addition_factor", "threshold_factor",
                    "seed")

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
                 seed=None, **kwargs):
        data_format = kwargs.pop("data_format", None)
        super().__init__(data_format, seed, **kwargs)
        self.addition_factor = _factor(addition_factor, (0, 1), "addition_factor")
        self.threshold_factor = _factor(threshold_factor, (0, 1), "threshold_factor")
        self.value_range = _value_range(value_range)

    def _augment(self, x):
        add = self._uniform(x, self.addition_factor[0], self.addition_factor[1] * 255)
        threshold = self._uniform(x, self.threshold_factor[0], self.threshold_factor[1] * 255)
        x = _rescaled(x, self.value_range, (0, 255))
        out = math_ops.clip_by_value(x + array_ops.reshape(add, [-1, 1, 1, 1]), 0.0, 255.0)
        out = math_ops.where(out < array_ops.reshape(threshold, [-1, 1, 1, 1]), out,
                             255.0 - out)
        return _rescaled(out, (0, 255), self.value_range)


class AutoContrast(_Augment):
    """`keras.layers.AutoContrast(value_range=(0, 255))`: each image and channel
    stretched to the whole value range (a constant channel is left as it is)."""

    _always = True
    _config_keys = ("data_format", "value_range")

    def __init__(self, value_range=(0, 255), **kwargs):
        data_format = kwargs.pop("data_format", None)
        super().__init__(data_format, None, **kwargs)
        self.value_range = _value_range(value_range)

    def _augment(self, x):
        scaled = _rescaled(x, self.value_range, (0, 255))
        low = reduction_ops.reduce_min(scaled, axis=[1, 2], keepdims=True)
        high = reduction_ops.reduce_max(scaled, axis=[1, 2], keepdims=True)
        scale = 255.0 / (high - low)
        out = math_ops.clip_by_value(scaled * scale - low * scale, 0.0, 255.0)
        out = _rescaled(out, (0, 255), self.value_range)
        return math_ops.where(math_ops.is_nan(out), x, out)


class Equalization(_Augment):
    """`keras.layers.Equalization(value_range=(0, 255), bins=256)`: histogram
    equalization of each channel, the histogram taken over the whole batch (as
    Keras 3.15); a channel with one occupied bin is left as it is."""

    _config_keys = ("value_range", "bins", "data_format")

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format, None, **kwargs)
        self.value_range, self.bins = _value_range(value_range), int(bins)

    def _channel(self, values):
        bins = self.bins
        values = _rescaled(values, self.value_range, (0, 255))
        index = math_ops.cast(values * (bins - 1) / 255.0, dtypes.int32)
        index = math_ops.minimum(math_ops.maximum(index, 0), bins - 1)
        hist = reduction_ops.reduce_sum(manipulation_ops.one_hot(
            array_ops.reshape(index, [-1]), bins, dtype=dtypes.float32), 0)
        cdf = reduction_ops.cumsum(hist)
        cdf_min = reduction_ops.reduce_min(math_ops.where(cdf > 0, cdf, cdf[-1] + 1.0))
        denominator = cdf[-1] - cdf_min
        denominator = math_ops.where(denominator == 0, 1.0, denominator)
        table = math_ops.clip_by_value(math_ops.round((cdf - cdf_min) * 255.0 / denominator),
                                       0.0, 255.0)
        lookup = math_ops.cast(math_ops.clip_by_value(values / 255.0 * (bins - 1), 0.0,
                                                      bins - 1.0), dtypes.int32)
        equalized = array_ops.gather(table, lookup)
        occupied = reduction_ops.reduce_sum(math_ops.cast(hist > 0, dtypes.int32))
        out = math_ops.where(occupied <= 1, values, equalized)
        return _rescaled(out, (0, 255), self.value_range)

    def _augment(self, x):
        channels = x.shape.as_list()[-1]
        return array_ops.stack([self._channel(x[..., i]) for i in range(channels)], -1)


class RandomCrop(_Augment):
    """`keras.layers.RandomCrop(height, width, seed=None)`: in training a random
    window (the same for the whole batch); the input as it is otherwise."""

    _config_keys = ("data_format", "height", "width", "seed")

    def __init__(self, height, width, seed=None, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.height, self.width = int(height), int(width)

    def _augment(self, x):
        in_h, in_w = x.shape.as_list()[1:3]
        if in_h is None or in_w is None:
            raise ValueError("RandomCrop requires the input to have a fully defined height "
                             f"and width. Received: images.shape={x.shape.as_list()}")
        if in_h > self.height and in_w > self.width:
            top = math_ops.cast(self._uniform(x, 0.0, float(in_h - self.height + 1),
                                              per_image=False), dtypes.int32)
            left = math_ops.cast(self._uniform(x, 0.0, float(in_w - self.width + 1),
                                               per_image=False), dtypes.int32)
            return x[:, top:top + self.height, left:left + self.width, :]
        crop_h = max(min(in_h, int(float(in_w * self.height) / self.width)), 1)
        crop_w = max(min(in_w, int(float(in_h * self.width) / self.height)), 1)
        top, left = int(float(in_h - crop_h) / 2), int(float(in_w - crop_w) / 2)
        # as Keras 3.15: a window of the target size from the centred start (cut by
        # the image's edges), resized to the target size
        window = x[:, top:top + self.height, left:left + self.width, :]
        if window.shape.as_list()[1:3] == [self.height, self.width]:
            return window
        return image_ops.resize(window, [self.height, self.width])

    def compute_output_shape(self, input_shape):
        return input_shape


def _box_mask(h, w, x0, x1, y0, y1):
    """(batch, h, w, 1) bool: x0 <= column < x1 and y0 <= row < y1, per image."""
    gy = array_ops.reshape(array_ops.range(h, dtype=dtypes.float32), [1, -1, 1, 1])
    gx = array_ops.reshape(array_ops.range(w, dtype=dtypes.float32), [1, 1, -1, 1])

    def col(v):
        return array_ops.reshape(v, [-1, 1, 1, 1])
    return math_ops.logical_and(math_ops.logical_and(gx >= col(x0), gx < col(x1)),
                                math_ops.logical_and(gy >= col(y0), gy < col(y1)))


class RandomErasing(_Augment):
    """`keras.layers.RandomErasing(factor=1.0, scale=(0.02, 0.33), fill_value=None,
    value_range=(0, 255), seed=None)`: with a probability drawn in the factor range,
    a box of each image (sides sqrt(s) of the image's, s drawn in `scale` per side)
    is filled with fill_value (a number or one per channel), or with normal noise
    times value_range[1], clipped to value_range."""

    _config_keys = ("data_format", "factor", "scale", "fill_value", "value_range", "seed")

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255),
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.factor = _factor(factor, (0, 1))
        self.scale = _factor(scale, (0, 1), "scale")
        if isinstance(fill_value, (tuple, list)) and len(fill_value) != 3:
            raise ValueError("The `fill_value` argument should be a number (or a list of "
                             f"three numbers). Received: fill_value={fill_value}")
        self.fill_value = fill_value
        self.value_range = _value_range(value_range)

    def _augment(self, x):
        h, w = x.shape.as_list()[1:3]
        batch = array_ops.shape(x)[:1]
        sides = math_ops.sqrt(random_ops.uniform(array_ops.concat([batch, [2]], 0),
                                                 self.scale[0], self.scale[1],
                                                 dtypes.float32, seed=self.seed))
        x0 = self._uniform(x, 0.0, 1.0) * (float(w) - sides[:, 0] * w)
        y0 = self._uniform(x, 0.0, 1.0) * (float(h) - sides[:, 1] * h)
        box = _box_mask(h, w, x0, x0 + sides[:, 0] * w, y0, y0 + sides[:, 1] * h)
        apply = self._uniform(x, 0.0, 1.0) < self._uniform(x, self.factor[0], self.factor[1])
        if self.fill_value is None:
            fill = random_ops.normal(array_ops.shape(x), 0.0, 1.0, dtypes.float32,
                                     seed=self.seed) * float(self.value_range[1])
        else:
            fill = array_ops.ones_like(x) * array_ops.constant(self.fill_value, dtypes.float32)
        fill = math_ops.clip_by_value(fill, float(self.value_range[0]),
                                      float(self.value_range[1]))
        erase = math_ops.logical_and(box, array_ops.reshape(apply, [-1, 1, 1, 1]))
        return math_ops.where(math_ops.logical_and(erase, array_ops.ones_like(x, dtypes.bool)),
                              fill, x)


class RandomColorJitter(_Augment):
    """`keras.layers.RandomColorJitter(value_range=(0, 255), brightness_factor=None,
    contrast_factor=None, saturation_factor=None, hue_factor=None, seed=None)`:
    RandomBrightness, RandomContrast, RandomSaturation and RandomHue (those whose
    factor is given), in that order."""

    _config_keys = ("data_format", "value_range", "brightness_factor", "contrast_factor",
                    "saturation_factor", "hue_factor", "seed")

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None,
                 saturation_factor=None, hue_factor=None, seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.value_range = _value_range(value_range)
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        self._steps = [cls(factor, value_range=value_range, seed=seed)
                       for cls, factor in ((RandomBrightness, brightness_factor),
                                           (RandomContrast, contrast_factor),
                                           (RandomSaturation, saturation_factor),
                                           (RandomHue, hue_factor)) if factor is not None]

    def _augment(self, x):
        for step in self._steps:
            x = step._augment(x)
        return x


class RandAugment(_Augment):
    """`keras.layers.RandAugment(value_range=(0, 255), num_ops=2, factor=0.5,
    interpolation="bilinear", seed=None)`: num_ops times, one of RandomShear,
    RandomTranslation, RandomRotation, RandomBrightness, RandomColorDegeneration,
    RandomContrast, RandomSharpness, RandomPosterization, Solarization, AutoContrast
    and Equalization (drawn for the whole batch), at strength `factor`."""

    _config_keys = ("data_format", "value_range", "num_ops", "factor", "interpolation",
                    "seed")

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear",
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.value_range, self.num_ops = _value_range(value_range), int(num_ops)
        self.factor = _factor(factor, (0, 1))
        self.interpolation = interpolation
        f, vr = self.factor, value_range
        self._ops = [
            RandomShear(f, f, interpolation=interpolation, seed=seed),
            RandomTranslation(f, f, interpolation=interpolation, seed=seed),
            RandomRotation(f, interpolation=interpolation, seed=seed),
            RandomBrightness(f, value_range=vr, seed=seed),
            RandomColorDegeneration(f, value_range=vr, seed=seed),
            RandomContrast(f, value_range=vr, seed=seed),
            RandomSharpness(f, value_range=vr, seed=seed),
            RandomPosterization(max(1, int(8 * f[1])), value_range=vr, seed=seed),
            Solarization(f, f, value_range=vr, seed=seed),
            AutoContrast(value_range=vr), Equalization(value_range=vr)]

    def _augment(self, x):
        picks = math_ops.cast(math_ops.floor(random_ops.uniform(
            [self.num_ops], 0.0, float(len(self._ops)), dtypes.float32, seed=self.seed)),
            dtypes.int32)
        for i in range(self.num_ops):
            current = x
            for k, op in enumerate(self._ops):
                x = math_ops.where(math_ops.equal(picks[i], k), op._augment(current), x)
        return x


class MixUp(ConfigurableLayer):
    """`keras.layers.MixUp(alpha=0.2, seed=None)`: in training each image (and, for
    a dict {"images", "labels"}, its label) becomes w * x + (1 - w) * x[perm], w ~
    Beta(alpha, alpha) per image, perm a random order of the batch."""

    _config_keys = ("alpha", "seed", "data_format")

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha, self.seed = alpha, seed
        self.data_format = _data_format(data_format)
        self._generator = keras_random.SeedGenerator(seed)

    def _mix(self, images):
        """(mixed images, per-image label weight w, the batch order)."""
        batch = array_ops.shape(images)[0]
        weight = keras_random.beta(array_ops.reshape(batch, [1]), self.alpha, self.alpha,
                                   seed=self._generator)
        order = keras_random.shuffle(array_ops.range(batch), seed=self._generator)
        w = array_ops.reshape(weight, [-1, 1, 1, 1])
        return w * images + (1.0 - w) * array_ops.gather(images, order), weight, order

    def call(self, data, training=True):
        images = data["images"] if isinstance(data, dict) else data
        images = math_ops.cast(images, dtypes.float32)
        if images.shape.rank != 4 or (isinstance(training, bool) and not training):
            return {**data, "images": images} if isinstance(data, dict) else images

        def mixed():
            out, weight, order = self._mix(images)
            out = {"images": out}
            if isinstance(data, dict) and "labels" in data:
                labels = math_ops.cast(data["labels"], dtypes.float32)
                w = array_ops.reshape(weight, [-1, 1])
                out["labels"] = w * labels + (1.0 - w) * array_ops.gather(labels, order)
            return out
        if not isinstance(training, bool):
            return _when_training(training, lambda: mixed()["images"], images)
        out = mixed()
        return {**data, **out} if isinstance(data, dict) else out["images"]

    def compute_output_shape(self, input_shape):
        return input_shape


class CutMix(MixUp):
    """`keras.layers.CutMix(factor=1.0, seed=None)`: in training a box of each image
    (sides sqrt(1 - w) of the image's, at a random place) comes from another image
    of the batch, w ~ Beta(a, a), a drawn in the factor range; labels are mixed by
    the share of the image each keeps."""

    _config_keys = ("data_format", "factor", "seed")

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = _factor(factor, (0, 1))

    def _bounds(self, batch, length, ratio):
        crop = ratio * float(length)
        start = keras_random.uniform(array_ops.reshape(batch, [1]), 0.0, 1.0,
                                     seed=self._generator) * (float(length) - crop)
        return start, start + crop

    def _mix(self, images):
        h, w = images.shape.as_list()[1:3]
        batch = array_ops.shape(images)[0]
        alpha = keras_random.uniform([], self.factor[0], self.factor[1],
                                     seed=self._generator) + 1e-6
        weight = keras_random.beta(array_ops.reshape(batch, [1]), alpha, alpha,
                                   seed=self._generator)
        ratio = math_ops.sqrt(1.0 - weight)
        x0, x1 = self._bounds(batch, w, ratio)
        y0, y1 = self._bounds(batch, h, ratio)
        box = _box_mask(h, w, x0, x1, y0, y1)
        order = keras_random.shuffle(array_ops.range(batch), seed=self._generator)
        box = math_ops.logical_and(box, array_ops.ones_like(images, dtypes.bool))
        out = math_ops.where(box, array_ops.gather(images, order), images)
        kept = 1.0 - (x1 - x0) * (y1 - y0) / float(w * h)
        return out, kept, order


class MaxNumBoundingBoxes(ConfigurableLayer):
    """`keras.layers.MaxNumBoundingBoxes(max_number, fill_value=-1)`: the
    "bounding_boxes" of a dict input cut or padded (with fill_value) to max_number
    boxes and labels per image; everything else passes as it is."""

    _config_keys = ("data_format", "bounding_box_format", "max_number")

    def __init__(self, max_number, fill_value=-1, bounding_box_format=None, data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.max_number, self.fill_value = int(max_number), int(fill_value)
        self.bounding_box_format = bounding_box_format
        self.data_format = _data_format(data_format)

    def _fit(self, x, rank):
        x = convert_to_tensor(x)[:, :self.max_number]
        short = self.max_number - array_ops.shape(x)[1]
        pads = array_ops.stack([array_ops.constant([0, 0]), array_ops.stack([0, short])] +
                               [array_ops.constant([0, 0])] * (rank - 2))
        return shape_ops.pad(x, pads, constant_values=math_ops.cast(self.fill_value,
                                                                     x.dtype))

    def call(self, data):
        if not isinstance(data, dict) or "bounding_boxes" not in data:
            return data
        if self.bounding_box_format is None:
            raise ValueError("You passed an input with a 'bounding_boxes' key, but you didn't "
                             "specify a bounding box format. Pass a `bounding_box_format` "
                             f"argument to your {type(self).__name__} layer, e.g. "
                             "`bounding_box_format='xyxy'`.")
        boxes = dict(data["bounding_boxes"])
        extra = set(boxes) - {"boxes", "labels"}
        if extra:
            raise KeyError(f"There are unsupported keys in `bounding_boxes`: {sorted(extra)}. "
                           "Only `boxes` and `labels` are supported.")
        boxes["boxes"] = self._fit(boxes["boxes"], 3)
        boxes["labels"] = self._fit(boxes["labels"], 2)
        return {**data, "bounding_boxes": boxes}


class Pipeline(ConfigurableLayer):
    """`keras.layers.Pipeline(layers)`: the layers applied in order."""

    def __init__(self, layers, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.layers_list = list(layers)

    @property
    def layers(self):
        return self.layers_list

    def call(self, inputs, training=True):
        for layer in self.layers_list:
            inputs = layer(inputs, training=training)
        return inputs

    def get_config(self):
        return {**base_config(self), "layers": [serialization.serialize_keras_object(layer)
                                                for layer in self.layers_list]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layers = [serialization.deserialize_keras_object(c, custom_objects)
                  for c in config.pop("layers")]
        for key in ("trainable", "dtype"):
            config.pop(key, None)
        return cls(layers, **config)
