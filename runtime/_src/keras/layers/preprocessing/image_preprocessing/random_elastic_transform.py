"""`keras.layers.RandomElasticTransform(factor=1.0, scale=1.0,
interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
value_range=(0, 255), seed=None, data_format=None)`: in training each image,
with a probability drawn in the `factor` range, is resampled at pixel positions
moved by a smoothed random field, as Keras 3.15 does:

    d = normal(batch, height, width) * sigma, blurred by a Gaussian of that sigma
        (kernel 6 * int(sigma) + 1 wide, zeros beyond the border)
    the pixel at (y, x) takes the input at (y + alpha * d, x + alpha * d)
    alpha = 0.1 * s * max(height, width), sigma = 0.05 * s * min(height, width),
    s drawn in the `scale` range once per call

(Keras moves both coordinates by the same field: it draws the x and y fields
with one seed.) Bilinear or nearest sampling; positions outside the image
follow `fill_mode` (reflect, mirror, wrap, nearest, or constant `fill_value`).
The result is clipped to `value_range`.
"""

import itertools

import numpy as np

from runtime._src.core import dtypes
from runtime._src.keras.layers.preprocessing.image_preprocessing.image_augmentation import (
    _Augment, _factor, _value_range)
from runtime._src.keras.random import random as keras_random
from runtime._src.ops import (array_ops, conv_more_ops, math_ops, reduction_ops,
                              scatter_ops, shape_ops)

__all__ = ["RandomElasticTransform"]

_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
_INTERPOLATIONS = ("nearest", "bilinear")


def _fixed(index, size, fill_mode):
    """(index inside [0, size), whether the position lies inside the image)."""
    inside = math_ops.logical_and(index >= 0, index < size)
    if fill_mode == "constant":
        return math_ops.clip_by_value(index, 0, size - 1), inside
    if fill_mode == "nearest":
        return math_ops.clip_by_value(index, 0, size - 1), None
    if fill_mode == "wrap":
        return math_ops.floormod(index, size), None
    index = math_ops.abs(index)
    mod = math_ops.floormod(index, 2 * size)
    index = math_ops.where(mod < size, mod, 2 * size - mod)
    if fill_mode == "reflect":
        index = math_ops.where(mod < size, index, index - 1)
    return index, None


def _taps(coordinate, interpolation):
    """[(integer index, weight)] of one coordinate."""
    if interpolation == "nearest":
        return [(math_ops.cast(math_ops.round(coordinate), dtypes.int32), 1.0)]
    lower = math_ops.floor(coordinate)
    upper_weight = coordinate - lower
    index = math_ops.cast(lower, dtypes.int32)
    return [(index, 1.0 - upper_weight), (index + 1, upper_weight)]


def _resample(images, ys, xs, interpolation, fill_mode, fill_value):
    """images (b, h, w, c) read at the positions ys, xs (b, h, w)."""
    h, w = images.shape.as_list()[1:3]
    batch = shape_ops.broadcast_to(array_ops.reshape(
        array_ops.range(array_ops.shape(images)[0]), [-1, 1, 1]), array_ops.shape(ys))
    total = None
    for (yi, wy), (xi, wx) in itertools.product(_taps(ys, interpolation),
                                                _taps(xs, interpolation)):
        yi, y_in = _fixed(yi, h, fill_mode)
        xi, x_in = _fixed(xi, w, fill_mode)
        values = scatter_ops.gather_nd(images, array_ops.stack([batch, yi, xi], -1))
        if fill_mode == "constant":
            inside = array_ops.expand_dims(math_ops.logical_and(y_in, x_in), -1)
            values = math_ops.where(inside, values, array_ops.fill(
                array_ops.shape(values), math_ops.cast(fill_value, values.dtype)))
        part = array_ops.expand_dims(wy * wx, -1) * values if interpolation == "bilinear" \
            else values
        total = part if total is None else total + part
    return total


def _smoothed(field, sigma, widest):
    """field (b, h, w) blurred by a Gaussian of the scalar tensor `sigma`, its
    kernel 6 * int(sigma) + 1 wide inside a zero-padded `widest` one."""
    half = widest // 2
    taps = array_ops.constant(np.arange(-half, half + 1, dtype=np.float32))
    reach = math_ops.cast(3 * math_ops.cast(sigma, dtypes.int32), dtypes.float32)
    kernel = math_ops.exp(-0.5 * math_ops.square(taps / sigma))
    kernel = math_ops.where(math_ops.abs(taps) <= reach, kernel, array_ops.zeros_like(kernel))
    kernel = kernel / reduction_ops.reduce_sum(kernel)
    kernel2d = array_ops.reshape(array_ops.expand_dims(kernel, 1) * kernel, [widest, widest, 1, 1])
    out = conv_more_ops.depthwise_conv2d(array_ops.expand_dims(field, -1), kernel2d,
                                         [1, 1, 1, 1], "SAME")
    return out[..., 0]


class RandomElasticTransform(_Augment):
    """See the module docstring."""

    _config_keys = ("data_format", "factor", "scale", "interpolation", "fill_mode",
                    "fill_value", "value_range", "seed")

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.factor = _factor(factor, (0, 1))
        self.scale = _factor(scale, (0, 1), "scale")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of "
                                      f"one {_INTERPOLATIONS}.")
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                      f"{set(_FILL_MODES)}.")
        self.interpolation, self.fill_mode, self.fill_value = interpolation, fill_mode, fill_value
        self.value_range = _value_range(value_range)
        self._generator = keras_random.SeedGenerator(seed)

    def _augment(self, x):
        if self.scale[1] == 0 or self.factor[1] == 0:
            return x
        h, w = x.shape.as_list()[1:3]
        batch = array_ops.shape(x)[:1]
        chance = keras_random.uniform(batch, self.factor[0], self.factor[1],
                                      seed=self._generator)
        apply = keras_random.uniform(batch, 0.0, 1.0, seed=self._generator) < chance
        strength = keras_random.uniform([], self.scale[0], self.scale[1],
                                        seed=self._generator)
        alpha = strength * (0.1 * max(h, w))
        sigma = strength * (0.05 * min(h, w))
        field = keras_random.normal(array_ops.concat([batch, [h, w]], 0),
                                    seed=self._generator) * sigma
        widest = 6 * int(self.scale[1] * 0.05 * min(h, w)) + 1
        shift = alpha * _smoothed(field, sigma, widest)
        ys = array_ops.reshape(array_ops.constant(np.arange(h, dtype=np.float32)), [1, h, 1])
        xs = array_ops.reshape(array_ops.constant(np.arange(w, dtype=np.float32)), [1, 1, w])
        moved = _resample(x, ys + shift, xs + shift, self.interpolation, self.fill_mode,
                          self.fill_value)
        out = math_ops.where(array_ops.reshape(apply, [-1, 1, 1, 1]), moved, x)
        return math_ops.clip_by_value(out, float(self.value_range[0]),
                                      float(self.value_range[1]))
