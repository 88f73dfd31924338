"""`keras.layers.Conv2DTranspose(filters, kernel_size, strides=(1, 1))`: kernel
(kh, kw, filters, in), the gradient of a Conv2D with that kernel, so each input
pixel spreads over a kh x kw window of the (larger) output. A channels_first
input is transposed to channels_last and back; a dilated kernel is spelled out
with zeros between its taps."""

from runtime._src.graph.op_registry import apply
from runtime._src.ops import array_ops
from runtime._src.keras.layers.convolutional.base_conv import (
    TRANSPOSE_KEYS, BaseConv, _positive, check_transpose_dilation, checked_output_padding,
    finish_channels_last, transpose_kernel, transposed_length)
from runtime._src.keras.ops.nn import to_channels_last

__all__ = ["Conv2DTranspose"]


class Conv2DTranspose(BaseConv):
    """`keras.layers.Conv2DTranspose(filters, kernel_size, strides=(1, 1),
    padding="valid", output_padding=None, data_format=None, dilation_rate=(1, 1),
    activation=None, use_bias=True)`."""

    _transpose = True
    _keras_keys = TRANSPOSE_KEYS

    def __init__(self, filters, kernel_size, output_padding=None, **kwargs):
        self.filters = _positive(filters, "filters")
        super().__init__(kernel_size, **kwargs)
        self.output_padding = checked_output_padding(output_padding, self.strides)
        check_transpose_dilation(self.strides, self.dilation_rate)

    def call(self, inputs):
        inputs = to_channels_last(inputs, self.data_format)
        shape = array_ops.shape(inputs)
        (sh, sw) = self.strides
        kernel, sizes = transpose_kernel(self)
        h, w = (transposed_length(shape[i + 1], k, s, self.padding, self.output_padding, i)
                for i, (k, s) in enumerate(zip(sizes, self.strides)))
        like = array_ops.zeros(array_ops.stack([shape[0], h, w,
                                                array_ops.constant(self.filters)]),
                               inputs.dtype)
        attrs = {"strides": (sh, sw), "padding": self.padding.upper(),
                 "explicit_paddings": ((0, 0), (0, 0)), "dilations": (1, 1)}
        out = apply("Conv2DBackpropInput", (inputs, like, kernel), attrs)
        return finish_channels_last(self, out)
