"""The 1-D and 2-D pooling layers (pooling3d.py has the 3-D and adaptive ones).

    MaxPooling2D(pool_size=(2, 2), strides=None, padding="valid")
        the maximum of each pool_size window
    AveragePooling2D(pool_size, strides=None, padding="valid")
    AveragePooling1D(pool_size) / MaxPooling1D(pool_size=2)    (batch, steps, channels)
    GlobalAveragePooling1D/2D(keepdims=False)   the mean over the steps / height and width
    GlobalMaxPooling1D/2D(keepdims=False)       the maximum over them

strides default to pool_size; `data_format="channels_first"` takes the
channels before the spatial axes. GlobalAveragePooling1D takes `mask=`
(the mean over the unmasked steps, as Keras).
"""

from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.utils.argument_validation import _data_format, _padding, _pair
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, conv_ops, math_ops, reduction_ops
from runtime._src.keras.layers.layer import Layer

__all__ = ["AveragePooling1D", "AveragePooling2D", "GlobalAveragePooling1D",
           "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D",
           "MaxPooling1D", "MaxPooling2D"]


def _single(value, name):
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            raise ValueError(f"The `{name}` argument must be a tuple of 1 integers. "
                             f"Received {name}={value}")
        value = value[0]
    return _pair(value, name)[:1]


class _Pooling(ConfigurableLayer):
    _rank = 2
    _config_keys = ("pool_size", "strides", "padding", "data_format")

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        norm = _pair if self._rank == 2 else _single
        self.pool_size = norm(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else norm(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def call(self, inputs):
        first = self.data_format == "channels_first"
        if self._rank == 2:
            return self._pool2d(inputs, ksize=self.pool_size, strides=self.strides,
                                padding=self.padding.upper(),
                                data_format="NCHW" if first else "NHWC")
        return self._pool1d(inputs, ksize=self.pool_size, strides=self.strides,
                            padding=self.padding.upper(), data_format="NCW" if first else "NWC")


class AveragePooling2D(_Pooling):
    """`keras.layers.AveragePooling2D(pool_size, strides=None, padding="valid")`."""

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)

    _pool2d = staticmethod(conv_ops.avg_pool2d)


class AveragePooling1D(_Pooling):
    """`keras.layers.AveragePooling1D(pool_size, strides=None, padding="valid")`."""

    _rank = 1

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)

    _pool1d = staticmethod(conv_ops.avg_pool1d)


class MaxPooling1D(_Pooling):
    """`keras.layers.MaxPooling1D(pool_size=2, strides=None, padding="valid")`."""

    _rank = 1
    _pool1d = staticmethod(conv_ops.max_pool1d)


class _GlobalPooling(ConfigurableLayer):
    _rank = 2
    _reduce = None
    _config_keys = ("data_format", "keepdims")

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _axes(self):
        if self.data_format == "channels_last":
            return list(range(1, self._rank + 1))
        return list(range(2, self._rank + 2))

    def call(self, inputs):
        return type(self)._reduce(inputs, axis=self._axes(), keepdims=self.keepdims)


class GlobalAveragePooling2D(_GlobalPooling):
    """`keras.layers.GlobalAveragePooling2D(data_format=None, keepdims=False)`."""

    _reduce = staticmethod(reduction_ops.reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling):
    """`keras.layers.GlobalMaxPooling2D(data_format=None, keepdims=False)`."""

    _reduce = staticmethod(reduction_ops.reduce_max)


class GlobalMaxPooling1D(_GlobalPooling):
    """`keras.layers.GlobalMaxPooling1D(data_format=None, keepdims=False)`."""

    _rank = 1
    _reduce = staticmethod(reduction_ops.reduce_max)


class GlobalAveragePooling1D(_GlobalPooling):
    """`keras.layers.GlobalAveragePooling1D(data_format=None, keepdims=False)`;
    with `mask` the mean over the unmasked steps."""

    _rank = 1
    _reduce = staticmethod(reduction_ops.reduce_mean)

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        steps = 1 if self.data_format == "channels_last" else 2
        weights = array_ops.expand_dims(math_ops.cast(mask, inputs.dtype),
                                        2 if steps == 1 else 1)
        total = reduction_ops.reduce_sum(math_ops.multiply(inputs, weights), axis=steps,
                                         keepdims=self.keepdims)
        count = reduction_ops.reduce_sum(weights, axis=steps, keepdims=self.keepdims)
        return math_ops.divide(total, count)

    def compute_mask(self, inputs, mask=None):
        return None


class MaxPooling2D(Layer):
    """`tf.keras.layers.MaxPooling2D(pool_size=(2, 2), strides=None, padding="valid",
    data_format=None)`."""

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def get_config(self):
        return {**super().get_config(), "pool_size": self.pool_size, "padding": self.padding,
                "strides": self.strides, "data_format": self.data_format}

    def call(self, inputs):
        fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
        return conv_ops.max_pool2d(inputs, ksize=self.pool_size, strides=self.strides,
                                   padding=self.padding.upper(), data_format=fmt)
