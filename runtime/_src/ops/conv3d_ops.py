"""`tf.nn.conv3d`, `conv3d_transpose`, `max_pool3d` and `avg_pool3d` on
(batch, depth, height, width, channels) volumes ("NDHWC", or "NCDHW"),
made of the 2-D ops: the depth axis is walked here, each depth tap of the
kernel or window being a 2-D convolution or pool of the depth slices it
meets, all output depths at once (one batch of images). Gradients come
from the 2-D ops' gradients.

    >>> import runtime as tf
    >>> x = tf.ones([1, 3, 3, 3, 1])
    >>> tf.nn.conv3d(x, tf.ones([2, 2, 2, 1, 1]), [1, 1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 2, 1])
"""

import numpy as np

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import reshape, zeros_like
from runtime._src.ops.conv_more_ops import conv2d_transpose
from runtime._src.core import dtypes
from runtime._src.ops.base_ops import FLOATS
from runtime._src.ops.conv_ops import _checked, _sequence, avg_pool2d, conv2d, max_pool2d
from runtime._src.ops.manipulation_ops import concat, stack, transpose
from runtime._src.ops.shape_ops import pad

__all__ = ["conv3d", "conv3d_transpose", "max_pool3d", "avg_pool3d"]

POOL_DTYPES = frozenset((dtypes.float16, dtypes.float32))     # TF's MaxPool3D/AvgPool3D


def _channels_first(op, data_format):
    if data_format in (None, "NDHWC"):
        return False
    if data_format == "NCDHW":
        return True
    raise ValueError(f"{op}: data_format must be 'NDHWC' or 'NCDHW', got {data_format!r}")


def _last(x, first):
    return transpose(x, [0, 2, 3, 4, 1]) if first else x


def _back(y, first):
    return transpose(y, [0, 4, 1, 2, 3]) if first else y


def _volume(op, x, allowed):
    x = _checked(op, x, allowed)
    if x.shape.rank is not None and x.shape.rank != 5:
        raise ValueError(f"{op}: input must be 5-D (batch, depth, height, width, channels), "
                         f"got shape {x.shape}")
    if not x.shape[1:].is_fully_defined():
        raise ValueError(f"{op}: the input's depth, height, width and channels must be known "
                         f"while tracing, got shape {x.shape}")
    return x


def _padding_name(op, padding):
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}")
    return padding


def _depth_window(depth, taps, stride, dilation, padding):
    """(pad before, pad after, output depth) on the depth axis, TF's rule."""
    span = (taps - 1) * dilation + 1
    if padding == "SAME":
        out = -(-depth // stride)
        total = max((out - 1) * stride + span - depth, 0)
        return total // 2, total - total // 2, out
    return 0, 0, max((depth - span) // stride + 1, 0)


def _taps(x, taps, stride, dilation, before, after, out, fill=0):
    """For each tap i, x's depth slices i*dilation + o*stride (o < out), the
    depth padded with `fill` first: each as a batch of images [b*out, h, w, c]."""
    if before or after:
        x = pad(x, [[0, 0], [before, after], [0, 0], [0, 0], [0, 0]], constant_values=fill)
    h, w, c = x.shape.as_list()[2:]
    span = (out - 1) * stride + 1
    return [reshape(x[:, i * dilation:i * dilation + span:stride], [-1, h, w, c])
            for i in range(taps)]


def _as_volume(y, out):
    return reshape(y, [-1, out] + y.shape.as_list()[1:])


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None,
           name=None):
    """3-D convolution (cross-correlation, as TF) of `input` with `filters`
    [depth, height, width, in_channels, out_channels]."""
    op = "Conv3D"
    first = _channels_first(op, data_format)
    x = _last(_volume(op, input, FLOATS), first)
    f = convert_to_tensor(filters)
    if f.dtype != x.dtype:
        raise TypeError(f"{op}: input and filters must have the same dtype, got "
                        f"{x.dtype.name} and {f.dtype.name}")
    stride = _sequence(op, strides, 3, first, "strides")
    dilation = _sequence(op, dilations, 3, first, "dilations")
    padding = _padding_name(op, padding)
    taps = f.shape.as_list()[0]
    before, after, out = _depth_window(x.shape[1], taps, stride[0], dilation[0], padding)
    slices = _taps(x, taps, stride[0], dilation[0], before, after, out)
    parts = [conv2d(s, f[i], [1, stride[1], stride[2], 1], padding,
                    dilations=[1, dilation[1], dilation[2], 1]) for i, s in enumerate(slices)]
    return _back(_as_volume(math_ops.add_n(parts), out), first)


def _placed(y, stride, offset, length):
    """y [b, n, ...] with slice j moved to depth j * stride + offset of a
    `length`-deep volume (zeros elsewhere; what falls outside is dropped)."""
    if stride > 1:
        y = stack([y] + [zeros_like(y)] * (stride - 1), axis=2)
        shape = y.shape.as_list()
        y = reshape(y, [-1, shape[1] * shape[2]] + shape[3:])
    if offset < 0:
        y = y[:, -offset:]
        offset = 0
    keep = max(min(y.shape[1], length - offset), 0)
    y = y[:, :keep]
    rest = [[0, 0]] * 3
    return pad(y, [[0, 0], [offset, length - offset - keep]] + rest)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",
                     data_format="NDHWC", dilations=None, name=None):
    """The transpose (gradient with respect to the input) of conv3d; `filters`
    is [depth, height, width, output_channels, in_channels] and
    `output_shape` the result's shape (in `data_format` order)."""
    op = "Conv3DBackpropInputV2"
    first = _channels_first(op, data_format)
    x = _last(_volume(op, input, FLOATS), first)
    f = convert_to_tensor(filters)
    if f.dtype != x.dtype:
        raise TypeError(f"conv3d_transpose: input and filters must have the same dtype, got "
                        f"{x.dtype.name} and {f.dtype.name}")
    stride = _sequence(op, strides, 3, first, "strides")
    dilation = _sequence(op, dilations, 3, first, "dilations")
    padding = _padding_name(op, padding)
    shape = list(rules.static_ints(output_shape, "conv3d_transpose", "output_shape"))
    if len(shape) != 5:
        raise ValueError(f"conv3d_transpose: output_shape must have 5 entries, got {shape}")
    if first:
        shape = [shape[0]] + shape[2:] + [shape[1]]
    batch, depth, height, width, channels = shape
    taps = f.shape.as_list()[0]
    before, _, out = _depth_window(depth, taps, stride[0], dilation[0], padding)
    if out != x.shape[1]:
        raise ValueError(f"conv3d_transpose: an output depth of {depth} gives {out} input "
                         f"depths with this kernel and stride, but the input has {x.shape[1]}")
    d_in, h, w, c = x.shape.as_list()[1:]
    images = reshape(x, [-1, h, w, c])
    image_shape = concat([convert_to_tensor([batch * d_in]),
                          convert_to_tensor([height, width, channels])], 0)
    parts = []
    for i in range(taps):
        y = conv2d_transpose(images, f[i], image_shape, [1, stride[1], stride[2], 1], padding,
                             dilations=[1, dilation[1], dilation[2], 1])
        parts.append(_placed(_as_volume(y, d_in), stride[0], i * dilation[0] - before, depth))
    return _back(math_ops.add_n(parts), first)


def _pool3d(op, input, ksize, strides, padding, data_format, allowed):
    first = _channels_first(op, data_format)
    x = _last(_volume(op, input, allowed), first)
    window = _sequence(op, ksize, 3, first, "ksize")
    stride = _sequence(op, strides, 3, first, "strides")
    padding = _padding_name(op, padding)
    before, after, out = _depth_window(x.shape[1], window[0], stride[0], 1, padding)
    return x, first, window, stride, padding, (before, after, out)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
    """The maximum over each ksize window of a 5-D `input`."""
    op = "MaxPool3D"
    x, first, window, stride, padding, (before, after, out) = _pool3d(
        op, input, ksize, strides, padding, data_format, POOL_DTYPES)
    slices = _taps(x, window[0], stride[0], 1, before, after, out, fill=-np.inf)
    parts = [max_pool2d(s, [1, window[1], window[2], 1], [1, stride[1], stride[2], 1],
                        padding) for s in slices]
    best = parts[0]
    for p in parts[1:]:
        best = math_ops.maximum(best, p)
    return _back(_as_volume(best, out), first)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
    """The mean over each ksize window of a 5-D `input`; with 'SAME', of the
    real elements only (as TF)."""
    op = "AvgPool3D"
    x, first, window, stride, padding, (before, after, out) = _pool3d(
        op, input, ksize, strides, padding, data_format, POOL_DTYPES)
    slices = _taps(x, window[0], stride[0], 1, before, after, out)
    parts = [avg_pool2d(s, [1, window[1], window[2], 1], [1, stride[1], stride[2], 1],
                        padding) for s in slices]
    depth = x.shape[1]
    starts = np.arange(out) * stride[0] - before
    counts = np.minimum(starts + window[0], depth) - np.maximum(starts, 0)
    total = _as_volume(math_ops.add_n(parts), out)
    scale = convert_to_tensor((1.0 / counts).reshape(1, out, 1, 1, 1).astype(
        x.dtype.as_numpy_dtype))
    return _back(math_ops.multiply(total, scale), first)
