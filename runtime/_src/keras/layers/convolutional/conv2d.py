"""`keras.layers.Conv2D(filters, kernel_size, strides=(1, 1), padding="valid",
activation=None)` over (batch, height, width, channels):
y = activation(bias_add(conv2d(x, kernel), bias)), kernel
(kh, kw, in_channels, filters) glorot-uniform, bias (filters,) zeros.

`data_format="channels_first"` takes (batch, channels, height, width)."""


from runtime._src.keras.layers.convolutional.base_conv import BaseConv, _positive
from runtime._src.keras.layers.core.lora import LoraMixin
from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.core.dense import (add_kernel_and_bias, init_kernel_and_bias,
                                                  kernel_and_bias_config)
from runtime._src.ops import conv_ops, nn_ops

__all__ = ["Conv2D"]


class Conv2D(LoraMixin, BaseConv):
    """`tf.keras.layers.Conv2D(filters, kernel_size, strides=(1, 1), padding="valid",
    data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True)`.

    Its config is Keras's full one (initializers, regularizers and constraints
    serialized, `groups`), written out in `get_config`."""

    _config_keys = ()

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1), groups=1, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        self._init_lora(kwargs)
        super().__init__(kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)
        self.filters = _positive(filters, "filters")
        self.groups = int(groups)
        init_kernel_and_bias(self, activation, use_bias, kernel_initializer, bias_initializer,
                             kernel_regularizer, bias_regularizer, kernel_constraint,
                             bias_constraint)
        self.input_spec = InputSpec(min_ndim=4)

    def get_config(self):
        config = {**super().get_config(), "filters": self.filters,
                  "kernel_size": self.kernel_size, "strides": self.strides,
                  "padding": self.padding, "data_format": self.data_format,
                  "dilation_rate": self.dilation_rate, "groups": self.groups,
                  **kernel_and_bias_config(self)}
        config["activity_regularizer"] = serialization.serialize_keras_object(
            self.activity_regularizer)
        return config

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape):
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError(f'Layer "{self.name}": the channel dimension of its input must '
                             f"be known to build the kernel; got input shape {input_shape}")
        if channels % self.groups or self.filters % self.groups:
            raise ValueError(f'Layer "{self.name}": groups={self.groups} must divide both '
                             f"the input channels ({channels}) and filters ({self.filters})")
        add_kernel_and_bias(self, self.kernel_size + (channels // self.groups, self.filters),
                            (self.filters,))
        self.input_spec = InputSpec(min_ndim=4, axes={self._channel_axis(): channels})
        self.built = True
        self._build_lora()

    def call(self, inputs):
        fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
        outputs = conv_ops.conv2d(inputs, self.kernel, strides=self.strides,
                                  padding=self.padding.upper(), data_format=fmt,
                                  dilations=self.dilation_rate)
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
        return self.activation(outputs)


