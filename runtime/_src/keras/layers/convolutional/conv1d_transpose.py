"""`keras.layers.Conv1DTranspose(filters, kernel_size, strides=1, padding="valid")`:
the gradient of a 1-D convolution with respect to its input (channels_last).

    (batch, width, channels) -> (batch, width * strides, filters) with "same",
    (batch, width * strides + max(kernel_size - strides, 0), filters) with "valid"

The kernel is (kernel_size, filters, channels), as Keras's. The work is
TensorFlow's Conv2DBackpropInput on a height-1 image.
"""

from runtime._src.graph.op_registry import apply
from runtime._src.keras.layers.convolutional.conv1d import Conv1D
from runtime._src.keras.layers.convolutional.base_conv import (_positive, checked_output_padding,
                                                               transposed_length)
from runtime._src.ops import array_ops

__all__ = ["Conv1DTranspose"]


class Conv1DTranspose(Conv1D):
    """See the module docstring (no dilation or channels_first)."""

    _transpose = True
    _config_keys = Conv1D._config_keys + ("output_padding",)

    def __init__(self, filters, kernel_size, output_padding=None, **kwargs):
        super().__init__(_positive(filters, "filters"), kernel_size, **kwargs)
        self.output_padding = checked_output_padding(output_padding, self.strides)
        if self.padding == "causal":
            raise ValueError("Conv1DTranspose: padding must be 'valid' or 'same'; "
                             "received padding='causal'")
        if self.data_format != "channels_last" or self.dilation_rate != (1,):
            raise NotImplementedError("Conv1DTranspose: only channels_last inputs and "
                                      "dilation_rate=1 are supported")


    def call(self, inputs):
        shape = array_ops.shape(inputs)
        k, s = self.kernel_size[0], self.strides[0]
        width = transposed_length(shape[1], k, s, self.padding, self.output_padding, 0)
        like = array_ops.zeros(array_ops.stack([shape[0], 1, width,
                                                array_ops.constant(self.filters)]), inputs.dtype)
        attrs = {"strides": (1, s), "padding": self.padding.upper(),
                 "explicit_paddings": ((0, 0), (0, 0)), "dilations": (1, 1)}
        kernel = array_ops.expand_dims(self.kernel.read_value(), 0)
        out = apply("Conv2DBackpropInput", (array_ops.expand_dims(inputs, 1), like, kernel),
                    attrs)
        return self._finish(array_ops.squeeze(out, [1]))
