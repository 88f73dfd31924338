"""`keras.layers.ContrastLimitedAdaptiveHistogramEqualization(value_range=(0, 255),
clip_limit=4.0, tile_grid_size=(8, 8), data_format=None)`: contrast-limited
adaptive histogram equalization (CLAHE), as Keras 3.15 computes it, at training
and inference alike.

The image (on a 0..255 scale) is padded symmetrically to whole tiles of a
grid_h x grid_w grid. Each tile and channel gets a 256-bin histogram of its
integer values; with clip_limit > 0 each bin is cut at
clip_limit * tile_pixels / 256 and the excess spread evenly over all bins.
The histogram's normalized cumulative sum, (cdf - min cdf) * 255 /
(tile_pixels - min cdf), maps values; a pixel takes the bilinear blend of
the maps of the four tiles whose centres surround it (the edge tiles'
maps repeated beyond the border).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.keras.layers.preprocessing.image_preprocessing.image_augmentation import (
    _Augment, _rescaled, _value_range)
from runtime._src.ops import (array_ops, manipulation_ops, math_ops, reduction_ops,
                              shape_ops)

__all__ = ["ContrastLimitedAdaptiveHistogramEqualization"]


def _blend_weights(size, tile, grid):
    """(lower tile index, upper tile index, weight of the upper) for each of
    `size` padded positions, in the padded grid of grid + 2 tiles."""
    pos = (np.arange(size, dtype=np.float32) - np.float32(tile / 2.0)) / np.float32(tile)
    pos = pos + np.float32(1.0)
    low = np.floor(pos)
    weight = pos - low
    return (np.clip(low, 0, grid + 1).astype(np.int32),
            np.clip(low + 1.0, 0, grid + 1).astype(np.int32), weight)


class ContrastLimitedAdaptiveHistogramEqualization(_Augment):
    """See the module docstring."""

    _always = True
    _config_keys = ("value_range", "clip_limit", "tile_grid_size", "data_format")

    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8),
                 data_format=None, **kwargs):
        super().__init__(data_format, None, **kwargs)
        self.value_range = _value_range(value_range)
        self.clip_limit, self.tile_grid_size = clip_limit, tuple(tile_grid_size)

    def call(self, inputs, training=True):
        out = super().call(inputs, training)
        dtype = getattr(inputs, "dtype", None)
        if dtype is not None and dtypes.as_dtype(dtype) != out.dtype:
            out = math_ops.cast(out, dtype)
        return out

    def _augment(self, x):
        return _rescaled(self._equalize(_rescaled(x, self.value_range, (0, 255))),
                         (0, 255), self.value_range)

    def _maps(self, tiles, pixels):
        """(batch, grid_h + 2, grid_w + 2, channels, 256): each tile's value map,
        edge tiles repeated."""
        hists = reduction_ops.reduce_sum(manipulation_ops.one_hot(
            math_ops.clip_by_value(math_ops.cast(tiles, dtypes.int32), 0, 255), 256,
            dtype=dtypes.float32), -2)
        if self.clip_limit > 0:
            clipped = math_ops.clip_by_value(hists, 0.0, float(self.clip_limit * pixels / 256.0))
            excess = reduction_ops.reduce_sum(hists - clipped, -1, keepdims=True)
            hists = clipped + excess / 256.0
        cdf = reduction_ops.cumsum(hists, -1)
        cdf_min = reduction_ops.reduce_min(cdf, -1, keepdims=True)
        denominator = float(pixels) - cdf_min
        denominator = math_ops.where(denominator == 0.0, array_ops.ones_like(denominator),
                                     denominator)
        maps = math_ops.clip_by_value((cdf - cdf_min) * 255.0 / denominator, 0.0, 255.0)
        maps = array_ops.concat([maps[:, :1], maps, maps[:, -1:]], 1)
        return array_ops.concat([maps[:, :, :1], maps, maps[:, :, -1:]], 2)

    def _equalize(self, images):
        height, width, channels = images.shape.as_list()[1:]
        grid_h, grid_w = self.tile_grid_size
        tile_h, tile_w = -(-height // grid_h), -(-width // grid_w)
        padded = images
        if (tile_h * grid_h, tile_w * grid_w) != (height, width):
            padded = shape_ops.pad(images, [[0, 0], [0, tile_h * grid_h - height],
                                            [0, tile_w * grid_w - width], [0, 0]],
                                   mode="SYMMETRIC")
        tiles = array_ops.reshape(padded, [-1, grid_h, tile_h, grid_w, tile_w, channels])
        tiles = array_ops.reshape(array_ops.transpose(tiles, [0, 1, 3, 5, 2, 4]),
                                  [-1, grid_h, grid_w, channels, tile_h * tile_w])
        flat = array_ops.reshape(self._maps(tiles, tile_h * tile_w), [-1])
        y0, y1, wy = _blend_weights(tile_h * grid_h, tile_h, grid_h)
        x0, x1, wx = _blend_weights(tile_w * grid_w, tile_w, grid_w)
        stride_x = 256 * channels
        stride_y = stride_x * (grid_w + 2)
        stride_b = stride_y * (grid_h + 2)
        batch = array_ops.range(array_ops.shape(images)[0]) * stride_b
        base = (array_ops.reshape(batch, [-1, 1, 1, 1])
                + array_ops.constant((np.arange(channels) * 256).reshape(1, 1, 1, -1)
                                     .astype(np.int32))
                + math_ops.cast(math_ops.clip_by_value(padded, 0.0, 255.0), dtypes.int32))

        def at(rows, cols):
            offset = (rows * stride_y)[:, None] + (cols * stride_x)[None, :]
            return array_ops.gather(flat, base + array_ops.constant(
                offset.reshape(1, *offset.shape, 1).astype(np.int32)))
        wx = array_ops.constant(wx.reshape(1, 1, -1, 1))
        wy = array_ops.constant(wy.reshape(1, -1, 1, 1))
        top = at(y0, x0) * (1.0 - wx) + at(y0, x1) * wx
        bottom = at(y1, x0) * (1.0 - wx) + at(y1, x1) * wx
        return (top * (1.0 - wy) + bottom * wy)[:, :height, :width, :]
