"""`tf.image.resize` with every `ResizeMethod`, and the sampling weights
behind it, as TensorFlow 2.21 computes them.

TF 2 samples at half-pixel centres: output pixel i of a side resized from
`n_in` to `n_out` sits at input coordinate (i + 0.5) * n_in / n_out - 0.5.

    bilinear   the two neighbours, x then y (TF's ResizeBilinear)
    nearest    floor((i + 0.5) * scale), keeps the dtype
    bicubic    Keys cubic (a = -0.5) from TF's 1024-entry table, out-of-image
               taps dropped and the weights renormalised (ResizeBicubic)
    area       each output pixel the mean of the input area it covers
    lanczos3, lanczos5, gaussian, mitchellcubic, and bilinear / bicubic with
    antialias=True: TF's ScaleAndTranslate kernels (triangle, keyscubic),
    widened by the downscale factor when antialiasing

Everything but nearest returns float32. Where height and width are known
while tracing, each method but bilinear and nearest is a pair of weight
matrices computed then and applied with `matmul`, so gradients flow (TF has
none for area; we do); bilinear and nearest are gathers and arithmetic.
Where they are not (a decoded file in a tf.data map), each side is one
`ResizeAxis` op computing the same sampling when it runs
(below).

    resize(images, [64, 64], "lanczos3")
"""

import functools

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.manipulation_ops import expand_dims, gather, squeeze, transpose
from runtime._src.ops.math_ops import cast, matmul

__all__ = ["resize", "ResizeMethod", "axis_weights"]

_F32 = np.float32


class ResizeMethod:
    """`tf.image.ResizeMethod`: the method names `resize` accepts."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
            "mitchellcubic")


# --- the sampling kernels of ScaleAndTranslate: (function of |x|, radius) ---------------

def _lanczos(radius):
    def kernel(x):
        px = np.pi * x
        with np.errstate(divide="ignore", invalid="ignore"):
            v = radius * np.sin(px) * np.sin(px / radius) / (px * px)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, v))
    return kernel, float(radius)


def _gaussian(x):
    sigma = 1.5 / 3.0
    return np.where(x >= 1.5, 0.0, np.exp(-x * x / (2.0 * sigma * sigma)))


def _triangle(x):
    return np.where(x < 1.0, 1.0 - x, 0.0)


def _cubic(b2, b1, b0, a3, a2, a0):
    """A piecewise cubic on [0, 2): a3 x^3 + a2 x^2 + a0 below 1, and
    ((b2 x + b1) x + b0) x + c above, written as TF's two branches."""
    def kernel(x):
        near = (a3 * x + a2) * x * x + a0
        far = ((b2 * x + b1) * x + b0[0]) * x + b0[1]
        return np.where(x >= 2.0, 0.0, np.where(x >= 1.0, far, near))
    return kernel, 2.0


_KERNELS = {
    "lanczos3": _lanczos(3), "lanczos5": _lanczos(5), "gaussian": (_gaussian, 1.5),
    "triangle": (_triangle, 1.0),
    "keyscubic": _cubic(-0.5, 2.5, (-4.0, 2.0), 1.5, -2.5, 1.0),
    "mitchellcubic": _cubic(-7.0 / 18.0, 2.0, (-10.0 / 3.0, 16.0 / 9.0), 7.0 / 6.0, -2.0,
                            8.0 / 9.0),
}


def _scale_translate_weights(n_in, n_out, kernel_name, antialias):
    """[n_out, n_in] weights of TF's ScaleAndTranslate (translation 0)."""
    kernel, radius = _KERNELS[kernel_name]
    scale = _F32(n_out) / _F32(n_in)
    inv_scale = _F32(1.0) / scale
    kscale = max(inv_scale, _F32(1.0)) if antialias else _F32(1.0)
    weights = np.zeros([n_out, n_in], _F32)
    for i in range(n_out):
        sample = (_F32(i) + _F32(0.5)) * inv_scale
        if sample < 0 or sample > n_in:
            continue
        start = int(np.ceil(sample - _F32(radius) * kscale - _F32(0.5)))
        end = int(np.floor(sample + _F32(radius) * kscale - _F32(0.5)))
        start, end = min(max(start, 0), n_in - 1), min(max(end, 0), n_in - 1) + 1
        pos = np.arange(start, end, dtype=_F32) + _F32(0.5) - sample
        w = kernel(np.abs(pos * (_F32(1.0) / kscale)).astype(np.float64)).astype(_F32)
        total = w.sum(dtype=_F32)
        if abs(total) >= 1000.0 * np.finfo(_F32).tiny:
            weights[i, start:end] = w * (_F32(1.0) / total)
    return weights


def _bicubic_table():
    x = np.arange(1025, dtype=np.float64) / 1024
    a = -0.5
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    x1 = x + 1.0
    far = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    return near.astype(_F32), far.astype(_F32)


def _bicubic_weights(n_in, n_out):
    """[n_out, n_in] weights of TF's ResizeBicubic with half-pixel centres."""
    near, far = _bicubic_table()
    scale = _F32(n_in) / _F32(n_out)
    weights = np.zeros([n_out, n_in], _F32)
    for i in range(n_out):
        pos = (_F32(i) + _F32(0.5)) * scale - _F32(0.5)
        base = np.floor(pos)
        offset = int(np.rint((pos - base) * _F32(1024)))
        taps = int(base) + np.arange(-1, 3)
        w = np.array([far[offset], near[offset], near[1024 - offset], far[1024 - offset]],
                     _F32)
        inside = (taps >= 0) & (taps < n_in)
        w = np.where(inside, w, _F32(0))
        total = w.sum(dtype=_F32)
        if abs(total) >= 1000.0 * np.finfo(_F32).tiny:
            w = w * (_F32(1.0) / total)
        np.add.at(weights[i], np.clip(taps, 0, n_in - 1), w)
    return weights


def _area_weights(n_in, n_out):
    """[n_out, n_in] weights of TF's ResizeArea: the share of each input cell
    in output cell i's span [i * scale, (i + 1) * scale)."""
    scale = _F32(n_in) / _F32(n_out)
    weights = np.zeros([n_out, n_in], _F32)
    for i in range(n_out):
        lo, hi = _F32(i) * scale, _F32(i + 1) * scale
        for j in range(int(np.floor(lo)), int(np.ceil(hi))):
            if j < lo:
                part = scale if j + 1 > hi else _F32(j + 1) - lo
            else:
                part = hi - _F32(j) if j + 1 > hi else _F32(1.0)
            weights[i, min(j, n_in - 1)] += part / scale
    return weights


@functools.lru_cache(maxsize=256)
def axis_weights(n_in, n_out, method, antialias=False):
    """The [n_out, n_in] float32 matrix resizing one side by `method` (cached;
    read-only)."""
    weights = _axis_weights(n_in, n_out, method, antialias)
    weights.flags.writeable = False
    return weights


def _axis_weights(n_in, n_out, method, antialias):
    if method == "bicubic" and not antialias:
        return _bicubic_weights(n_in, n_out)
    if method == "area":
        return _area_weights(n_in, n_out)
    kernel = {"bilinear": "triangle", "bicubic": "keyscubic"}.get(method, method)
    return _scale_translate_weights(n_in, n_out, kernel, antialias)


def _nearest(x, axis, n_out):
    n_in = x.shape.dims[axis]
    scale = _F32(n_in) / _F32(n_out)
    pos = np.floor((np.arange(n_out, dtype=_F32) + _F32(0.5)) * scale)
    return gather(x, np.clip(pos, 0, n_in - 1).astype(np.int32), axis=axis)


def _bilinear(x, axis, n_out):
    n_in = x.shape.dims[axis]
    scale = _F32(n_in) / _F32(n_out)
    pos = (np.arange(n_out, dtype=_F32) + _F32(0.5)) * scale - _F32(0.5)
    low = np.floor(pos)
    lerp = (pos - low).astype(_F32)
    lo = np.clip(low, 0, n_in - 1).astype(np.int32)
    hi = np.clip(np.ceil(pos), 0, n_in - 1).astype(np.int32)
    shape = [1] * x.shape.rank
    shape[axis] = n_out
    a, b = gather(x, lo, axis=axis), gather(x, hi, axis=axis)
    return a + (b - a) * convert_to_tensor(lerp.reshape(shape))


def _matrix(x, axis, n_out, method, antialias):
    """Side `axis` (1: height, 2: width) of [b, h, w, c] resized by a weight
    matrix: that side moved last, a matmul, and moved back."""
    w = axis_weights(x.shape.dims[axis], n_out, method, bool(antialias))
    perm = [0, 2, 3, 1] if axis == 1 else [0, 1, 3, 2]
    back = [0, 3, 1, 2] if axis == 1 else [0, 1, 3, 2]
    moved = matmul(transpose(x, perm), convert_to_tensor(np.ascontiguousarray(w.T)))
    return transpose(moved, back)


def _target_size(size, in_h, in_w, preserve_aspect_ratio):
    out = rules.static_ints(size, "resize", "size")
    if len(out) != 2:
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    out_h, out_w = out
    if preserve_aspect_ratio:
        factor = min(_F32(out_h) / _F32(in_h), _F32(out_w) / _F32(in_w))
        out_h, out_w = int(np.rint(factor * _F32(in_h))), int(np.rint(factor * _F32(in_w)))
    if out_h <= 0 or out_w <= 0:
        raise ValueError(f"resize: the output size must be positive, got [{out_h}, {out_w}]")
    return out_h, out_w


def _batched(images, op):
    x = convert_to_tensor(images)
    if x.shape.rank not in (3, 4):
        raise ValueError(f"{op}: 'images' must have either 3 or 4 dimensions, got shape "
                         f"{x.shape}")
    return (x, True) if x.shape.rank == 4 else (expand_dims(x, 0), False)


def _dynamic(x, out, method, antialias):
    """Resize of a [b, h, w, c] image whose size is known only at run time:
    the same sampling, computed by each ResizeAxis op when it runs."""
    if method != "nearest" and x.dtype != dtypes.float32:
        x = cast(x, dtypes.float32)
    first, second = (1, 2) if method == "bicubic" and not antialias else (2, 1)
    y = resize_axis(x, first, out[first - 1], method, antialias)
    return resize_axis(y, second, out[second - 1], method, antialias)


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """`tf.image.resize` to `size` = [new_height, new_width] by `method` (see
    the module docstring); float32 but for "nearest", which keeps the dtype."""
    if method not in _METHODS:
        raise ValueError(f"Resize method is not implemented: {method}")
    x, batched = _batched(images, "resize")
    in_h, in_w = x.shape.dims[1:3]
    if in_h is None or in_w is None:
        if preserve_aspect_ratio:
            raise ValueError("resize: preserve_aspect_ratio needs the image's height and "
                             f"width while tracing, got shape {x.shape}")
        y = _dynamic(x, _target_size(size, 1, 1, False), method, antialias)
        return y if batched else squeeze(y, [0])
    out_h, out_w = _target_size(size, in_h, in_w, preserve_aspect_ratio)
    if method == "nearest":
        y = _nearest(_nearest(x, 1, out_h), 2, out_w)
    else:
        x = cast(x, dtypes.float32) if x.dtype != dtypes.float32 else x
        if method == "bilinear" and not antialias:
            y = _bilinear(_bilinear(x, 2, out_w), 1, out_h)
        elif method == "bicubic" and not antialias:
            y = _matrix(_matrix(x, 1, out_h, method, False), 2, out_w, method, False)
        else:
            y = _matrix(_matrix(x, 2, out_w, method, antialias), 1, out_h, method, antialias)
    return y if batched else squeeze(y, [0])


# --- sides known only at run time: one ResizeAxis op per side ------------------------------


def _positions(n_in, n_out, method):
    scale = _F32(n_in) / _F32(n_out)
    if method == "nearest":
        pos = np.floor((np.arange(n_out, dtype=_F32) + _F32(0.5)) * scale)
        return np.clip(pos, 0, n_in - 1).astype(np.intp), None, None
    pos = (np.arange(n_out, dtype=_F32) + _F32(0.5)) * scale - _F32(0.5)
    low = np.floor(pos)
    lerp = (pos - low).astype(_F32)
    lo = np.clip(low, 0, n_in - 1).astype(np.intp)
    hi = np.clip(np.ceil(pos), 0, n_in - 1).astype(np.intp)
    return lo, hi, lerp


def _lerp_shape(x, axis, n):
    shape = [1] * x.ndim
    shape[axis] = n
    return shape


def _infer(inputs, attrs):
    x = inputs[0]
    dims = list(x.shape.dims) if x.shape.rank is not None else [None] * 4
    dims[attrs["axis"]] = attrs["size"]
    return [(x.dtype, TensorShape(dims))]


@define_op("ResizeAxis", infer=_infer)
def _resize_axis(x, *, axis, size, method, antialias):
    n_in = x.shape[axis]
    if method == "nearest":
        return np.take(x, _positions(n_in, size, method)[0], axis=axis)
    if method == "bilinear" and not antialias:
        lo, hi, lerp = _positions(n_in, size, method)
        a, b = np.take(x, lo, axis=axis), np.take(x, hi, axis=axis)
        return a + (b - a) * lerp.reshape(_lerp_shape(x, axis, size))
    w = axis_weights(n_in, size, method, bool(antialias))
    perm = [0, 2, 3, 1] if axis == 1 else [0, 1, 3, 2]
    back = [0, 3, 1, 2] if axis == 1 else [0, 1, 3, 2]
    moved = np.matmul(np.transpose(x, perm), np.ascontiguousarray(w.T))
    return np.ascontiguousarray(np.transpose(moved, back))


def _axis_matrix(n_in, size, method, antialias):
    """The [size, n_in] weights every method applies (nearest and bilinear too)."""
    if method == "nearest" or (method == "bilinear" and not antialias):
        lo, hi, lerp = _positions(n_in, size, method)
        w = np.zeros([size, n_in], _F32)
        rows = np.arange(size)
        if method == "nearest":
            w[rows, lo] = 1
        else:
            np.add.at(w, (rows, lo), 1 - lerp)
            np.add.at(w, (rows, hi), lerp)
        return w
    return axis_weights(n_in, size, method, bool(antialias))


@define_op("ResizeAxisGrad", infer=lambda inputs, attrs: [
    (inputs[0].dtype, TensorShape(None))])
def _resize_axis_grad(dy, x, *, axis, size, method, antialias):
    w = _axis_matrix(x.shape[axis], size, method, antialias)
    moved = np.moveaxis(dy, axis, -1) @ w.astype(dy.dtype)
    return np.ascontiguousarray(np.moveaxis(moved, -1, axis))


@define_grad("ResizeAxis")
def _grad(op, dy):
    attrs = {k: op.attrs[k] for k in ("axis", "size", "method", "antialias")}
    return [apply("ResizeAxisGrad", (dy, op.inputs[0]), attrs)]


def resize_axis(x, axis, size, method, antialias):
    """Side `axis` (1: height, 2: width) of [b, h, w, c] `x` resized to `size`."""
    attrs = {"axis": int(axis), "size": int(size), "method": method,
             "antialias": bool(antialias)}
    return apply("ResizeAxis", (x,), attrs)
