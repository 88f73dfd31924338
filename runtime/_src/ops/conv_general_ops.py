"""`tf.conv`: TensorFlow's general N-D convolution op, with leading batch
dimensions (`batch_dims`), as TF 2.21's CPU kernel runs it: 2 or 3 spatial
dimensions, channels last, no groups; SAME, VALID or EXPLICIT padding,
strides and dilations. It is computed by conv2d/conv3d on the batch dims
flattened into one (so, unlike TF's Conv, it has a gradient).

    >>> import runtime as tf
    >>> tf.conv(tf.ones([2, 3, 4, 4, 1]), tf.ones([2, 2, 1, 1]), [1, 1, 1, 1], "VALID",
    ...         batch_dims=2).shape
    TensorShape([2, 3, 3, 3, 1])
"""

from runtime._src.core.errors import InvalidArgumentError, UnimplementedError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops.array_ops import reshape, shape as shape_of
from runtime._src.ops.shape_ops import pad
from runtime._src.ops.conv3d_ops import conv3d
from runtime._src.ops.conv_ops import conv2d
from runtime._src.ops.manipulation_ops import concat

__all__ = ["conv"]


def _check(x, f, strides, padding, data_format, groups, batch_dims):
    spatial = f.shape.rank - 2 if f.shape.rank is not None else None
    if spatial not in (2, 3):
        raise InvalidArgumentError(f"Conv: The input must have 2 or 3 spatial dimensions but got "
                                   f"{spatial}", "Conv")
    if data_format != "CHANNELS_LAST":
        raise UnimplementedError(f"Conv: only the CHANNELS_LAST format runs on the CPU, as TF's "
                                 f"kernel; got {data_format}", "Conv")
    if groups != 1:
        raise UnimplementedError("Conv: Grouped/Depthwise Convolutions are not supported yet "
                                 f"(groups={groups})", "Conv")
    if x.shape.rank is not None and x.shape.rank != spatial + 1 + batch_dims:
        raise InvalidArgumentError(f"Conv: input of rank {x.shape.rank} does not have "
                                   f"{batch_dims} batch, {spatial} spatial and 1 channel "
                                   "dimensions", "Conv")
    if len(strides) != spatial + 2:
        raise InvalidArgumentError(f"Conv: strides must have {spatial + 2} values, got "
                                   f"{list(strides)}", "Conv")
    if padding not in ("SAME", "VALID", "EXPLICIT"):
        raise ValueError(f"Conv: padding must be SAME, VALID or EXPLICIT, got {padding!r}")
    return spatial


def conv(input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST",  # noqa: A002 - TF's names
         dilations=(), batch_dims=1, groups=1, name=None):
    """N-D convolution of `input` [*batch, *spatial, in] with `filter`
    [*spatial, in, out]; `strides`/`dilations` have N + 2 values."""
    x, f = convert_to_tensor(input), convert_to_tensor(filter)
    spatial = _check(x, f, list(strides), padding, data_format, int(groups), int(batch_dims))
    dilations = list(dilations) or [1] * (spatial + 2)
    batch = shape_of(x)[:batch_dims]
    y = reshape(x, concat([[-1], shape_of(x)[batch_dims:]], 0))
    if padding == "EXPLICIT":
        pairs = [list(explicit_paddings[2 * i:2 * i + 2]) for i in range(spatial + 2)]
        y, padding = pad(y, pairs), "VALID"
    run = conv2d if spatial == 2 else conv3d
    y = run(y, f, list(strides), padding, dilations=dilations)
    return reshape(y, concat([batch, shape_of(y)[1:]], 0))
