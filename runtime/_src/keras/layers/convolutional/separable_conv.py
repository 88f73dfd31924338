"""Separable convolutions: a depthwise convolution, then a pointwise one.

    SeparableConv2D(filters, kernel_size, depth_multiplier=1)
        a DepthwiseConv2D, then a 1x1 Conv2D (pointwise kernel (1, 1, in * m, filters))
    SeparableConv1D(filters, kernel_size, depth_multiplier=1)
        a DepthwiseConv1D, then a pointwise (1, in * m, filters) kernel"""

from runtime._src.ops import conv_ops
from runtime._src.keras.layers.convolutional.base_conv import BaseConv, SEPARABLE_KEYS, _positive
from runtime._src.keras.layers.convolutional.depthwise_conv import _depthwise
from runtime._src.keras.utils.argument_validation import ntuple
from runtime._src.keras.layers.convolutional.depthwise_conv import _depthwise1d

__all__ = ["SeparableConv2D", "SeparableConv1D"]


class SeparableConv2D(BaseConv):
    """`keras.layers.SeparableConv2D(filters, kernel_size, strides=(1, 1),
    padding="valid", depth_multiplier=1, activation=None, use_bias=True)`."""

    _keras_keys = SEPARABLE_KEYS

    def __init__(self, filters, kernel_size, depth_multiplier=1,
                 depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", **kwargs):
        self.filters = _positive(filters, "filters")
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        super().__init__(kernel_size, **kwargs)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, name="depthwise_kernel",
            **self._weight_options["depthwise"])
        self.pointwise_kernel = self.add_weight(
            shape=(1, 1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, name="pointwise_kernel",
            **self._weight_options["pointwise"])
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs):
        out = _depthwise(self, inputs, self.depthwise_kernel)
        out = conv_ops.conv2d(out, self.pointwise_kernel, strides=(1, 1), padding="VALID",
                              data_format=self._fmt())
        return self._finish(out)


class SeparableConv1D(BaseConv):
    """`keras.layers.SeparableConv1D(filters, kernel_size, strides=1, padding="valid",
    depth_multiplier=1, activation=None, use_bias=True)`."""

    _rank = 1
    _keras_keys = SEPARABLE_KEYS

    def __init__(self, filters, kernel_size, depth_multiplier=1,
                 depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", **kwargs):
        self.filters = _positive(filters, "filters")
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        super().__init__(ntuple(kernel_size, 1, "kernel_size"), **kwargs)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, name="depthwise_kernel",
            **self._weight_options["depthwise"])
        self.pointwise_kernel = self.add_weight(
            shape=(1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, name="pointwise_kernel",
            **self._weight_options["pointwise"])
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs):
        out = _depthwise1d(self, inputs, self.depthwise_kernel)
        fmt = "NWC" if self.data_format == "channels_last" else "NCW"
        out = conv_ops.conv1d(out, self.pointwise_kernel, stride=1, padding="VALID",
                              data_format=fmt)
        return self._finish(out)
