"""`keras.layers.Conv2DTranspose(filters, kernel_size, strides=(1, 1))`: kernel
(kh, kw, filters, in), the gradient of a Conv2D with that kernel, so each input
pixel spreads over a kh x kw window of the (larger) output."""

from runtime._src.graph.op_registry import apply
from runtime._src.ops import array_ops
from runtime._src.keras.layers.convolutional.base_conv import (BaseConv, _positive,
                                                               checked_output_padding,
                                                               transposed_length)

__all__ = ["Conv2DTranspose"]


class Conv2DTranspose(BaseConv):
    """`keras.layers.Conv2DTranspose(filters, kernel_size, strides=(1, 1),
    padding="valid", output_padding=None, activation=None, use_bias=True)`."""

    _transpose = True
    _config_keys = ("filters",) + BaseConv._config_keys + ("output_padding",)

    def __init__(self, filters, kernel_size, output_padding=None, **kwargs):
        self.filters = _positive(filters, "filters")
        super().__init__(kernel_size, **kwargs)
        self.output_padding = checked_output_padding(output_padding, self.strides)
        if self.data_format != "channels_last" or self.dilation_rate != (1, 1):
            raise NotImplementedError("Conv2DTranspose: only channels_last inputs and "
                                      "dilation_rate=(1, 1) are supported")


    def call(self, inputs):
        shape = array_ops.shape(inputs)
        (sh, sw) = self.strides
        h, w = (transposed_length(shape[i + 1], k, s, self.padding, self.output_padding, i)
                for i, (k, s) in enumerate(zip(self.kernel_size, self.strides)))
        like = array_ops.zeros(array_ops.stack([shape[0], h, w,
                                                array_ops.constant(self.filters)]),
                               inputs.dtype)
        attrs = {"strides": (sh, sw), "padding": self.padding.upper(),
                 "explicit_paddings": ((0, 0), (0, 0)), "dilations": (1, 1)}
        out = apply("Conv2DBackpropInput", (inputs, like, self.kernel.read_value()), attrs)
        return self._finish(out)
