"""Layers that move values around: `Flatten`, `Reshape`, `UpSampling2D`,
`ZeroPadding2D`, `Cropping2D`, `RepeatVector`, `Permute`.

    Flatten()                        (batch, d1, d2, ...) -> (batch, d1 * d2 * ...);
                                     (n,) -> (n, 1)
    Reshape(target_shape)            (batch, ...) -> (batch, *target_shape), one -1 allowed
    UpSampling2D(size=(2, 2))        each pixel repeated size[0] x size[1] times (nearest),
                                     or tf.image.resize by size (interpolation="bilinear",
                                     "bicubic", "area", "lanczos3", "lanczos5")
    ZeroPadding2D(padding=(1, 1))    zeros around height and width; an int, a pair
                                     (symmetric) or ((top, bottom), (left, right))
    Cropping2D(cropping=((0, 0), (0, 0)))  remove rows/columns, same argument forms
    RepeatVector(n)                  (batch, features) -> (batch, n, features)
    Permute(dims)                    the non-batch axes reordered; dims count from 1"""

import numbers

from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.utils.argument_validation import _data_format, _pair, check_interpolation
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, image_ops, math_ops, shape_ops, tile_ops
import math
from runtime._src.keras.layers.layer import Layer

__all__ = ["Cropping2D", "Permute", "RepeatVector", "UpSampling2D", "ZeroPadding2D", "Flatten",
           "Reshape"]


def _pairs(value, name):
    """((top, bottom), (left, right)) from an int, a pair, or a pair of pairs."""
    if isinstance(value, numbers.Integral):
        return ((int(value),) * 2,) * 2
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {name}={value}.")
    out = []
    for v in value:
        if isinstance(v, numbers.Integral):
            out.append((int(v), int(v)))
        else:
            v = tuple(int(a) for a in v)
            if len(v) != 2 or min(v) < 0:
                raise ValueError(f"`{name}` should be a pair of non-negative integer pairs. "
                                 f"Received: {name}={value}.")
            out.append(v)
    return tuple(out)


def _spatial(layer, rank4):
    """Index of (height, width) in a rank-4 input for the layer's data format."""
    return (1, 2) if layer.data_format == "channels_last" else (2, 3)


class UpSampling2D(ConfigurableLayer):
    """`keras.layers.UpSampling2D(size=(2, 2), data_format=None, interpolation="nearest")`."""

    _config_keys = ("size", "data_format", "interpolation")

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = _pair(size, "size")
        self.data_format = _data_format(data_format)
        self.interpolation = check_interpolation(interpolation.lower())
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        h, w = _spatial(self, 4)
        if self.interpolation != "nearest":         # tf.image.resize to the larger size
            x = inputs if self.data_format == "channels_last" else \
                array_ops.transpose(inputs, [0, 2, 3, 1])
            dims = x.shape.dims
            out = image_ops.resize(x, [dims[1] * self.size[0], dims[2] * self.size[1]],
                                   method=self.interpolation)
            out = math_ops.cast(out, inputs.dtype)
            return out if self.data_format == "channels_last" else \
                array_ops.transpose(out, [0, 3, 1, 2])
        out = shape_ops.repeat(inputs, self.size[0], axis=h)
        return shape_ops.repeat(out, self.size[1], axis=w)


class ZeroPadding2D(ConfigurableLayer):
    """`keras.layers.ZeroPadding2D(padding=(1, 1), data_format=None)`."""

    _config_keys = ("padding", "data_format")

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, "padding")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        pads = [[0, 0]] * 4
        h, w = _spatial(self, 4)
        pads[h], pads[w] = list(self.padding[0]), list(self.padding[1])
        return shape_ops.pad(inputs, pads)


class Cropping2D(ConfigurableLayer):
    """`keras.layers.Cropping2D(cropping=((0, 0), (0, 0)), data_format=None)`."""

    _config_keys = ("cropping", "data_format")

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, "cropping")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        index = [slice(None)] * 4
        h, w = _spatial(self, 4)
        dims = inputs.shape.dims
        for axis, (lo, hi) in zip((h, w), self.cropping):
            if dims is not None and dims[axis] is not None and lo + hi >= dims[axis]:
                raise ValueError(f'Layer "{self.name}": cropping {self.cropping} leaves '
                                 f"nothing of an input of shape {tuple(dims)}")
            index[axis] = slice(lo, -hi if hi else None)
        return inputs[tuple(index)]


class RepeatVector(ConfigurableLayer):
    """`keras.layers.RepeatVector(n)`: (batch, features) -> (batch, n, features)."""

    _config_keys = ("n",)

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, numbers.Integral) or n <= 0:
            raise TypeError(f"Expected an integer value for `n`. Received: n={n!r}")
        self.n = int(n)
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return tile_ops.tile(array_ops.expand_dims(inputs, 1), [1, self.n, 1])


class Permute(ConfigurableLayer):
    """`keras.layers.Permute(dims)`: dims is a permutation of 1..rank-1."""

    _config_keys = ("dims",)

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set "
                             "of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={self.dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return array_ops.transpose(inputs, [0, *self.dims])


class Flatten(Layer):
    """`tf.keras.layers.Flatten()`: keep the batch axis, flatten the rest."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format
        self.input_spec = InputSpec(min_ndim=1)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format or "channels_last"}

    def call(self, inputs):
        rank = inputs.shape.rank
        if rank == 1:
            return array_ops.expand_dims(inputs, 1)
        dims = inputs.shape.dims
        if dims is not None and None not in dims[1:]:
            return array_ops.reshape(inputs, [-1, math.prod(dims[1:])])
        batch = array_ops.shape(inputs)[:1]
        return array_ops.reshape(inputs, array_ops.concat(
            [batch, array_ops.constant([-1])], 0))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        return (input_shape[0], None if None in rest else math.prod(rest))


class Reshape(Layer):
    """`tf.keras.layers.Reshape(target_shape)`: each sample reshaped to
    `target_shape` (one entry may be -1, inferred from the size)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}

    def _resolved(self, sample_shape):
        """target_shape with its -1 filled in from `sample_shape` (None if unknown)."""
        target = self.target_shape
        unknown = [i for i, d in enumerate(target) if d == -1]
        if len(unknown) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in "
                             f"`target_shape`. Received: target_shape={target}.")
        if None in sample_shape:
            return tuple(None if d == -1 else d for d in target)
        size = math.prod(sample_shape)
        known = math.prod(d for d in target if d != -1)
        if (unknown and (known == 0 or size % known)) or (not unknown and size != known):
            raise ValueError("The total size of the tensor must be unchanged. Received: "
                             f"input_shape={tuple(sample_shape)}, target_shape={target}")
        return tuple(size // known if d == -1 else d for d in target)

    def call(self, inputs):
        dims = inputs.shape.dims
        if dims is not None:
            resolved = self._resolved(dims[1:])
            if None not in resolved:
                return array_ops.reshape(inputs, [-1, *resolved])
        batch = array_ops.shape(inputs)[:1]
        return array_ops.reshape(inputs, array_ops.concat(
            [batch, array_ops.constant(list(self.target_shape))], 0))

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._resolved(tuple(input_shape[1:]))
