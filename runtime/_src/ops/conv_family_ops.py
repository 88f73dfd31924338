"""The rest of `tf.nn`'s convolution family, over the core convolutions:
`atrous_conv2d`, `atrous_conv2d_transpose`, `conv_transpose`, `pool`,
`with_space_to_batch` and `max_pool_with_argmax` (the explicit backprop ops
are in runtime/_src/autodiff/conv_backprop.py: they take a gradient).

    tf.nn.atrous_conv2d(x, w, rate=2, padding="SAME")     # conv2d, dilations 2
    y, argmax = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
        # argmax: flat index ((y * width + x) * channels + c) of each maximum
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops.conv_more_ops import conv1d_transpose, conv2d_transpose
from runtime._src.ops.conv_ops import avg_pool, conv2d, max_pool
from runtime._src.ops.space_ops import (batch_to_space_nd, required_space_to_batch_paddings,
                                        space_to_batch_nd)

__all__ = ["atrous_conv2d", "atrous_conv2d_transpose", "conv_transpose", "pool",
           "with_space_to_batch", "max_pool_with_argmax"]


def _pair(value, n, what):
    values = [int(value)] * n if np.ndim(value) == 0 else [int(v) for v in value]
    if len(values) != n:
        raise ValueError(f"{what} must have {n} entries, got {values}")
    return values


def atrous_conv2d(value, filters, rate, padding, name=None):
    """`tf.nn.atrous_conv2d`: `conv2d` with stride 1 and dilation `rate`."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return conv2d(value, filters, 1, padding, dilations=int(rate))


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """`tf.nn.atrous_conv2d_transpose`: the transpose of `atrous_conv2d`."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return conv2d_transpose(value, filters, output_shape, 1, padding, dilations=int(rate))


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,
                   dilations=None, name=None):  # TensorFlow's names
    """`tf.nn.conv_transpose`: `conv1d_transpose` or `conv2d_transpose`,
    chosen by the rank of `output_shape` (3 or 4)."""
    rank = len(output_shape) if isinstance(output_shape, (list, tuple)) else \
        convert_to_tensor(output_shape).shape.dims[0]
    if rank == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding,
                                data_format or "NWC", dilations)
    if rank == 4:
        return conv2d_transpose(input, filters, output_shape, strides, padding,
                                data_format or "NHWC", dilations)
    raise ValueError(f"conv_transpose: output_shape must have 3 or 4 entries (1-D or 2-D "
                     f"convolutions), got {rank}")


# --- pool / with_space_to_batch --------------------------------------------------------

def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,
                        spatial_dims=None, data_format=None):
    """`tf.nn.with_space_to_batch`: run `op(x, num_spatial_dims, padding)` at
    `dilation_rate` by moving the dilation into the batch (space_to_batch),
    running `op` undilated, and moving it back."""
    x = convert_to_tensor(unwrap_variable(input))
    rates = np.asarray(dilation_rate, np.int64).reshape(-1)
    n = len(rates)
    if spatial_dims not in (None, list(range(1, n + 1))) or data_format not in (
            None, "NHWC", "NWC", "NDHWC"):
        raise ValueError("with_space_to_batch: only channels-last data with the spatial "
                         "dimensions right after the batch is supported")
    if (rates == 1).all():
        return op(x, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        effective = (np.asarray(filter_shape, np.int64) - 1) * rates + 1
        total = effective - 1
        base = np.stack([total // 2, total - total // 2], axis=1)
    elif padding == "VALID":
        base = np.zeros((n, 2), np.int64)
    else:
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    spatial = x.shape.dims[1:1 + n]
    if None in spatial:
        raise ValueError("with_space_to_batch: the spatial dimensions must be known")
    paddings, crops = required_space_to_batch_paddings(spatial, rates, base)
    moved = space_to_batch_nd(x, rates, paddings)
    return batch_to_space_nd(op(moved, n, "VALID"), rates, crops)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,
         dilations=None, name=None):  # TensorFlow's names
    """`tf.nn.pool`: "MAX" or "AVG" pooling of 1-D or 2-D windows, with
    optional dilation (VALID padding only, as TF)."""
    n = len(window_shape)
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"Invalid pooling_type: {pooling_type}")
    strides = [1] * n if strides is None else _pair(strides, n, "strides")
    dilations = [1] * n if dilations is None else _pair(dilations, n, "dilations")
    if any(d > 1 for d in dilations) and any(s > 1 for s in strides):
        raise ValueError("strides > 1 not supported in conjunction with dilation_rate > 1")
    if any(d > 1 for d in dilations) and padding == "SAME":
        raise ValueError("pooling with 'SAME' padding is not implemented for `dilation_rate` > "
                         f"1. Received: padding=SAME and dilation_rate={dilations}")
    reduce = max_pool if pooling_type == "MAX" else avg_pool

    def plain(x, num_spatial_dims, pad):
        return reduce(x, list(window_shape), strides, pad, data_format)
    if all(d == 1 for d in dilations):
        return plain(input, n, padding)
    return with_space_to_batch(input, dilations, padding, plain, window_shape)


# --- max_pool_with_argmax -----------------------------------------------------------------

def _window_extent(size, k, s, padding):
    if padding == "VALID":
        out = (size - k) // s + 1
        return out, 0
    out = -(-size // s)
    return out, max((out - 1) * s + k - size, 0) // 2


def _infer_argmax(inputs, attrs):
    dims = inputs[0].shape.dims if inputs[0].shape.rank == 4 else [None] * 4
    (kh, kw), (sh, sw) = attrs["ksize"], attrs["strides"]
    out = [dims[0]]
    for size, k, s in ((dims[1], kh, sh), (dims[2], kw, sw)):
        out.append(None if size is None else _window_extent(size, k, s, attrs["padding"])[0])
    shape = TensorShape(out + [dims[3]])
    return [(inputs[0].dtype, shape), (attrs["output_dtype"], shape)]


@define_op("MaxPoolWithArgmax", infer=_infer_argmax, num_outputs=2)
def _max_pool_with_argmax(x, *, ksize, strides, padding, output_dtype, include_batch):
    n, h, w, c = x.shape
    (kh, kw), (sh, sw) = ksize, strides
    oh, top = _window_extent(h, kh, sh, padding)
    ow, left = _window_extent(w, kw, sw, padding)
    rows = np.arange(oh)[:, None] * sh - top + np.arange(kh)[None, :]          # [oh, kh]
    cols = np.arange(ow)[:, None] * sw - left + np.arange(kw)[None, :]         # [ow, kw]
    inside = ((rows >= 0) & (rows < h))[:, None, :, None] & \
        ((cols >= 0) & (cols < w))[None, :, None, :]                          # [oh, ow, kh, kw]
    taps = x[:, np.clip(rows, 0, h - 1)[:, None, :, None],
             np.clip(cols, 0, w - 1)[None, :, None, :], :]                    # [n,oh,ow,kh,kw,c]
    fill = -np.inf if dtypes.is_float_array(x.dtype) else np.iinfo(x.dtype).min
    taps = np.where(inside[None, ..., None], taps, fill).reshape(n, oh, ow, kh * kw, c)
    best = np.argmax(taps, axis=3)                                            # first maximum
    values = np.take_along_axis(taps, best[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    y = rows[:, None, :, None].repeat(ow, 1).repeat(kw, 3).reshape(oh, ow, kh * kw)
    xs = cols[None, :, None, :].repeat(oh, 0).repeat(kh, 2).reshape(oh, ow, kh * kw)
    flat = (y * w + xs)[None, :, :, :, None] * c + np.arange(c)               # [1,oh,ow,k,c]
    index = np.take_along_axis(np.broadcast_to(flat, (n, oh, ow, kh * kw, c)),
                               best[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    if include_batch:
        index = index + np.arange(n)[:, None, None, None] * (h * w * c)
    return values.astype(x.dtype), index.astype(output_dtype.np_dtype)


@define_op("MaxPoolGradWithArgmax", infer=lambda inputs, attrs: [(inputs[0].dtype,
                                                                   inputs[0].shape)])
def _max_pool_grad_with_argmax(x, grad, argmax, *, include_batch):
    out = np.zeros(x.size, x.dtype)
    n = x.shape[0]
    index = argmax.reshape(n, -1).astype(np.int64)
    if not include_batch:
        index = index + np.arange(n)[:, None] * (x.size // max(n, 1))
    np.add.at(out, index.ravel(), grad.reshape(-1))
    return out.reshape(x.shape)


not_differentiable("MaxPoolGradWithArgmax")


@define_grad("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op, grad, argmax_grad):
    return [apply("MaxPoolGradWithArgmax", [op.inputs[0], grad, op.outputs[1]],
                  {"include_batch": op.attrs["include_batch"]})]


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",
                         output_dtype=dtypes.int64, include_batch_in_index=False,
                         name=None):  # TensorFlow's names
    """`tf.nn.max_pool_with_argmax`: `(max_pool(input), argmax)`; argmax is
    the flat index of each maximum in its image (`((y * width + x) *
    channels + c)`, plus `batch * height * width * channels` with
    `include_batch_in_index`); the first maximum of a window wins."""
    if data_format != "NHWC":
        raise ValueError(f"max_pool_with_argmax: data_format must be 'NHWC', got "
                         f"{data_format!r}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    x = convert_to_tensor(unwrap_variable(input))
    k = _spatial(ksize, "ksize")
    s = _spatial(strides, "strides")
    return apply("MaxPoolWithArgmax", [x], {
        "ksize": k, "strides": s, "padding": padding,
        "output_dtype": dtypes.as_dtype(output_dtype), "include_batch": bool(include_batch_in_index)})


def _spatial(value, what):
    """(h, w) from an int, a pair, or TF's [1, h, w, 1]."""
    values = [int(value)] * 2 if np.ndim(value) == 0 else [int(v) for v in value]
    if len(values) == 4:
        values = values[1:3]
    if len(values) == 1:
        values = values * 2
    if len(values) != 2:
        raise ValueError(f"max_pool_with_argmax: {what} must have 1, 2 or 4 entries")
    return tuple(values)
