"""Depthwise convolutions: each channel convolved on its own.

    DepthwiseConv2D(kernel_size, depth_multiplier=1)
        kernel (kh, kw, in, multiplier); output channel c * multiplier + m
        (a Conv2D with groups = in)
    DepthwiseConv1D(kernel_size, depth_multiplier=1)
        kernel (k, in, multiplier)"""

from runtime._src.ops import array_ops, conv_ops
from runtime._src.keras.layers.convolutional.base_conv import BaseConv, DEPTHWISE_KEYS, _positive
from runtime._src.keras.utils.argument_validation import ntuple

__all__ = ["DepthwiseWeights", "DepthwiseConv2D", "DepthwiseConv1D"]


class DepthwiseWeights:
    """The weights of a depthwise convolution (1-D or 2-D): a kernel of
    kernel_size + (channels, depth_multiplier) and a bias per output channel."""

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.kernel_initializer, name="kernel",
            **self._weight_options["depthwise"])
        self._add_bias(channels * self.depth_multiplier)
        self.built = True


class DepthwiseConv2D(DepthwiseWeights, BaseConv):
    """`keras.layers.DepthwiseConv2D(kernel_size, strides=(1, 1), padding="valid",
    depth_multiplier=1, activation=None, use_bias=True)`."""

    _keras_keys = DEPTHWISE_KEYS

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
                 depthwise_initializer="glorot_uniform", **kwargs):
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        kwargs.setdefault("kernel_initializer", depthwise_initializer)
        super().__init__(kernel_size, strides=strides, padding=padding, **kwargs)

    def call(self, inputs):
        return self._finish(_depthwise(self, inputs, self.kernel))


def _depthwise(layer, inputs, kernel):
    """A depthwise convolution as a Conv2D with one group per input channel."""
    kh, kw, channels, mult = kernel.shape.dims
    grouped = array_ops.reshape(kernel, [kh, kw, 1, channels * mult])
    return conv_ops.conv2d(inputs, grouped, strides=layer.strides,
                           padding=layer.padding.upper(), data_format=layer._fmt(),
                           dilations=layer.dilation_rate)


class DepthwiseConv1D(DepthwiseWeights, BaseConv):
    """`keras.layers.DepthwiseConv1D(kernel_size, strides=1, padding="valid",
    depth_multiplier=1, dilation_rate=1, activation=None, use_bias=True)`."""

    _rank = 1
    _keras_keys = DEPTHWISE_KEYS

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 depthwise_initializer="glorot_uniform", **kwargs):
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        kwargs.setdefault("kernel_initializer", depthwise_initializer)
        super().__init__(ntuple(kernel_size, 1, "kernel_size"), strides=strides,
                         padding=padding, **kwargs)

    def call(self, inputs):
        return self._finish(_depthwise1d(self, inputs, self.kernel))


def _depthwise1d(layer, inputs, kernel):
    """A 1-D depthwise convolution: a Conv1D with one group per input channel."""
    k, channels, mult = kernel.shape.as_list()
    grouped = array_ops.reshape(kernel, [k, 1, channels * mult])
    fmt = "NWC" if layer.data_format == "channels_last" else "NCW"
    return conv_ops.conv1d(inputs, grouped, stride=layer.strides[0],
                           padding=layer.padding.upper(), data_format=fmt,
                           dilations=layer.dilation_rate[0])
