"""`BaseConv`, the one base of the convolution layers (Keras 3's `BaseConv` and
`BaseConvTranspose` in one), parameterised by `_rank` (1, 2, 3) and `_transpose`:

    arguments     kernel_size, strides and dilation_rate as `_rank` ints, padding,
                  data_format, activation, use_bias, the initializers, and the
                  regularizers and constraints of each weight (`_weight_options`)
    weights       kernel kernel_size + (in, filters), or + (filters, in) with
                  `_transpose` (the kernel of the convolution whose gradient the
                  layer computes), and bias (filters,)
    output        bias added and activation applied after the convolution (`_finish`)

Conv1D/2D/3D, their transposes, and the depthwise and separable layers derive
from it and write `call` (and `build` where their weights differ).
"""

import numbers

from runtime._src.keras.activations import activations
from runtime._src.keras.constraints import constraints
from runtime._src.keras.initializers import initializers
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.ops.nn import from_channels_last
from runtime._src.keras.utils.argument_validation import _data_format, _padding, _pair, ntuple
from runtime._src.ops import array_ops, nn_ops

__all__ = ["BaseConv"]


_NORMS = {     # kernel_size, strides, dilation_rate as `_rank` positive ints
    1: lambda v, n: _pair(v[0] if isinstance(v, (list, tuple)) else v, n)[:1],
    2: _pair,
    3: lambda v, n: ntuple(v, 3, n),
}


def _positive(value, name):
    if not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"Invalid value for argument `{name}`. Expected a strictly positive "
                         f"value. Received {name}={value}.")
    return int(value)


def _weight_keys(*parts):
    """Keras's initializer, regularizer and constraint keys of the weights `parts`."""
    return tuple(f"{p}_initializer" for p in parts + ("bias",)) + \
        tuple(f"{p}_regularizer" for p in parts + ("bias",)) + ("activity_regularizer",) + \
        tuple(f"{p}_constraint" for p in parts + ("bias",))


_SHAPE = ("kernel_size", "strides", "padding", "data_format", "dilation_rate")
CONV_KEYS = ("filters",) + _SHAPE + ("groups", "activation", "use_bias") + \
    _weight_keys("kernel")
TRANSPOSE_KEYS = ("filters", "kernel_size", "strides", "padding", "output_padding",
                  "data_format", "dilation_rate", "activation", "use_bias") + \
    _weight_keys("kernel")
DEPTHWISE_KEYS = ("depth_multiplier",) + _SHAPE + ("activation", "use_bias") + \
    _weight_keys("depthwise")
SEPARABLE_KEYS = ("depth_multiplier", "filters") + _SHAPE + ("activation", "use_bias") + \
    _weight_keys("depthwise", "pointwise")


class BaseConv(ConfigurableLayer):
    """Arguments, weights, bias and activation of a convolution of rank `_rank`
    (transposed with `_transpose`)."""

    _rank = 2
    _transpose = False
    _config_keys = ("kernel_size", "strides", "padding", "data_format", "dilation_rate",
                    "activation", "use_bias", "kernel_initializer", "bias_initializer")
    _keras_keys = CONV_KEYS

    def __init__(self, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", **kwargs):
        self._weight_options = {      # passed to add_weight
            part: {what: kwargs.pop(f"{part}_{what}", None)
                   for what in ("regularizer", "constraint")}
            for part in ("kernel", "bias", "depthwise", "pointwise")}
        super().__init__(**kwargs)
        norm = _NORMS[self._rank]
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

    @property
    def kernel(self):
        """The kernel variable (with LoRA, core/lora.py: kernel + (alpha / rank) * a @ b)."""
        if getattr(self, "lora_enabled", False):
            return self._lora_merged(self._kernel)
        return self._kernel

    @kernel.setter
    def kernel(self, value):
        self._kernel = value

    def _channels(self, input_shape):
        axis = -1 if self.data_format == "channels_last" else 1
        channels = input_shape[axis]
        if channels is None:
            raise ValueError(f'Layer "{self.name}": the channel dimension of its input must '
                             f"be known to build the kernel; got input shape {input_shape}")
        return channels

    def _kernel_shape(self, channels):
        return self.kernel_size + ((self.filters, channels) if self._transpose
                                   else (channels, self.filters))

    def build(self, input_shape):
        channels = self._channels(input_shape)
        groups = getattr(self, "groups", 1)
        if channels % groups:
            raise ValueError("The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={groups}, but the input has "
                             f"{channels} channels (full input shape is "
                             f"{tuple(input_shape)}).")
        self.kernel = self.add_weight(
            shape=self._kernel_shape(channels // groups),
            initializer=self.kernel_initializer, name="kernel",
            **self._weight_options["kernel"])
        self._add_bias(self.filters)
        self.built = True
        self._build_lora()

    def _build_lora(self):
        """Conv1D/2D/3D enable LoRA here (core/lora.py); the others have none."""

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

    def get_config(self):
        """Keras 3.15's config of the layer: `_keras_keys` in its order, the
        initializers, regularizers and constraints serialized."""
        config = self._base_config()
        config.pop("activity_regularizer", None)
        config.update({key: self._config_value(key) for key in self._keras_keys})
        return config

    def _config_value(self, key):
        ser = serialization.serialize_keras_object
        if key == "activation":
            return activations.serialize(activations.get(self.activation))
        if key == "activity_regularizer":
            return ser(self.activity_regularizer)
        part, _, what = key.partition("_")
        if what == "initializer":
            value = getattr(self, key, None)
            if value is None and part == "depthwise":       # DepthwiseConv keeps it as kernel's
                value = self.kernel_initializer
            return ser(initializers.get(value))
        if what in ("regularizer", "constraint"):
            value = self._weight_options[part][what]
            get = regularizers.get if what == "regularizer" else constraints.get
            return ser(get(value))
        return getattr(self, key, 1 if key == "groups" else None)


def checked_output_padding(value, strides):
    """A transposed convolution's `output_padding` as Keras keeps it: None, or a
    tuple of one int per dimension, each strictly below its stride."""
    if value is None:
        return None
    value = (value,) * len(strides) if isinstance(value, int) else tuple(value)
    if len(value) != len(strides):
        raise ValueError(f"The `output_padding` argument must be a tuple of {len(strides)} "
                         f"integers. Received output_padding={value}")
    for i, (p, s) in enumerate(zip(value, strides)):
        if p >= s:
            raise ValueError(f"`output_padding` must be strictly less than `strides` for all "
                             f"dimensions. At dimension {i}, `output_padding` is {p} but "
                             f"`strides` is {s}. Received: output_padding={value}, "
                             f"strides={tuple(strides)}")
    return value


def transposed_length(length, kernel, stride, padding, output_padding, axis):
    """The output length of a transposed convolution along `axis`, as Keras's
    `deconv_output_length` (without `output_padding`: the input's times the stride)."""
    if output_padding is None:
        return length * stride if padding == "same" else length * stride + max(kernel - stride, 0)
    pad = kernel // 2 if padding == "same" else 0
    return (length - 1) * stride + kernel - 2 * pad + output_padding[axis]


def check_transpose_dilation(strides, dilation_rate):
    """Keras's rule for a transposed convolution: no dilation with strides."""
    if max(strides) > 1 and max(dilation_rate) > 1:
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={tuple(strides)} and "
                         f"dilation_rate={tuple(dilation_rate)}")


def dilated_kernel(kernel, dilation_rate):
    """`kernel` (spatial axes first) with `rate - 1` zeros between neighbouring
    taps along each spatial axis: a dilated convolution's kernel as a plain one."""
    for axis, rate in enumerate(dilation_rate):
        if rate == 1:
            continue
        dims = kernel.shape.as_list()
        spread = array_ops.stack([kernel] + [array_ops.zeros_like(kernel)] * (rate - 1),
                                 axis + 1)
        kernel = array_ops.reshape(spread, dims[:axis] + [dims[axis] * rate] + dims[axis + 1:])
        keep = (dims[axis] - 1) * rate + 1
        kernel = kernel[(slice(None),) * axis + (slice(0, keep),)]
    return kernel


def transpose_kernel(layer):
    """A transposed layer's kernel with its dilation applied, and its spatial sizes."""
    sizes = tuple((k - 1) * d + 1 for k, d in zip(layer.kernel_size, layer.dilation_rate))
    return dilated_kernel(layer.kernel.read_value(), layer.dilation_rate), sizes


def finish_channels_last(layer, outputs):
    """Bias and activation on channels_last `outputs`, then back to the layer's
    data_format."""
    if layer.use_bias:
        outputs = nn_ops.bias_add(outputs, layer.bias, data_format="NHWC")
    return from_channels_last(layer._activation_fn(outputs), layer.data_format)


def checked_groups(groups, filters):
    """Keras's `groups`: a positive int dividing `filters`."""
    groups = _positive(groups, "groups")
    if filters % groups:
        raise ValueError("The number of filters must be evenly divisible by the number of "
                         f"groups. Received: groups={groups}, filters={filters}.")
    return groups
