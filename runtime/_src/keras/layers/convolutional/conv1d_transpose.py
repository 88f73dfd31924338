"""`keras.layers.Conv1DTranspose(filters, kernel_size, strides=1, padding="valid",
data_format=None, dilation_rate=1)`: the gradient of a 1-D convolution with
respect to its input.

    (batch, width, channels) -> (batch, width * strides, filters) with "same",
    (batch, width * strides + max(kernel_size - strides, 0), filters) with "valid"

The kernel is (kernel_size, filters, channels), as Keras's. The work is
TensorFlow's Conv2DBackpropInput on a height-1 channels_last image (a
channels_first input is transposed to it and back), with a dilated kernel
spelled out with zeros between its taps (its size (kernel_size - 1) * rate + 1).
"""

from runtime._src.graph.op_registry import apply
from runtime._src.keras.layers.convolutional.conv1d import Conv1D
from runtime._src.keras.layers.core.lora import NoLora
from runtime._src.keras.layers.convolutional.base_conv import (
    TRANSPOSE_KEYS, BaseConv, _positive, check_transpose_dilation, checked_output_padding,
    finish_channels_last, transpose_kernel, transposed_length)
from runtime._src.keras.ops.nn import to_channels_last
from runtime._src.ops import array_ops

__all__ = ["Conv1DTranspose"]


class Conv1DTranspose(Conv1D):
    """See the module docstring."""

    _transpose = True
    enable_lora = NoLora()      # as Keras's, no LoRA (nor a `lora_rank` argument)
    _keras_keys = TRANSPOSE_KEYS

    def __init__(self, filters, kernel_size, output_padding=None, **kwargs):
        super().__init__(_positive(filters, "filters"), kernel_size, **kwargs)
        self.output_padding = checked_output_padding(output_padding, self.strides)
        if self.padding == "causal":
            raise ValueError("Conv1DTranspose: padding must be 'valid' or 'same'; "
                             "received padding='causal'")
        check_transpose_dilation(self.strides, self.dilation_rate)

    def call(self, inputs):
        inputs = to_channels_last(inputs, self.data_format)
        shape = array_ops.shape(inputs)
        kernel, (k,) = transpose_kernel(self)
        s = self.strides[0]
        width = transposed_length(shape[1], k, s, self.padding, self.output_padding, 0)
        like = array_ops.zeros(array_ops.stack([shape[0], 1, width,
                                                array_ops.constant(self.filters)]), inputs.dtype)
        attrs = {"strides": (1, s), "padding": self.padding.upper(),
                 "explicit_paddings": ((0, 0), (0, 0)), "dilations": (1, 1)}
        out = apply("Conv2DBackpropInput", (array_ops.expand_dims(inputs, 1), like,
                                            array_ops.expand_dims(kernel, 0)), attrs)
        return finish_channels_last(self, array_ops.squeeze(out, [1]))
