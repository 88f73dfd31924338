"""The weak forms of ops under TF's auto dtype conversion (see
ops/weak_tensor.py and core/dtype_promotion.py): binary ops promote their
operands by TF's lattice, and the ops TF lists keep a weak input weak.
`install()` (np_config calls it at import) registers them with the API
dispatch and base_ops' hooks; they act only while the mode is on.
"""

import numpy as np

from runtime._src.core.protocols import reads_as_tensor
from runtime._src.core import dtype_promotion
from runtime._src.core.composite import register_api
from runtime._src.core.dtypes import as_dtype
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.ops import array_ops, base_ops, manipulation_ops, reduction_ops
from runtime._src.ops.math_ops import cast, truediv
from runtime._src.ops.weak_tensor import WEAK_BINARY, WEAK_UNARY, WeakTensor

__all__ = ["operand_type", "promoted_binary", "install"]


def operand_type(x):
    """(DType, weak) of a binary op's operand under auto dtype conversion."""
    if isinstance(x, WeakTensor):
        return x.dtype, True
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return as_dtype(dtype), False
    found = dtype_promotion.python_type(x)
    if found is None:
        return convert_to_tensor(x).dtype, False
    return found


# The dtypes TF cannot convert a Python bool to (so `True + tf.constant(1, tf.int8)`
# is a TypeError there).
_NO_BOOL_CONVERSION = frozenset(("int8", "int16", "uint8", "uint16", "uint32", "complex64"))


def _strong(x, dtype):
    """Operand `x` as a strong tensor of `dtype`."""
    if isinstance(x, WeakTensor):
        x = x._tensor
    elif reads_as_tensor(x) and not isinstance(x, Tensor):
        x = x._as_tensor()
    if isinstance(x, Tensor):
        return x if x.dtype is dtype else cast(x, dtype)
    if isinstance(x, bool) and dtype.name in _NO_BOOL_CONVERSION:
        raise TypeError(f"Cannot convert {x} to EagerTensor of dtype {dtype.name}")
    if dtype_promotion.python_type(x) is None and hasattr(x, "dtype"):
        return cast(convert_to_tensor(x), dtype)       # a numpy value of another dtype
    if dtype.is_integer and not isinstance(x, bool) and isinstance(x, int):
        # a Python int wraps into a narrower int, as in TF (int8 10 + 1000 is -19)
        return convert_to_tensor(np.asarray(x, np.int64).astype(dtype.np_dtype))
    return convert_to_tensor(x, dtype)


def promoted_binary(name, x, y, fn):
    """Binary op `name` (its plain form `fn`) with the operands promoted by
    TF's lattice; weak when the promotion is and the op keeps it."""
    dtype, weak = dtype_promotion.result_type(operand_type(x), operand_type(y))
    if name == "RealDiv":
        fn = truediv                # integers divide to floats: truediv knows which
    out = fn(_strong(x, dtype), _strong(y, dtype))
    return WeakTensor(out) if weak and name in WEAK_BINARY else out


def _keep_weak(op):
    def handler(value, *args):
        return WeakTensor(op(value._tensor, *args))
    return handler


_REDUCTIONS = {"Sum": "reduce_sum", "Mean": "reduce_mean", "Max": "reduce_max",
               "Min": "reduce_min", "Prod": "reduce_prod", "All": "reduce_all",
               "Any": "reduce_any", "EuclideanNorm": "reduce_euclidean_norm"}


def _weak_reduce(value, op_name, axis, keepdims):
    reduce = getattr(reduction_ops, _REDUCTIONS[op_name])
    return WeakTensor(reduce(value._tensor, axis, keepdims))


def install():
    """Register the weak forms of ops (np_config calls this once at import)."""
    register_api(WeakTensor, "expand_dims")(_keep_weak(manipulation_ops.expand_dims))
    register_api(WeakTensor, "squeeze")(_keep_weak(manipulation_ops.squeeze))
    register_api(WeakTensor, "zeros_like")(
        lambda v, dtype=None: array_ops.zeros_like(v._tensor, dtype) if dtype is not None
        else WeakTensor(array_ops.zeros_like(v._tensor)))
    register_api(WeakTensor, "ones_like")(
        lambda v, dtype=None: array_ops.ones_like(v._tensor, dtype) if dtype is not None
        else WeakTensor(array_ops.ones_like(v._tensor)))
    register_api(WeakTensor, "reduce")(_weak_reduce)
    register_api(WeakTensor, "binary")(promoted_binary)
    base_ops.auto_conversion.binary = promoted_binary
    base_ops.auto_conversion.wrap = WeakTensor
    base_ops.auto_conversion.unary = weak_unary


def weak_unary(value, fn, op_name):
    """A unary op of a Python value under auto dtype conversion: weak when the
    value's type is weak and the op is on TF's list."""
    found = dtype_promotion.python_type(value)
    if found is None:
        return None
    out = fn(convert_to_tensor(value, found[0]))
    return WeakTensor(out) if found[1] and op_name in WEAK_UNARY else out

