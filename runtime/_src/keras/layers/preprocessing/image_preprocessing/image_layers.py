"""Image preprocessing layers: `Resizing`, `CenterCrop`, `RandomFlip`.

    Resizing(height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
             pad_to_aspect_ratio=False, fill_value=0.0, antialias=False)
        tf.image.resize to (height, width) (bilinear, nearest, bicubic, area,
        lanczos3, lanczos5); crop_to_aspect_ratio first takes the largest
        centred window of the target's aspect ratio, pad_to_aspect_ratio pads
        both sides of the short axis with fill_value to it (no distortion);
        integer images come back rounded (half to even) in their own dtype
    CenterCrop(height, width)
        the centred height x width window; an input smaller than that on a side
        is cropped to the aspect ratio and resized instead (Keras's smart_resize)
    RandomFlip(mode="horizontal_and_vertical", seed=None)
        training=True: each image flipped left-right ("horizontal") and/or
        up-down ("vertical"), each with probability 1/2; otherwise the identity

Inputs are (batch, height, width, channels) or one (height, width, channels)
image; data_format="channels_first" puts the channels before height.
"""

import numpy as np

from runtime._src.keras.utils.argument_validation import _data_format, check_interpolation
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.layers.regularization.noise import _when_training
from runtime._src.ops import array_ops, image_ops, math_ops, random_ops, shape_ops

__all__ = ["Resizing", "CenterCrop", "RandomFlip"]


def _hw_axes(layer, rank):
    """(height axis, width axis) of a rank-3 or rank-4 input."""
    if rank not in (3, 4):
        raise ValueError(f'Layer "{layer.name}": expected an image batch of rank 4 or one '
                         f"image of rank 3; got rank {rank}")
    first = rank - 3 if layer.data_format == "channels_last" else rank - 2
    return first, first + 1


def _as_channels_last(layer, x):
    if layer.data_format == "channels_first":
        perm = [0, 2, 3, 1] if x.shape.rank == 4 else [1, 2, 0]
        return array_ops.transpose(x, perm)
    return x


def _back(layer, x):
    if layer.data_format == "channels_first":
        perm = [0, 3, 1, 2] if x.shape.rank == 4 else [2, 0, 1]
        return array_ops.transpose(x, perm)
    return x


def _crop(x, h_axis, top, height, left, width):
    index = [slice(None)] * x.shape.rank
    index[h_axis], index[h_axis + 1] = slice(top, top + height), slice(left, left + width)
    return x[tuple(index)]


def _crop_to_aspect(x, h_axis, height, width):
    """The largest centred window of aspect height:width (Keras's smart_resize)."""
    in_h, in_w = x.shape.dims[h_axis], x.shape.dims[h_axis + 1]
    crop_h = max(min(in_h, int(float(in_w * height) / width)), 1)
    crop_w = max(min(in_w, int(float(in_h * width) / height)), 1)
    return _crop(x, h_axis, int(float(in_h - crop_h) / 2), crop_h,
                 int(float(in_w - crop_w) / 2), crop_w)


def _pad_to_aspect(x, h_axis, height, width, fill_value):
    """x with fill_value rows (columns) added evenly on both sides, toward the
    aspect height:width, as Keras 3.15 pads (its float32 arithmetic)."""
    in_h, in_w = x.shape.dims[h_axis], x.shape.dims[h_axis + 1]
    pad_h = max(in_h, int(np.float32(in_w * height) / np.float32(width)))
    pad_w = max(in_w, int(np.float32(in_h * width) / np.float32(height)))
    top, left = int(np.float32(pad_h - in_h) / 2), int(np.float32(pad_w - in_w) / 2)
    pads = [[0, 0]] * x.shape.rank
    pads[h_axis], pads[h_axis + 1] = [top, top], [left, left]
    return shape_ops.pad(x, pads, constant_values=math_ops.cast(fill_value, x.dtype))


def _resize(layer, x, height, width, interpolation, crop, pad=False, antialias=False,
            fill_value=0.0):
    x = _as_channels_last(layer, x)
    if crop:
        x = _crop_to_aspect(x, x.shape.rank - 3, height, width)
    elif pad:
        x = _pad_to_aspect(x, x.shape.rank - 3, height, width, fill_value)
    out = image_ops.resize(x, [height, width], method=interpolation, antialias=antialias)
    return _back(layer, math_ops.cast(out, layer.dtype))


def _image_output_shape(layer, input_shape, height, width):
    shape = list(input_shape)
    h, w = _hw_axes(layer, len(shape))
    shape[h], shape[w] = height, width
    return tuple(shape)


class Resizing(ConfigurableLayer):
    """`keras.layers.Resizing(height, width, interpolation="bilinear", ...)`."""

    _config_keys = ("data_format", "height", "width", "interpolation",
                    "crop_to_aspect_ratio", "pad_to_aspect_ratio", "fill_mode", "fill_value",
                    "antialias")

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_interpolation(interpolation)
        if fill_mode != "constant":
            raise ValueError("Invalid value for argument `fill_mode`. Only `'constant'` is "
                             f"supported. Received: fill_mode={fill_mode}")
        if pad_to_aspect_ratio and crop_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can "
                             "be `True`.")
        self.height, self.width = int(height), int(width)
        self.interpolation, self.crop_to_aspect_ratio = interpolation, crop_to_aspect_ratio
        self.pad_to_aspect_ratio, self.antialias = pad_to_aspect_ratio, antialias
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.data_format = _data_format(data_format)

    def call(self, inputs):
        _hw_axes(self, inputs.shape.rank)
        out = _resize(self, inputs, self.height, self.width, self.interpolation,
                      self.crop_to_aspect_ratio, self.pad_to_aspect_ratio, self.antialias,
                      self.fill_value)
        if not inputs.dtype.is_integer:
            return out
        # Keras 3 gives integer images back in their dtype: rounded, then saturated
        info = np.iinfo(inputs.dtype.as_numpy_dtype)
        out = math_ops.clip_by_value(math_ops.round(out), float(info.min), float(info.max))
        return math_ops.cast(out, inputs.dtype)

    def compute_output_shape(self, input_shape):
        return _image_output_shape(self, input_shape, self.height, self.width)


class CenterCrop(ConfigurableLayer):
    """`keras.layers.CenterCrop(height, width, data_format=None)`."""

    _config_keys = ("data_format", "height", "width")

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)
        self.data_format = _data_format(data_format)

    def call(self, inputs):
        h_axis, w_axis = _hw_axes(self, inputs.shape.rank)
        dims = inputs.shape.dims
        h_diff, w_diff = dims[h_axis] - self.height, dims[w_axis] - self.width
        if h_diff >= 0 and w_diff >= 0:
            out = _crop(inputs, h_axis, h_diff // 2, self.height, w_diff // 2, self.width)
            return math_ops.cast(out, self.dtype)
        return _resize(self, inputs, self.height, self.width, "bilinear", True)

    def compute_output_shape(self, input_shape):
        return _image_output_shape(self, input_shape, self.height, self.width)


class RandomFlip(ConfigurableLayer):
    """`keras.layers.RandomFlip(mode="horizontal_and_vertical", seed=None)`."""

    _config_keys = ("data_format", "seed", "mode")
    _MODES = ("horizontal", "vertical", "horizontal_and_vertical")

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if mode not in self._MODES:
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode "
                             f"argument {mode}")
        self.mode, self.seed = mode, seed
        self.data_format = _data_format(data_format)

    def _flipped(self, inputs, h_axis, w_axis):
        """Each image flipped along each chosen axis with probability 1/2 (one
        draw per image and axis)."""
        single = inputs.shape.rank == 3
        x = array_ops.expand_dims(inputs, 0) if single else inputs
        offset = 1 if single else 0
        axes = [a + offset for a, used in ((w_axis, self.mode != "vertical"),
                                           (h_axis, self.mode != "horizontal")) if used]
        batch = array_ops.shape(x)[:1]
        draws = random_ops.uniform(array_ops.concat([batch, [len(axes)]], 0), 0.0, 1.0,
                                   seed=self.seed)
        for i, axis in enumerate(axes):
            flip = array_ops.reshape(math_ops.less(draws[:, i], 0.5), [-1, 1, 1, 1])
            x = math_ops.where(flip, shape_ops.reverse(x, [axis]), x)
        return x[0] if single else x

    def call(self, inputs, training=True):
        h_axis, w_axis = _hw_axes(self, inputs.shape.rank)
        inputs = math_ops.cast(inputs, self.dtype)
        return _when_training(training, lambda: self._flipped(inputs, h_axis, w_axis), inputs)

    def compute_output_shape(self, input_shape):
        return input_shape
