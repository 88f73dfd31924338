"""`tf.experimental.numpy`'s dtypes and conversion: NumPy's inference and
promotion rules over our tensors.

The dtype names (`tnp.float32`, `tnp.int_`, ...) are NumPy's scalar types, as
TensorFlow exposes them. `result_type` is NumPy's `np.result_type` applied to
the operands' dtypes (tensors count by their dtype, Python scalars are weak),
except that with `prefer_float32` (set by `experimental_enable_numpy_behavior`)
a Python float counts as float32 and `default_float_type()` is float32.

    result_type(tensor_of_int32, 1.5)     # float64
    asarray([1, 2])                       # int64 tensor
"""

import numbers

import numpy as np

from runtime._src.core import dtype_promotion, dtypes
from runtime._src.ops.base_ops import weak_input
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops import manipulation_ops, math_ops

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128", "int_", "float_",
           "complex_", "object_", "string_", "unicode_", "inexact", "iinfo", "finfo",
           "issubdtype", "promote_types", "result_type", "default_float_type", "asarray",
           "asanyarray", "array", "ascontiguousarray", "is_prefer_float32",
           "set_prefer_float32"]

bool_, int8, int16, int32, int64 = np.bool_, np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
int_, float_, complex_ = np.int64, np.float64, np.complex128
object_, string_, unicode_ = np.object_, np.bytes_, np.str_
inexact, iinfo = np.inexact, np.iinfo


class _Config:
    """The one setting tnp's dtype inference reads: whether a Python float
    is float32 (`prefer_float32`) rather than NumPy's float64."""
    prefer_float32 = False


def is_prefer_float32():
    return _Config.prefer_float32


def set_prefer_float32(value):
    _Config.prefer_float32 = bool(value)


def default_float_type():
    """float64, or float32 under `prefer_float32`."""
    return np.float32 if _Config.prefer_float32 else np.float64


def _as_np_type(x):
    """What np.result_type is given for one operand: a tensor's or DType's
    numpy dtype, a Python float as float32 under prefer_float32, else x."""
    if reads_as_tensor(x) and not isinstance(x, Tensor):
        x = x._as_tensor()
    if isinstance(x, (Tensor, dtypes.DType)) or (
            hasattr(x, "dtype") and isinstance(x.dtype, dtypes.DType)):
        d = x if isinstance(x, dtypes.DType) else x.dtype
        return np.dtype(object) if d.is_string else d.np_dtype
    if _Config.prefer_float32 and isinstance(x, float):
        return np.float32(x)
    if _Config.prefer_float32 and isinstance(x, complex):
        return np.complex64(x)
    return x


def _flatten(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        else:
            yield v


def np_result_type(*arrays_and_dtypes):
    """The numpy dtype NumPy's rules give these operands (see the module doc)."""
    items = [_as_np_type(x) for x in _flatten(arrays_and_dtypes)]
    if not items:
        return np.dtype(np.float64)
    return np.result_type(*items)


def result_type(*arrays_and_dtypes):
    """`tnp.result_type`: the promoted dtype, as a `tf.DType`."""
    return dtypes.as_dtype(np_result_type(*arrays_and_dtypes))


def _np_dtype_of(value):
    if isinstance(value, dtypes.DType):
        return value.np_dtype
    if hasattr(value, "dtype") and isinstance(value.dtype, dtypes.DType):
        return value.dtype.np_dtype
    return np.dtype(value)


def promote_types(type1, type2):
    """`tnp.promote_types`: NumPy's promote_types of two dtypes (a numpy dtype)."""
    return np.promote_types(_np_dtype_of(type1), _np_dtype_of(type2))


def finfo(dtype):
    """`tnp.finfo`: NumPy's finfo of a dtype (a tf.DType, numpy type or tensor)."""
    return np.finfo(_np_dtype_of(dtype))


def issubdtype(arg1, arg2):
    """`tnp.issubdtype`: NumPy's issubdtype, tf.DTypes accepted."""
    def conv(a):
        return a.np_dtype if isinstance(a, dtypes.DType) else a
    return np.issubdtype(conv(arg1), conv(arg2))


def _tf_dtype(dtype):
    return None if dtype is None else result_type(dtype)


def _has_tensor(value):
    if isinstance(value, (list, tuple)):
        return any(_has_tensor(v) for v in value)
    return isinstance(value, Tensor) or reads_as_tensor(value)


def _stack(value, dtype):
    if isinstance(value, (list, tuple)):
        return manipulation_ops.stack([_stack(v, dtype) for v in value])
    return asarray(value, dtype)


def asarray(a, dtype=None):
    """`tnp.asarray`: a tensor of `a`, its dtype `dtype` (any dtype-like) or
    the one NumPy infers (Python ints int64, floats float64 or float32 under
    prefer_float32); a tensor of that dtype is returned as it is."""
    dtype = _tf_dtype(dtype)
    if dtype is None and dtype_promotion.mode() is not None:
        weak = weak_input(a)
        if weak is not a:
            return weak
    if reads_as_tensor(a) and not isinstance(a, Tensor):
        a = a._as_tensor()
    if isinstance(a, Tensor):
        return a if dtype is None or dtype == a.dtype else math_ops.cast(a, dtype)
    if _has_tensor(a):
        return _stack(a, dtype or result_type(a))
    values = np.asarray(a)
    if values.dtype.kind in "USO":
        return convert_to_tensor(values)
    if dtype is None:
        dtype = result_type(a) if isinstance(a, (numbers.Number, list, tuple)) else \
            dtypes.as_dtype(values.dtype)
    return convert_to_tensor(values.astype(dtype.np_dtype))


asanyarray = asarray


def array(val, dtype=None, copy=True, ndmin=0):
    """`tnp.array`: asarray, then reshaped with leading 1s to `ndmin` axes."""
    if ndmin > 32:
        raise ValueError(f"tnp.array: ndmin must be at most 32, got {ndmin}")
    out = asarray(val, dtype)
    for _ in range(ndmin - out.shape.rank):
        out = manipulation_ops.expand_dims(out, 0)
    return out


def ascontiguousarray(a, dtype=None):
    """`tnp.ascontiguousarray`: an array of at least one axis."""
    return array(a, dtype, ndmin=1)
