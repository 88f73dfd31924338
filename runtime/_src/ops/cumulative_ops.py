"""`cumsum` and `cumprod` (with TF's `exclusive` and `reverse` flags) and
their gradients."""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import math_ops
from runtime._src.ops.base_ops import NUMERIC_UINTS, dtype_error
from runtime._src.ops.shape_rules import static_bool, static_int

__all__ = ["cumsum", "cumprod"]


# --- cumsum / cumprod ------------------------------------------------------------

def _infer_scan(inputs, attrs):
    """The input's shape; as TF, a bad axis fails only when the graph runs."""
    x = inputs[0]
    return [(x.dtype, x.shape)]


def _scan(x, axis, exclusive, reverse, fn, identity, op_name):
    rank = np.ndim(x)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{op_name}: Expected scan axis in the range [{-rank}, "
                                   f"{rank}), but got {axis}", op_name)
    if reverse:
        x = np.flip(x, axis)
    out = fn(x, axis=axis, dtype=x.dtype)
    if exclusive:
        shifted = np.empty_like(out)
        first, rest, prev = ([slice(None)] * rank for _ in range(3))
        first[axis], rest[axis], prev[axis] = slice(0, 1), slice(1, None), slice(None, -1)
        shifted[tuple(first)] = identity
        shifted[tuple(rest)] = out[tuple(prev)]
        out = shifted
    return np.flip(out, axis) if reverse else out


@define_op("Cumsum", infer=_infer_scan)
def _cumsum(x, axis, exclusive, reverse):
    return _scan(x, axis, exclusive, reverse, np.cumsum, 0, "Cumsum")


@define_grad("Cumsum")
def _cumsum_grad(op, grad):
    attrs = dict(op.attrs, reverse=not op.attrs["reverse"])
    return [apply("Cumsum", (grad,), attrs)]


@define_op("Cumprod", infer=_infer_scan)
def _cumprod(x, axis, exclusive, reverse):
    return _scan(x, axis, exclusive, reverse, np.cumprod, 1, "Cumprod")


@define_grad("Cumprod")
def _cumprod_grad(op, grad):
    # As TF: the reverse running sum of grad * out, divided by x, and 0 where x is 0
    # (TF 2.21: [1, 0, 0, 0] for cumprod([2, 0, 3, 0.5]) weighted 1, 2, 3, 4).
    attrs = dict(op.attrs, reverse=not op.attrs["reverse"])
    summed = apply("Cumsum", (math_ops.multiply(grad, op.outputs[0]),), attrs)
    return [_divide_no_nan(summed, op.inputs[0])]


def _divide_no_nan(x, y):
    """x / y, 0 where y == 0: TF's cumprod gradient is 0 at a zero input."""
    zero = math_ops.equal(y, math_ops.cast(0, y.dtype))
    safe = math_ops.where(zero, math_ops.cast(1, y.dtype), y)
    return math_ops.where(zero, math_ops.cast(0, x.dtype), math_ops.truediv(x, safe))


def _scan_op(op_name, x, axis, exclusive, reverse):
    x = convert_to_tensor(x)
    if x.dtype not in NUMERIC_UINTS:
        raise dtype_error(op_name, x.dtype, NUMERIC_UINTS)
    axis = static_int(axis, op_name, "axis")
    attrs = {"axis": axis, "exclusive": static_bool(exclusive, op_name, "exclusive"),
             "reverse": static_bool(reverse, op_name, "reverse")}
    return apply(op_name, (x,), attrs)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sums along `axis`; `exclusive` leaves each element out, `reverse`
    runs from the end."""
    return _scan_op("Cumsum", x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running products along `axis`; `exclusive` and `reverse` as in `cumsum`."""
    return _scan_op("Cumprod", x, axis, exclusive, reverse)
