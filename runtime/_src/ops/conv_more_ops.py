"""More convolutions and training helpers of `tf.nn`: `depthwise_conv2d`,
`separable_conv2d`, `conv2d_transpose`, `conv1d_transpose`,
`local_response_normalization`, `compute_average_loss`,
`scale_regularization_loss`.

All are compositions of existing ops (so their gradients are those ops'):

    depthwise_conv2d(x, f)   # f [kh, kw, C, M]: a Conv2D with C groups over the
                             # filter reshaped to [kh, kw, 1, C*M]; output
                             # channel c*M + m, as TensorFlow's
    conv2d_transpose(y, f, output_shape, strides)
                             # Conv2DBackpropInput: the gradient of conv2d
                             # with respect to its input (f [kh, kw, out, in])
"""

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import concat, expand_dims, reshape, squeeze, transpose, zeros
from runtime._src.ops.conv_ops import (CONV_DTYPES, _checked, _data_format, _padding,
                                       _sequence, _to_channels_first, _to_channels_last, conv2d)
from runtime._src.ops.math_ops import add_n, cast, multiply, pow, truediv
from runtime._src.ops.reduction_ops import reduce_sum
from runtime._src.ops.shape_ops import pad
from runtime._src.ops.array_ops import shape as shape_of

__all__ = ["depthwise_conv2d", "separable_conv2d", "conv2d_transpose", "conv1d_transpose",
           "local_response_normalization", "compute_average_loss",
           "scale_regularization_loss"]


def depthwise_conv2d(input, filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """`tf.nn.depthwise_conv2d`: each input channel c convolved with its own
    `filter[:, :, c, :]` ([kh, kw, C, M]); C*M output channels."""
    f = convert_to_tensor(filter)
    dims = f.shape.dims if f.shape.rank is not None else None
    if dims is None or len(dims) != 4 or None in dims:
        raise ValueError(f"depthwise_conv2d: filter must be 4-D [height, width, in_channels, "
                         f"channel_multiplier] with a known shape, got {f.shape}")
    kh, kw, c, m = dims
    flat = reshape(f, [kh, kw, 1, c * m])
    return conv2d(input, flat, strides, padding, data_format or "NHWC", dilations)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None):
    """`tf.nn.separable_conv2d`: depthwise_conv2d, then a 1x1 conv2d with
    `pointwise_filter` [1, 1, C*M, out]."""
    y = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return conv2d(y, pointwise_filter, [1, 1, 1, 1], "VALID", data_format or "NHWC")


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",
                     data_format="NHWC", dilations=None, name=None):
    """`tf.nn.conv2d_transpose`: the transpose (gradient) of conv2d; `filters`
    is [height, width, output_channels, in_channels]; `output_shape` the
    shape of the result (in `data_format` order)."""
    op = "Conv2DBackpropInput"
    x = _checked(op, input, CONV_DTYPES)
    f = convert_to_tensor(filters)
    if f.dtype != x.dtype:
        raise TypeError(f"conv2d_transpose: input and filters must have the same dtype, got "
                        f"{x.dtype.name} and {f.dtype.name}")
    first = _data_format(op, data_format, 2)
    attrs = {"strides": _sequence(op, strides, 2, first, "strides"),
             "dilations": _sequence(op, dilations, 2, first, "dilations")}
    attrs["padding"], attrs["explicit_paddings"] = _padding(op, padding, 2, first)
    out = convert_to_tensor(output_shape)
    if first:
        out = concat([out[:1], out[2:], out[1:2]], 0)
    target = zeros(out, x.dtype)
    y = apply(op, (_to_channels_last(x, first), target, f), attrs)
    return _to_channels_first(y, first)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",
                     data_format="NWC", dilations=None, name=None):
    """`tf.nn.conv1d_transpose`: conv2d_transpose over a height of 1; `filters`
    is [width, output_channels, in_channels]."""
    first = _data_format("conv1d_transpose", data_format, 1)
    strides = (1,) + tuple(_sequence("conv1d_transpose", strides, 1, first, "strides"))
    dilations = (1,) + tuple(_sequence("conv1d_transpose", dilations, 1, first, "dilations"))
    axis = 2 if first else 1
    out = convert_to_tensor(output_shape)
    out = concat([out[:axis], [1], out[axis:]], 0)
    y = conv2d_transpose(expand_dims(input, axis), expand_dims(filters, 0), out, strides,
                         padding, "NCHW" if first else "NHWC", dilations)
    return squeeze(y, [axis])


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0,
                                 beta=0.5, name=None):
    """`tf.nn.local_response_normalization` (lrn): input / (bias + alpha *
    sqr_sum) ** beta, sqr_sum summing squares over channels d-r..d+r."""
    x = _checked("LRN", input, CONV_DTYPES)
    if x.shape.rank != 4:
        raise ValueError(f"local_response_normalization: input must be 4-D, got {x.shape}")
    r = rules.static_int(depth_radius, "LRN", "depth_radius")
    depth = x.shape.dims[3]
    if depth is None:
        raise ValueError("local_response_normalization: the channel dimension must be known")
    sq = pad(x * x, [[0, 0], [0, 0], [0, 0], [r, r]])
    window = add_n([sq[:, :, :, i:i + depth] for i in range(2 * r + 1)])
    return x / pow(bias + alpha * window, beta)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None,
                         name=None):
    """`tf.nn.compute_average_loss`: sum(per_example_loss * sample_weight) /
    global_batch_size (default: the batch size, per_example_loss's first dim)."""
    loss = convert_to_tensor(per_example_loss)
    if not loss.dtype.is_floating:
        raise TypeError(f"compute_average_loss: per_example_loss must be floating-point, got "
                        f"{loss.dtype.name}")
    if sample_weight is not None:
        loss = multiply(loss, cast(convert_to_tensor(sample_weight), loss.dtype))
    if global_batch_size is None:
        size = shape_of(loss)[0] if loss.shape.rank else 1
        batch = cast(size, loss.dtype)
    else:
        batch = cast(convert_to_tensor(global_batch_size), loss.dtype)
    return truediv(reduce_sum(loss), batch)


def scale_regularization_loss(regularization_loss, name=None):
    """`tf.nn.scale_regularization_loss`: the summed loss divided by the number
    of replicas (one here: no distribution strategy)."""
    return reduce_sum(convert_to_tensor(regularization_loss))
