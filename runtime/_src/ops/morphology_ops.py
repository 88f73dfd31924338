"""`tf.nn.dilation2d` and `erosion2d`: grayscale morphology of NHWC images
by a [height, width, depth] structuring function, made of slices and
elementwise maxima (one per filter tap), so gradients flow to the
winning tap as TF's do (away from ties).

    out[b, y, x, c] = max over dy, dx of
        input[b, y*sh + dy*rh - top, x*sw + dx*rw - left, c] + filters[dy, dx, c]

Erosion is the negated dilation of the negated input by the reflected
filters, as TF defines it.

    >>> import runtime as tf
    >>> x = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
    >>> tf.nn.dilation2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], "VALID", "NHWC",
    ...                  [1, 1, 1, 1])[0, :, :, 0].numpy()
    array([[4., 5.],
           [7., 8.]], dtype=float32)
"""

import numpy as np

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import math_ops
from runtime._src.ops.base_ops import FLOATS
from runtime._src.ops.conv_ops import _checked, _sequence
from runtime._src.ops.shape_ops import pad, reverse

__all__ = ["dilation2d", "erosion2d"]


def _window(size, taps, stride, rate, padding):
    """(pad before, pad after, output size) on one axis, TF's rule."""
    span = (taps - 1) * rate + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + span - size, 0)
        return total // 2, total - total // 2, out
    return 0, 0, max((size - span) // stride + 1, 0)


def _dilate(op, x, f, strides, rates, padding, data_format):
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}")
    x = _checked(op, x, FLOATS)
    f = convert_to_tensor(f, dtype=x.dtype)
    if x.shape.rank != 4 or f.shape.rank != 3 or not x.shape[1:].is_fully_defined():
        raise ValueError(f"{op}: input must be 4-D NHWC with known height, width and depth "
                         f"and filters 3-D, got shapes {x.shape} and {f.shape}")
    if f.shape[2] != x.shape[3]:
        raise ValueError(f"{op}: the filters' depth {f.shape[2]} must equal the input's "
                         f"{x.shape[3]}")
    sh, sw = _sequence(op, strides, 2, False, "strides")
    rh, rw = _sequence(op, rates, 2, False, "dilations")
    kh, kw = f.shape.as_list()[:2]
    top, bottom, out_h = _window(x.shape[1], kh, sh, rh, padding)
    left, right, out_w = _window(x.shape[2], kw, sw, rw, padding)
    if top or bottom or left or right:
        x = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]], constant_values=-np.inf)
    best = None
    for dy in range(kh):
        for dx in range(kw):
            y0, x0 = dy * rh, dx * rw
            tap = x[:, y0:y0 + (out_h - 1) * sh + 1:sh, x0:x0 + (out_w - 1) * sw + 1:sw]
            tap = math_ops.add(tap, f[dy, dx])
            best = tap if best is None else math_ops.maximum(best, tap)
    return best


def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):
    """The grayscale dilation of `input` [batch, h, w, depth] by `filters`
    [fh, fw, depth]."""
    return _dilate("Dilation2D", input, filters, strides, dilations, padding, data_format)


def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """The grayscale erosion: -dilation2d(-value, filters reflected)."""
    f = reverse(convert_to_tensor(filters), [0, 1])
    return math_ops.negative(_dilate("Erosion2D", math_ops.negative(convert_to_tensor(value)),
                                     f, strides, dilations, padding, data_format))
