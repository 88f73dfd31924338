"""3-D and adaptive pooling layers (the 1-D and 2-D ones are in layers/pooling/pooling.py).

    MaxPooling3D(pool_size=(2, 2, 2), strides=None, padding="valid")
    AveragePooling3D(pool_size, strides=None, padding="valid")
        on (batch, depth, height, width, channels); "same" averages count the
        window's cells inside the input only, as TensorFlow's
    GlobalMaxPooling3D / GlobalAveragePooling3D(data_format=None, keepdims=False)
    AdaptiveMaxPooling1D/2D/3D, AdaptiveAveragePooling1D/2D/3D(output_size)
        output_size windows per spatial axis; window i spans
        [floor(i * n / out), ceil((i + 1) * n / out)) (keras.ops.adaptive_*_pool)

A 3-D pooling is a 2-D pooling of every depth slice, then the pooling of the
depth axis (max and mean over a box are done axis by axis).
"""

import numpy as np

from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.layers.convolutional.conv3d import from_last, same_pads, to_last
from runtime._src.keras.utils.argument_validation import ntuple
from runtime._src.keras.utils.argument_validation import _data_format, _padding
from runtime._src.keras.ops import nn as keras_nn
from runtime._src.keras.ops.tfops import tf
from runtime._src.keras.layers.pooling.pooling import _GlobalPooling

__all__ = ["MaxPooling3D", "AveragePooling3D", "GlobalMaxPooling3D", "GlobalAveragePooling3D",
           "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D",
           "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D"]


def _depth_pool(x, size, stride, padding, is_max):
    """Pool axis 1 of x (b, d, h, w, c)."""
    depth = x.shape.as_list()[1]
    before = after = 0
    if padding == "same":
        before, after, out = same_pads(depth, size, stride)
    else:
        out = (depth - size) // stride + 1
    if out <= 0:
        raise ValueError(f"The depth {depth} is smaller than the pool size {size} "
                         "with padding='valid'")
    fill = x.dtype.min if is_max else 0
    x = tf.pad(x, [[0, 0], [before, after], [0, 0], [0, 0], [0, 0]],
               constant_values=fill)
    span = (out - 1) * stride + 1
    taps = [x[:, i:i + span:stride] for i in range(size)]
    if is_max:
        result = taps[0]
        for t in taps[1:]:
            result = tf.maximum(result, t)
        return result
    starts = np.arange(out) * stride - before
    counts = np.minimum(starts + size, depth) - np.maximum(starts, 0)
    counts = tf.constant(counts.reshape(1, out, 1, 1, 1).astype(x.dtype.as_numpy_dtype))
    return tf.add_n(taps) / counts


class _Pooling3D(ConfigurableLayer):
    _config_keys = ("pool_size", "padding", "strides", "data_format")
    _is_max = True

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = ntuple(pool_size, 3, "pool_size")
        self.strides = self.pool_size if strides is None else ntuple(strides, 3, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        x = to_last(inputs, self.data_format)
        b, d, h, w, c = x.shape.as_list()
        pool2d = tf.max_pool2d if self._is_max else tf.avg_pool2d
        y = pool2d(tf.reshape(x, [-1, h, w, c]), ksize=list(self.pool_size[1:]),
                   strides=list(self.strides[1:]), padding=self.padding.upper())
        h2, w2 = y.shape.as_list()[1:3]
        y = tf.reshape(y, [-1, d, h2, w2, c])
        y = _depth_pool(y, self.pool_size[0], self.strides[0], self.padding, self._is_max)
        return from_last(y, self.data_format)


class MaxPooling3D(_Pooling3D):
    """`keras.layers.MaxPooling3D(pool_size=(2, 2, 2), strides=None, padding="valid",
    data_format=None)`."""


class AveragePooling3D(_Pooling3D):
    """`keras.layers.AveragePooling3D(pool_size, strides=None, padding="valid",
    data_format=None)`."""

    _is_max = False

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class GlobalMaxPooling3D(_GlobalPooling):
    """`keras.layers.GlobalMaxPooling3D(data_format=None, keepdims=False)`."""

    _rank = 3
    _reduce = staticmethod(tf.reduce_max)


class GlobalAveragePooling3D(_GlobalPooling):
    """`keras.layers.GlobalAveragePooling3D(data_format=None, keepdims=False)`."""

    _rank = 3
    _reduce = staticmethod(tf.reduce_mean)


class _Adaptive(ConfigurableLayer):
    _rank = 1
    _config_keys = ("output_size", "data_format")
    _op = None

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = ntuple(output_size, self._rank, "output_size")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def call(self, inputs):
        return type(self)._op(inputs, self.output_size, data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        first = 2 if self.data_format == "channels_first" else 1
        shape[first:first + self._rank] = self.output_size
        return tuple(shape)


def _adaptive_class(name, rank, op):
    kind = "maximum" if "Max" in name else "mean"
    doc = (f"`keras.layers.{name}(output_size, data_format=None)`: the {kind} of "
           f"output_size windows per spatial axis of a rank-{rank + 2} input.")
    return type(name, (_Adaptive,), {"_rank": rank, "_op": staticmethod(op), "__doc__": doc,
                                     "__module__": __name__})


AdaptiveMaxPooling1D = _adaptive_class("AdaptiveMaxPooling1D", 1, keras_nn.adaptive_max_pool)
AdaptiveMaxPooling2D = _adaptive_class("AdaptiveMaxPooling2D", 2, keras_nn.adaptive_max_pool)
AdaptiveMaxPooling3D = _adaptive_class("AdaptiveMaxPooling3D", 3, keras_nn.adaptive_max_pool)
AdaptiveAveragePooling1D = _adaptive_class("AdaptiveAveragePooling1D", 1,
                                           keras_nn.adaptive_average_pool)
AdaptiveAveragePooling2D = _adaptive_class("AdaptiveAveragePooling2D", 2,
                                           keras_nn.adaptive_average_pool)
AdaptiveAveragePooling3D = _adaptive_class("AdaptiveAveragePooling3D", 3,
                                           keras_nn.adaptive_average_pool)
