"""What the shape ops share for their arguments: the error a bad argument
raises (`op_error`: InvalidArgumentError eagerly, ValueError while tracing, as
TF), a kernel's error maker, and `int_tensor` for index-like arguments."""

import numpy as np

from runtime._src.core import tensor as _tensor
from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.graph.graph import current_graph

__all__ = ["op_error", "kernel_error", "int_tensor"]


def op_error(op_name, message):
    """A bad argument found before the op runs: InvalidArgumentError eagerly (TF's
    kernels raise it), ValueError while tracing (TF's shape functions do)."""
    if current_graph() is None:
        return InvalidArgumentError(f"{op_name}: {message}", op_name)
    return ValueError(f"{op_name}: {message}")


def kernel_error(op_name):
    """A function making the InvalidArgumentError a kernel of `op_name` raises."""
    return lambda message: InvalidArgumentError(f"{op_name}: {message}", op_name)


def int_tensor(value, op_name, what, dtype=dtypes.int32):
    """An index-like argument as an int32/int64 tensor (TypeError for other dtypes)."""
    value = unwrap_variable(value)
    if isinstance(value, Tensor):
        if value.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"{op_name}: {what} must be an int32 or int64 tensor, got "
                            f"{value.dtype.name}")
        return value
    if isinstance(value, (list, tuple)) and any(_tensor.is_tensor_like(v)
                                                for v in _tensor.flatten_lists(value)):
        return int_tensor(convert_to_tensor(value), op_name, what, dtype)   # packed, as TF
    array = np.asarray(value)
    if array.dtype.kind not in "iu" and not (array.size == 0 and array.dtype.kind == "f"):
        raise TypeError(f"{op_name}: {what} must hold integers (int32 or int64), got {value!r}")
    return convert_to_tensor(array.astype(dtype.np_dtype), dtype)


def _dims(shape):
    return list(shape.dims) if shape.dims is not None else None
