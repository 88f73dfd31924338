"""Reductions: `reduce_sum/mean/max/min/prod/all/any`, `argmax`, `argmin`.

`axis` is None (reduce everything), an int or a list of ints (negative
counts from the end); it must be known while tracing. `keepdims=True` keeps
reduced dimensions with length 1.

    >>> reduce_sum(constant([[1, 2], [3, 4]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 7], dtype=int32)>

As in TensorFlow, integer sums and products stay in the input dtype and an
integer mean truncates toward zero; `argmax`/`argmin` return int64 unless
`output_type` says otherwise.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.core.tensor import (EagerTensor, Tensor, convert_to_tensor, is_tensor_like,
                                      unwrap_variable)
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops.math_ops import BOOL, NUMERIC, dtype_error, run_kernel_now
from runtime._src.ops.shape_rules import normalize_axis, static_bool, static_int, static_value

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
           "reduce_all", "reduce_any", "argmax", "argmin"]


def static_axis(axis, op_name, what="axis"):
    """`axis` as None, an int or a tuple of ints; tensors must be constant."""
    if axis is None:
        return None
    axis = unwrap_variable(axis)
    if isinstance(axis, Tensor):
        axis = static_value(axis, op_name, what).tolist()
    if isinstance(axis, (list, tuple)):
        axis = [static_int(a, op_name, what) if is_tensor_like(a) else a for a in axis]
    if isinstance(axis, (list, tuple, np.ndarray)):
        return tuple(_int_axis(a, op_name, what) for a in np.reshape(axis, -1).tolist())
    return _int_axis(axis, op_name, what)


def _int_axis(a, op_name, what):
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        raise TypeError(f"{op_name}: {what} must be an int or a list of ints, got {a!r}")
    return int(a)


def _reduced_shape(shape, axis, keepdims):
    """The static shape after reducing `axis` of `shape`."""
    if shape.dims is None:
        return TensorShape([] if axis is None and not keepdims else None)
    rank = len(shape.dims)
    if axis is None:
        return TensorShape([1] * rank if keepdims else [])
    axes = axis if isinstance(axis, tuple) else (axis,)
    normalized = [normalize_axis(a, rank) for a in axes]
    axes = set(normalized)
    if len(axes) != len(normalized):
        raise ValueError(f"Invalid reduction arguments: axis {list(axis)} contains a "
                         "duplicate dimension")
    if keepdims:
        return TensorShape([1 if i in axes else d for i, d in enumerate(shape.dims)])
    return TensorShape([d for i, d in enumerate(shape.dims) if i not in axes])


def _infer_reduce(inputs, attrs):
    x = inputs[0]
    return [(x.dtype, _reduced_shape(x.shape, attrs["axis"], attrs["keepdims"]))]


@define_op("Sum", infer=_infer_reduce)
def _sum(x, axis, keepdims):
    return np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


@define_op("Prod", infer=_infer_reduce)
def _prod(x, axis, keepdims):
    return np.prod(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


@define_op("Mean", infer=_infer_reduce)
def _mean(x, axis, keepdims):
    if x.dtype.kind in "iu":
        total = np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
        count = _count(x.shape, axis)
        if count == 0:
            return total                         # an empty integer mean is 0, as in TF
        quotient = np.abs(total) // count        # integer mean truncates toward zero
        return (np.sign(total) * quotient).astype(x.dtype)
    if x.size == 0:                              # 0 / 0: NaN, without numpy's warning
        return np.full_like(np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims), np.nan)
    return np.mean(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _count(shape, axis):
    """How many elements each reduced value is made of."""
    if axis is None:
        return int(np.prod(shape))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return int(np.prod([shape[a] for a in axes]))


@define_op("Max", infer=_infer_reduce)
def _max(x, axis, keepdims):
    if x.size == 0:                 # the identity: -inf, or the integer dtype's lowest
        return np.max(x, axis=axis, keepdims=keepdims, initial=_lowest(x.dtype))
    return np.max(x, axis=axis, keepdims=keepdims)


@define_op("Min", infer=_infer_reduce)
def _min(x, axis, keepdims):
    if x.size == 0:                 # the identity: +inf, or the integer dtype's highest
        return np.min(x, axis=axis, keepdims=keepdims, initial=_highest(x.dtype))
    return np.min(x, axis=axis, keepdims=keepdims)


def _lowest(np_dtype):
    return -np.inf if np_dtype.kind == "f" else np.iinfo(np_dtype).min


def _highest(np_dtype):
    return np.inf if np_dtype.kind == "f" else np.iinfo(np_dtype).max


@define_op("All", infer=_infer_reduce)
def _all(x, axis, keepdims):
    return np.all(x, axis=axis, keepdims=keepdims)


@define_op("Any", infer=_infer_reduce)
def _any(x, axis, keepdims):
    return np.any(x, axis=axis, keepdims=keepdims)


def _reduce(op_name, input_tensor, axis, keepdims, allowed):
    x = convert_to_tensor(input_tensor)
    if x.dtype not in allowed:
        raise dtype_error(op_name, x.dtype, allowed)
    attrs = {"axis": static_axis(axis, op_name), "keepdims": static_bool(keepdims, op_name, "keepdims")}
    if x.__class__ is EagerTensor and current_graph() is None:
        _check_axes_now(op_name, attrs["axis"], x.shape.rank)
        return run_kernel_now(op_name, (x,), attrs, x.dtype)
    return apply(op_name, (x,), attrs)


def _check_axes_now(op_name, axis, rank):
    """Eagerly, an axis out of range is TensorFlow's InvalidArgumentError."""
    axes = () if axis is None else axis if isinstance(axis, tuple) else (axis,)
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(
                f"{op_name}: Invalid reduction dimension ({a} for input with {rank} "
                f"dimension(s)); expected {-rank} <= axis < {rank}", op_name)
    if len({a % rank for a in axes}) != len(axes):
        raise InvalidArgumentError(f"{op_name}: Invalid reduction arguments: axis "
                                   f"{list(axes)} contains a duplicate dimension", op_name)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over `axis` (all axes when None)."""
    return _reduce("Sum", input_tensor, axis, keepdims, NUMERIC)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over `axis`; integer inputs give the truncated integer mean."""
    return _reduce("Mean", input_tensor, axis, keepdims, NUMERIC)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Maximum over `axis`."""
    return _reduce("Max", input_tensor, axis, keepdims, NUMERIC)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Minimum over `axis`."""
    return _reduce("Min", input_tensor, axis, keepdims, NUMERIC)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product over `axis`."""
    return _reduce("Prod", input_tensor, axis, keepdims, NUMERIC)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical AND over `axis` of a bool tensor."""
    return _reduce("All", input_tensor, axis, keepdims, BOOL)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical OR over `axis` of a bool tensor."""
    return _reduce("Any", input_tensor, axis, keepdims, BOOL)


# --- argmax / argmin -----------------------------------------------------------

def _infer_arg(inputs, attrs):
    x = inputs[0]
    return [(attrs["output_type"], _reduced_shape(x.shape, attrs["axis"], False))]


@define_op("ArgMax", infer=_infer_arg)
def _argmax(x, axis, output_type):
    _check_arg_axis("ArgMax", x, axis)
    return np.argmax(x, axis=axis).astype(output_type.np_dtype)


@define_op("ArgMin", infer=_infer_arg)
def _argmin(x, axis, output_type):
    _check_arg_axis("ArgMin", x, axis)
    return np.argmin(x, axis=axis).astype(output_type.np_dtype)


def _check_arg_axis(op_name, x, axis):
    """TensorFlow's errors for an axis out of range or of length 0."""
    rank = np.ndim(x)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{op_name}: Expected dimension in the range "
                                   f"[{-rank}, {rank}), but got {axis}", op_name)
    if rank and np.shape(x)[axis] == 0:
        raise InvalidArgumentError(f"{op_name}: Reduction axis {axis} is empty in shape "
                                   f"{list(np.shape(x))}", op_name)


def _arg(op_name, x, axis, output_type):
    x = convert_to_tensor(x)
    if x.dtype not in NUMERIC:
        raise dtype_error(op_name, x.dtype, NUMERIC)
    axis = 0 if axis is None else static_axis(axis, op_name)
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError(f"{op_name}: axis must be a single int, got {list(axis)}")
        axis = axis[0]
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_name}: output_type must be int32 or int64, got {output_type.name}")
    return apply(op_name, (x,), {"axis": axis, "output_type": output_type})


def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the largest value along `axis` (0 when None); int64 by default."""
    return _arg("ArgMax", input, axis, output_type)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the smallest value along `axis` (0 when None); int64 by default."""
    return _arg("ArgMin", input, axis, output_type)
