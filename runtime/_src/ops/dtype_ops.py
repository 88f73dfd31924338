"""Dtype reinterpretation and lookup: `bitcast` (the `Bitcast` op) and the public
`as_dtype`, which accepts exactly what `tf.as_dtype` accepts.

    >>> bitcast(constant([1.0]), int32)
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1065353216], dtype=int32)>

The engine's own `core.dtypes.as_dtype` is more lenient (it maps Python `int`
to int32 for internal callers); `tf.as_dtype(int)` raises, as in TF.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import not_differentiable  # gradients
from runtime._src.ops.shape_ops import kernel_error, op_error

__all__ = ["bitcast", "as_dtype"]

# TensorFlow's DataType enum numbers (types.proto), which TF's messages and
# `tf.as_dtype(int)` use.
_ENUM = {dtypes.float32: 1, dtypes.float64: 2, dtypes.int32: 3, dtypes.uint8: 4,
         dtypes.int16: 5, dtypes.int8: 6, dtypes.string: 7, dtypes.int64: 9, dtypes.bool: 10,
         dtypes.float16: 19, dtypes.complex64: 8, dtypes.complex128: 18, dtypes.uint16: 17,
         dtypes.uint32: 22, dtypes.uint64: 23}
_BY_ENUM = {v: k for k, v in _ENUM.items()}
_NAMES = {d.name: d for d in _ENUM}
_NAMES.update({"float": dtypes.float32, "double": dtypes.float64, "half": dtypes.float16})
_BITCASTABLE = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                dtypes.int32, dtypes.int64, dtypes.uint8)


def as_dtype(type_value):
    """The `DType` for a DType, a TF dtype name ("float32", "double"...), a numpy
    dtype or scalar type, Python `float`/`bool`/`object`, or a DataType enum number."""
    if isinstance(type_value, dtypes.DType):
        return type_value
    if isinstance(type_value, (int, np.integer)) and not isinstance(type_value, (bool, np.bool_)):
        found = _BY_ENUM.get(int(type_value))
    elif isinstance(type_value, str):
        found = _NAMES.get(type_value)
        if found is None:            # the CLI shows this message: it lists the names
            raise TypeError(f"unknown dtype {type_value!r}; expected one of "
                            f"{', '.join(sorted(_NAMES))}")
    elif type_value is float:
        found = dtypes.float32
    elif type_value is complex:
        found = dtypes.complex128
    elif type_value is bool:
        found = dtypes.bool
    elif type_value is object:
        found = dtypes.string
    elif any(type_value is t for t in (int, str, bytes)) or not isinstance(type_value,
                                                                         (type, np.dtype)):
        found = None
    else:
        try:
            found = dtypes.as_dtype(np.dtype(type_value))
        except TypeError:
            found = None
    if found is None:
        raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a "
                        "TensorFlow DType.")
    return found


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
