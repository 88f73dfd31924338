"""`tf.image.resize` of images whose height or width is known only when the
graph runs (a decoded file in a `tf.data` map, say): one `ResizeAxis` op per
side, whose kernel computes the sampling for the run's size with the same
arithmetic as the static path (image_resize.py), so the pixels are equal.

    ResizeAxis(x [b, h, w, c], axis=2, size=64, method="bilinear")
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops.image_resize import axis_weights

__all__ = ["resize_axis"]

_F32 = np.float32


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
    if x.dtype != dtypes.float32 and method != "nearest":
        raise TypeError("resize_axis: cast to float32 first")
    return apply("ResizeAxis", (x,), attrs)
