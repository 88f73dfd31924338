"""`where` (select by a condition, or the coordinates of its true elements),
`cast` and `identity`.

    >>> where(constant([True, False]), 1, 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import dispatch_api
from runtime._src.core.errors import UnimplementedError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import (apply, define_grad, define_op,
                                            not_differentiable)
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import convert_pair, map_composite_values
from runtime._src.ops.gradient_ops import unbroadcast

__all__ = ["where", "cast", "identity"]


# --- where, cast, identity -----------------------------------------------------

def _infer_select(inputs, attrs):
    c, x, y = inputs
    if c.dtype is not dtypes.bool:
        raise TypeError(f"condition must be a bool tensor, got {c.dtype.name}")
    rules.check_same_dtype(x, y)
    shape = rules.broadcast_shapes(c.shape, rules.broadcast_shapes(x.shape, y.shape))
    return [(x.dtype, shape)]


@define_op("SelectV2", infer=_infer_select)
def _select(c, x, y):
    return np.where(c, x, y)


@define_grad("SelectV2")
def _select_grad(op, grad):
    c, x, y = op.inputs
    return [None, unbroadcast(where(c, grad, 0), x), unbroadcast(where(c, 0, grad), y)]


def _infer_where(inputs, attrs):
    c = inputs[0]
    if c.dtype is not dtypes.bool and not (c.dtype.is_integer or c.dtype.is_floating
                                           or c.dtype.is_complex):
        raise TypeError(f"where: condition must be a bool or numeric tensor (its nonzero "
                        f"elements count as true), got {c.dtype.name}")
    return [(dtypes.int64, TensorShape([None, c.shape.rank]))]


@define_op("Where", infer=_infer_where)
def _where(c):
    return np.argwhere(c).astype(np.int64)


not_differentiable("Where")


def where(condition, x=None, y=None, name=None):
    """Elements of x where condition is true, else of y (broadcasting all three).

    With only `condition`: the int64 coordinates of its true (or, for a numeric
    condition, nonzero) elements, [N, rank].
    """
    out = dispatch_api("where", (condition, x, y), condition, x, y)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    condition = convert_to_tensor(condition)
    if x is None and y is None:
        return apply("Where", (condition,))      # numeric: the nonzero elements, as TF
    if condition.dtype is not dtypes.bool:
        raise TypeError(f"where: condition must be a bool tensor, got {condition.dtype.name}")
    if x is None or y is None:
        raise ValueError("where: x and y must both be given, or neither")
    x, y = convert_pair(x, y, "SelectV2")
    return apply("SelectV2", (condition, x, y))


def _infer_cast(inputs, attrs):
    return [(attrs["dtype"], inputs[0].shape)]


@define_op("Cast", infer=_infer_cast)
def _cast(x, dtype):
    source = dtypes.as_dtype(x.dtype)
    if source in dtypes.NARROW or dtype in dtypes.NARROW:
        return _narrow_cast(x, source, dtype)
    if x.dtype.kind == "c" and not dtype.is_complex:
        x = x.real                     # TF keeps the real part (numpy would warn)
    if dtype is dtypes.bfloat16 and x.dtype.kind in "iuf":
        x = x.astype(np.float32)       # TF rounds through float32 (twice: 1 + 2**-8 + 2**-30 -> 1)
    return x.astype(dtype.np_dtype)


_FLOAT8_CASTS = (dtypes.float8_e4m3fn, dtypes.float8_e5m2)
_INT4 = (dtypes.int4, dtypes.uint4)
# TF's names of dtypes in its kernels' messages ("Cast float to int4 is not supported").
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _narrow_cast_supported(source, target):
    """TF 2.21's CPU Cast kernels of the narrow dtypes: e4m3fn/e5m2 from the wider
    floats and to any number or bool; int4/uint4 to and from integers only; the
    others (the fnuz floats, float4, int2, uint2) only to themselves."""
    if source is target:
        return True
    if source not in _FLOAT8_CASTS + _INT4 and source in dtypes.NARROW or \
            target not in _FLOAT8_CASTS + _INT4 and target in dtypes.NARROW:
        return False
    if target in _FLOAT8_CASTS:
        return source in _FLOAT8_CASTS or source in (dtypes.float16, dtypes.bfloat16,
                                                     dtypes.float32, dtypes.float64)
    if source in _FLOAT8_CASTS:
        return target not in _INT4 and not target.is_string
    return (source.is_integer and target.is_integer and not source.is_bool
            and not target.is_bool)


def _narrow_cast(x, source, target):
    if not _narrow_cast_supported(source, target):
        names = [_KERNEL_NAMES.get(d.name, d.name) for d in (source, target)]
        raise UnimplementedError(f"Cast {names[0]} to {names[1]} is not supported", "Cast")
    if source is target:
        return x
    if source in _FLOAT8_CASTS:          # as float32, by float32's rules from there
        return _cast(x.astype(np.float32), target)
    if source in _INT4:
        x = x.astype(np.int8)
    elif target in _INT4:
        x = x.astype(np.int64)           # wraps to the low 4 bits, as TF
    return x.astype(target.np_dtype)


@define_grad("Cast")
def _cast_grad(op, grad):
    source, target = op.inputs[0].dtype, op.attrs["dtype"]
    if (source.is_floating or source.is_complex) and (target.is_floating or target.is_complex):
        if source.is_floating and target.is_complex:
            grad = apply("Real", (grad,))      # a real source moved only the real part
        return [cast(grad, source)]
    return [None]


def cast(x, dtype, name=None):
    """x converted to `dtype` (floats truncate toward zero; nonzero -> True)."""
    dtype = dtypes.as_dtype(dtype)
    if not isinstance(x, Tensor):
        mapped = map_composite_values(x, "Cast", lambda v: cast(v, dtype))
        if mapped is not NotImplemented:
            return mapped
    x = convert_to_tensor(x)
    if x.dtype is dtype:
        return x
    if x.dtype.is_string or dtype.is_string:
        raise TypeError(f"Cast: casting {x.dtype.name} to {dtype.name} is not supported")
    return apply("Cast", (x,), {"dtype": dtype})


@define_op("Identity", infer=rules.same_as_first)
def _identity(x):
    return x


@define_grad("Identity")
def _identity_grad(op, grad):
    return [grad]


def identity(input, name=None):  # TensorFlow's argument name
    """A tensor with the same value as `input` (a new node when tracing)."""
    if not isinstance(input, Tensor):
        mapped = map_composite_values(input, "Identity", identity)
        if mapped is not NotImplemented:
            return mapped
    return apply("Identity", (convert_to_tensor(input),))
