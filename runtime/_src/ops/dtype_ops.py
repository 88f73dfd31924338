"""Dtype reinterpretation and lookup: `bitcast` (the `Bitcast` op) and the public
`as_dtype`, which accepts exactly what `tf.as_dtype` accepts.

    >>> bitcast(constant([1.0]), int32)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1065353216], dtype=int32)>

The public `as_dtype` is `core.dtypes.public_as_dtype` (DType `==` uses its
rules too); the engine's own `core.dtypes.as_dtype` is more lenient (it maps
Python `int` to int32 for internal callers); `tf.as_dtype(int)` raises, as in TF.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.dtypes import _ENUM, public_as_dtype as as_dtype
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import not_differentiable  # gradients
from runtime._src.ops.shape_ops import kernel_error, op_error

__all__ = ["bitcast", "as_dtype"]

_BITCASTABLE = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                dtypes.int32, dtypes.int64, dtypes.uint8)


def _bitcast_shape(shape, src, dst, error):
    """The output dims (None = unknown) of bitcasting `shape` from `src` to `dst`."""
    a, b = src.np_dtype.itemsize, dst.np_dtype.itemsize
    if shape is None:
        return None
    dims = list(shape)
    if a == b:
        return dims
    if a > b:
        return dims + [a // b]
    if not dims or dims[-1] not in (None, b // a):
        raise error(f"Cannot bitcast from {_ENUM[src]} to {_ENUM[dst]}")
    return dims[:-1]


def _infer_bitcast(inputs, attrs):
    x, dst = inputs[0], attrs["type"]
    return [(dst, TensorShape(_bitcast_shape(x.shape.dims, x.dtype, dst, ValueError)))]


@define_op("Bitcast", infer=_infer_bitcast)
def _bitcast(x, type):  # TensorFlow's attr name
    src = dtypes.as_dtype(x.dtype)
    dims = _bitcast_shape(np.shape(x), src, type, kernel_error("Bitcast"))
    return np.ascontiguousarray(x).view(type.np_dtype).reshape(dims)


not_differentiable("Bitcast")


def bitcast(input, type, name=None):  # TensorFlow's names
    """The bytes of `input` read as `type`: a wider type consumes the last dimension
    (which must hold exactly the size ratio), a narrower one adds it."""
    input = convert_to_tensor(input)
    type = as_dtype(type)
    for dtype, what in ((input.dtype, "input"), (type, "type")):
        if dtype not in _BITCASTABLE:
            raise op_error("Bitcast", f"{what} dtype {dtype.name} is not supported; expected "
                                      "a numeric dtype (not bool or string)")
    return apply("Bitcast", (input,), {"type": type})
