"""`tf.make_tensor_proto` and `tf.make_ndarray`: values to and from TensorFlow's
TensorProto (graph/graphdef.py's message: `str()` is TF's text format and
`SerializeToString()` TF's bytes).

    proto = make_tensor_proto([1, 2, 3])   # dtype: DT_INT32, tensor_content (raw bytes)
    make_tensor_proto(1., shape=[2, 3])    # float_val: 1 (read back as six ones)
    make_ndarray(proto)                    # array([1, 2, 3], dtype=int32)

As TensorFlow writes them: numeric values of more than one element (bool and
complex128 aside) go to `tensor_content`; others to the typed `*_val` fields
(float16 as its bits in `half_val`, complex as (real, imag) pairs), strings to
`string_val`; a shape larger than the values keeps them, and reading fills the
rest with the last value.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import (Tensor, is_symbolic_tensor, to_numpy_value,
                                       unwrap_variable)
from runtime._src.graph.graphdef import TensorProto, shape_proto
from runtime._src.graph.protobuf_text import DATA_TYPES

__all__ = ["make_tensor_proto", "make_ndarray"]

_CONTENT_KINDS = "fiuc"   # numeric but bool and complex128: raw bytes past one element
_VAL_FIELDS = {"float32": "float_val", "float64": "double_val", "int64": "int64_val",
               "bool": "bool_val", "float16": "half_val", "bfloat16": "half_val", "uint32": "uint32_val",
               "uint64": "uint64_val", "complex64": "scomplex_val",
               "complex128": "dcomplex_val", "string": "string_val"}
_CODES = {code: name for name, code in DATA_TYPES.items()}


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """`tf.make_tensor_proto`: a TensorProto of `values` (converted as
    `tf.constant` converts them) with `shape` when given."""
    if isinstance(values, TensorProto):
        return values
    arr, name = _as_numpy(values, dtype)
    dims = tuple(arr.shape) if shape is None else tuple(int(d) for d in shape)
    _check_shape(arr, dims, verify_shape, allow_broadcast)
    proto = TensorProto(dtype=DATA_TYPES[name], tensor_shape=shape_proto(dims))
    same_size = arr.size == int(np.prod(dims, dtype=np.int64))
    if name not in ("bool", "complex128") and (arr.dtype.kind in _CONTENT_KINDS
                                               or name == "bfloat16") and same_size \
            and arr.size > 1:
        proto.tensor_content = np.ascontiguousarray(arr, arr.dtype.newbyteorder("<")).tobytes()
        return proto
    flat = arr.reshape(-1)
    if name in ("float16", "bfloat16"):
        flat = flat.view(np.uint16)          # half_val holds the 16 bits
    elif arr.dtype.kind == "c":
        flat = np.stack([flat.real, flat.imag], -1).reshape(-1)
    if name == "string":
        values = [v if isinstance(v, bytes) else str(v).encode() for v in flat.tolist()]
    else:
        values = flat.tolist()
    setattr(proto, _VAL_FIELDS.get(name, "int_val"), values)
    return proto


def _as_numpy(values, dtype):
    """(numpy value, dtype name) of `values`, as `tf.constant` converts them,
    without adding a node to a graph being traced."""
    values = unwrap_variable(values)
    if is_symbolic_tensor(values):    # TF 2.21's message
        raise TypeError("Expected any non-tensor type, but got a tensor instead.")
    if isinstance(values, Tensor):
        values = values.numpy()
    arr = to_numpy_value(values, dtype)
    if arr.dtype == object or arr.dtype.kind in "SU":
        return np.asarray(arr, object), "string"
    return np.asarray(arr), dtypes.as_dtype(arr.dtype).name


def _check_shape(arr, dims, verify_shape, allow_broadcast):
    size = int(np.prod(dims, dtype=np.int64))
    if allow_broadcast:
        if arr.shape not in ((), (1,)) and arr.size != size:
            raise TypeError(f"Expected Tensor's shape: {dims}, but got {arr.shape}.")
        return
    if verify_shape and tuple(arr.shape) != dims:
        raise TypeError(f"Expected Tensor's shape: {dims}, but got {arr.shape}.")
    if arr.size > size:
        raise ValueError(f"Too many elements provided. Takes at most {size}, but got {arr.size}.")


def make_ndarray(tensor):
    """`tf.make_ndarray`: the numpy value of a TensorProto (strings as an object
    array of bytes, as TensorFlow)."""
    if not isinstance(tensor, TensorProto):
        raise TypeError(f"make_ndarray: expected a TensorProto, got {type(tensor).__name__}")
    name = _CODES.get(tensor.dtype)
    if name is None or name in ("resource", "variant"):
        raise TypeError(f"make_ndarray: unsupported tensor type {tensor.dtype}")
    dims = tuple(int(d.size) for d in tensor.tensor_shape.dim)
    size = int(np.prod(dims, dtype=np.int64))
    np_dtype = object if name == "string" else dtypes.as_dtype(name).np_dtype
    if tensor.tensor_content:
        flat = np.frombuffer(bytes(tensor.tensor_content), np.dtype(np_dtype).newbyteorder("<"))
        return flat.astype(np_dtype).reshape(dims)
    values = getattr(tensor, _VAL_FIELDS.get(name, "int_val"))
    if name in ("float16", "bfloat16"):
        values = np.asarray(values, np.uint16).view(np_dtype)
    elif name.startswith("complex"):
        pairs = np.asarray(values, np.float64).reshape(-1, 2)
        values = pairs[:, 0] + 1j * pairs[:, 1]
    values = np.array(list(values), np_dtype)
    if values.size == 0:
        return np.zeros(dims, np_dtype) if name != "string" else np.full(dims, b"", object)
    if values.size < size:
        values = np.concatenate([values, np.repeat(values[-1:], size - values.size)])
    return values.reshape(dims)
