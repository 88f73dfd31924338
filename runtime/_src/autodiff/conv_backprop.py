"""The explicit backprop ops of the convolutions: `tf.conv2d_backprop_filter_v2`,
`tf.conv2d_backprop_input_v2`, `tf.nn.depthwise_conv2d_backprop_filter` and
`tf.nn.depthwise_conv2d_backprop_input`.

    tf.conv2d_backprop_filter_v2(x, w, dy, strides=1, padding="SAME")
        # d(sum(conv2d(x, w) * dy)) / dw, shaped as w

Each is the gradient of the forward convolution for the given output
gradient, taken with a tape, so they run eagerly and in graphs alike and
agree with the gradients training uses.
"""

from runtime._src.autodiff.tape import GradientTape
from runtime._src.core.tensor import convert_to_tensor, unwrap_variable
from runtime._src.ops.array_ops import zeros
from runtime._src.ops.conv_more_ops import depthwise_conv2d
from runtime._src.ops.conv_ops import conv2d

__all__ = ["conv2d_backprop_filter_v2", "conv2d_backprop_input_v2",
           "depthwise_conv2d_backprop_filter", "depthwise_conv2d_backprop_input"]


def _vjp(forward, source, out_backprop):
    """The gradient of `forward(source)` at `source`, weighted by `out_backprop`."""
    source = convert_to_tensor(unwrap_variable(source))
    with GradientTape() as tape:
        tape.watch(source)
        y = forward(source)
    return tape.gradient(y, source, output_gradients=convert_to_tensor(out_backprop, y.dtype))


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                              data_format="NHWC", dilations=None, name=None):
    """`tf.conv2d_backprop_filter_v2`: the gradient of `conv2d` with respect to
    its filter (shaped as `filter`)."""
    return _vjp(lambda f: conv2d(input, f, strides, padding, data_format, dilations), filter,
                out_backprop)


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                             data_format="NHWC", dilations=None, name=None):
    """`tf.conv2d_backprop_input_v2`: the gradient of `conv2d` with respect to
    its input (shaped as `input`)."""
    return _vjp(lambda x: conv2d(x, filter, strides, padding, data_format, dilations), input,
                out_backprop)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                                     data_format="NHWC", dilations=None, name=None):
    """`tf.nn.depthwise_conv2d_backprop_filter`: the gradient of
    `depthwise_conv2d` with respect to a filter of shape `filter_sizes`."""
    x = convert_to_tensor(unwrap_variable(input))
    return _vjp(lambda f: depthwise_conv2d(x, f, strides, padding, data_format, dilations),
                zeros(filter_sizes, x.dtype), out_backprop)


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                    padding, data_format="NHWC", dilations=None, name=None):
    """`tf.nn.depthwise_conv2d_backprop_input`: the gradient of
    `depthwise_conv2d` with respect to an input of shape `input_sizes`."""
    f = convert_to_tensor(unwrap_variable(filter))
    return _vjp(lambda x: depthwise_conv2d(x, f, strides, padding, data_format, dilations),
                zeros(input_sizes, f.dtype), out_backprop)
