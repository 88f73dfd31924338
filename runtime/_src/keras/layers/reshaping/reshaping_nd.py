"""The 1-D and 3-D forms of the reshaping layers (the 2-D ones are in
layers/reshaping/reshaping.py): `UpSampling1D/3D`, `ZeroPadding1D/3D`, `Cropping1D/3D`.

    UpSampling1D(size=2)                 each step repeated size times
    UpSampling3D(size=(2, 2, 2))         each voxel repeated along depth, height, width
    ZeroPadding1D(padding=1)             zeros before/after the steps: an int or a pair
    ZeroPadding3D(padding=((1, 1),) * 3) an int, 3 ints, or 3 pairs
    Cropping1D(cropping=(1, 1))          steps removed at the start and end
    Cropping3D(cropping=((1, 1),) * 3)   the same forms as ZeroPadding3D
"""

import numbers

from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.utils.argument_validation import ntuple
from runtime._src.keras.utils.argument_validation import _data_format
from runtime._src.ops import shape_ops

__all__ = ["UpSampling1D", "UpSampling3D", "ZeroPadding1D", "ZeroPadding3D", "Cropping1D",
           "Cropping3D"]


def _pair_of(value, name):
    if isinstance(value, numbers.Integral):
        value = (value, value)
    value = tuple(value)
    if len(value) != 2 or not all(isinstance(v, numbers.Integral) and v >= 0 for v in value):
        raise ValueError(f"`{name}` should be a pair of non-negative integers. "
                         f"Received: {name}={value}.")
    return tuple(int(v) for v in value)


def _pairs(value, n, name):
    """n (before, after) pairs from an int, n ints, or n pairs."""
    if isinstance(value, numbers.Integral):
        return (_pair_of(value, name),) * n
    value = tuple(value)
    if len(value) != n:
        raise ValueError(f"`{name}` should have {n} elements. Received: {name}={value}.")
    return tuple(_pair_of(v, name) for v in value)


def _spatial_axes(layer, rank):
    return tuple(range(1, rank + 1)) if layer.data_format == "channels_last" \
        else tuple(range(2, rank + 2))


class UpSampling1D(ConfigurableLayer):
    """`keras.layers.UpSampling1D(size=2)`: (batch, steps, features) with each step
    repeated `size` times."""

    _config_keys = ("size",)

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = ntuple(size, 1, "size")[0]
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return shape_ops.repeat(inputs, self.size, axis=1)


class UpSampling3D(ConfigurableLayer):
    """`keras.layers.UpSampling3D(size=(2, 2, 2), data_format=None)`."""

    _config_keys = ("size", "data_format")

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.size = ntuple(size, 3, "size")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        for axis, n in zip(_spatial_axes(self, 3), self.size):
            inputs = shape_ops.repeat(inputs, n, axis=axis)
        return inputs


class _Padding(ConfigurableLayer):
    _rank = 1
    _config_keys = ("padding", "data_format")

    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pair_of(padding, "padding") if self._rank == 1 \
            else _pairs(padding, self._rank, "padding")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def call(self, inputs):
        pads = [[0, 0]] * (self._rank + 2)
        amounts = (self.padding,) if self._rank == 1 else self.padding
        for axis, amount in zip(_spatial_axes(self, self._rank), amounts):
            pads[axis] = list(amount)
        return shape_ops.pad(inputs, pads)


class ZeroPadding1D(_Padding):
    """`keras.layers.ZeroPadding1D(padding=1, data_format=None)`."""

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_Padding):
    """`keras.layers.ZeroPadding3D(padding=((1, 1), (1, 1), (1, 1)), data_format=None)`."""

    _rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


def _crop(layer, inputs, axes, amounts):
    index = [slice(None)] * len(inputs.shape)
    dims = inputs.shape.as_list()
    for axis, (lo, hi) in zip(axes, amounts):
        if dims[axis] is not None and lo + hi >= dims[axis]:
            raise ValueError(f'Layer "{layer.name}": cropping {amounts} leaves nothing of '
                             f"an input of shape {tuple(dims)}")
        index[axis] = slice(lo, -hi if hi else None)
    return inputs[tuple(index)]


class Cropping1D(ConfigurableLayer):
    """`keras.layers.Cropping1D(cropping=(1, 1))`: steps removed at the start and end."""

    _config_keys = ("cropping",)

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pair_of(cropping, "cropping")
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _crop(self, inputs, (1,), (self.cropping,))


class Cropping3D(ConfigurableLayer):
    """`keras.layers.Cropping3D(cropping=((1, 1), (1, 1), (1, 1)), data_format=None)`."""

    _config_keys = ("cropping", "data_format")

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, 3, "cropping")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        return _crop(self, inputs, _spatial_axes(self, 3), self.cropping)
