"""More convolution layers: `Conv1D`, `Conv2DTranspose`, `DepthwiseConv2D`,
`SeparableConv2D` (channels last by default, as Conv2D in layers/convolutional/conv2d.py).

    Conv1D(filters, kernel_size)         kernel (k, in, filters), on (batch, steps, in)
    Conv2DTranspose(filters, kernel_size, strides=(1, 1))
        kernel (kh, kw, filters, in): the gradient of a Conv2D with that kernel, so
        each input pixel spreads over a kh x kw window of the (larger) output
    DepthwiseConv2D(kernel_size, depth_multiplier=1)
        kernel (kh, kw, in, multiplier): each channel convolved on its own;
        output channel c * multiplier + m (a Conv2D with groups = in)
    SeparableConv2D(filters, kernel_size, depth_multiplier=1)
        a DepthwiseConv2D, then a 1x1 Conv2D (pointwise kernel (1, 1, in * m, filters))

Each adds `bias` (filters,) and applies `activation` after the convolution.
"""

import numbers

from runtime._src.graph.op_registry import apply
from runtime._src.keras.activations import activations
from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.layers.convolutional.conv2d import _data_format, _padding, _pair
from runtime._src.keras.layers.configurable import ConfigurableLayer
from runtime._src.ops import array_ops, conv_ops, nn_ops, shape_ops

__all__ = ["Conv1D", "Conv2DTranspose", "DepthwiseConv2D", "SeparableConv2D"]


def _positive(value, name):
    if not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"Invalid value for argument `{name}`. Expected a strictly positive "
                         f"value. Received {name}={value}.")
    return int(value)


class _Conv(ConfigurableLayer):
    """Arguments and bias shared by the layers here."""

    _rank = 2
    _config_keys = ("kernel_size", "strides", "padding", "data_format", "dilation_rate",
                    "activation", "use_bias", "kernel_initializer", "bias_initializer")

    def __init__(self, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", **kwargs):
        self._weight_options = {      # passed to add_weight
            part: {what: kwargs.pop(f"{part}_{what}", None)
                   for what in ("regularizer", "constraint")}
            for part in ("kernel", "bias", "depthwise", "pointwise")}
        super().__init__(**kwargs)
        norm = _pair if self._rank == 2 else (lambda v, n: _pair(
            v[0] if isinstance(v, (list, tuple)) else v, n)[:1])
        self.kernel_size = norm(kernel_size, "kernel_size")
        self.strides = norm(strides, "strides")
        self.dilation_rate = norm(dilation_rate, "dilation_rate")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.activation = activation
        self._activation_fn = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _channels(self, input_shape):
        axis = -1 if self.data_format == "channels_last" else 1
        channels = input_shape[axis]
        if channels is None:
            raise ValueError(f'Layer "{self.name}": the channel dimension of its input must '
                             f"be known to build the kernel; got input shape {input_shape}")
        return channels

    def _add_bias(self, n):
        self.bias = self.add_weight(shape=(n,), initializer=self.bias_initializer,
                                    name="bias", **self._weight_options["bias"]) \
            if self.use_bias else None

    def _finish(self, outputs):
        if self.use_bias:
            fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
            if self._rank == 1:
                fmt = "NWC" if fmt == "NHWC" else "NCW"
            outputs = nn_ops.bias_add(outputs, self.bias,
                                      data_format="NHWC" if fmt in ("NHWC", "NWC")
                                      else "NCHW")
        return self._activation_fn(outputs)

    def _fmt(self):
        return "NHWC" if self.data_format == "channels_last" else "NCHW"


class Conv1D(_Conv):
    """`keras.layers.Conv1D(filters, kernel_size, strides=1, padding="valid",
    dilation_rate=1, activation=None, use_bias=True)`; padding "valid", "same" or
    "causal" (zeros before the first step only)."""

    _rank = 1
    _config_keys = ("filters",) + _Conv._config_keys

    def __init__(self, filters, kernel_size, padding="valid", **kwargs):
        self.filters = _positive(filters, "filters")
        causal = str(padding).lower() == "causal"
        super().__init__(kernel_size, padding="valid" if causal else padding, **kwargs)
        if causal:
            self.padding = "causal"

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=self.kernel_size + (self._channels(input_shape), self.filters),
            initializer=self.kernel_initializer, name="kernel",
            **self._weight_options["kernel"])
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs):
        fmt = "NWC" if self.data_format == "channels_last" else "NCW"
        padding = self.padding
        if padding == "causal":     # left zeros, so step t sees steps <= t only
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            pads = [[0, 0], [left, 0], [0, 0]] if fmt == "NWC" else [[0, 0], [0, 0], [left, 0]]
            inputs, padding = shape_ops.pad(inputs, pads), "valid"
        out = conv_ops.conv1d(inputs, self.kernel, stride=self.strides[0],
                              padding=padding.upper(), data_format=fmt,
                              dilations=self.dilation_rate[0])
        return self._finish(out)


class Conv2DTranspose(_Conv):
    """`keras.layers.Conv2DTranspose(filters, kernel_size, strides=(1, 1),
    padding="valid", activation=None, use_bias=True)` (no output_padding)."""

    _config_keys = ("filters",) + _Conv._config_keys

    def __init__(self, filters, kernel_size, output_padding=None, **kwargs):
        self.filters = _positive(filters, "filters")
        if output_padding is not None:
            raise NotImplementedError("Conv2DTranspose: output_padding is not supported")
        super().__init__(kernel_size, **kwargs)
        if self.data_format != "channels_last" or self.dilation_rate != (1, 1):
            raise NotImplementedError("Conv2DTranspose: only channels_last inputs and "
                                      "dilation_rate=(1, 1) are supported")

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, self._channels(input_shape)),
            initializer=self.kernel_initializer, name="kernel",
            **self._weight_options["kernel"])
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs):
        shape = array_ops.shape(inputs)
        (kh, kw), (sh, sw) = self.kernel_size, self.strides
        if self.padding == "same":
            h, w = shape[1] * sh, shape[2] * sw
        else:
            h, w = shape[1] * sh + max(kh - sh, 0), shape[2] * sw + max(kw - sw, 0)
        like = array_ops.zeros(array_ops.stack([shape[0], h, w,
                                                array_ops.constant(self.filters)]),
                               inputs.dtype)
        attrs = {"strides": (sh, sw), "padding": self.padding.upper(),
                 "explicit_paddings": ((0, 0), (0, 0)), "dilations": (1, 1)}
        out = apply("Conv2DBackpropInput", (inputs, like, self.kernel.read_value()), attrs)
        return self._finish(out)


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


class DepthwiseConv2D(DepthwiseWeights, _Conv):
    """`keras.layers.DepthwiseConv2D(kernel_size, strides=(1, 1), padding="valid",
    depth_multiplier=1, activation=None, use_bias=True)`."""

    _config_keys = ("depth_multiplier",) + _Conv._config_keys

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


class SeparableConv2D(_Conv):
    """`keras.layers.SeparableConv2D(filters, kernel_size, strides=(1, 1),
    padding="valid", depth_multiplier=1, activation=None, use_bias=True)`."""

    _config_keys = ("filters", "depth_multiplier") + _Conv._config_keys

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
