"""A SparseTensor times or over a dense tensor (`sp * d`, `sp / d`, TF's
SparseDenseCwiseMul / Div): the dense operand broadcast to the sparse shape
and read at the indices. Kept apart from sparse_ops so that the SparseTensor
class (whose operators these are) can import it.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import reshape, shape as shape_of, zeros_like
from runtime._src.ops.reduction_ops import reduce_sum as dense_reduce_sum
from runtime._src.ops.scatter_ops import scatter_nd

__all__ = ["cwise_with_dense"]


def _rank_of(*tensors):
    for t in tensors:
        dims = t.shape.dims
        if dims is not None and len(dims) >= 1:
            last = dims[-1] if len(dims) == 2 else dims[0]
            if last is not None:
                return last
    return None


def _to_tensor(value, dtype=None):
    if reads_as_tensor(value) and not isinstance(value, Tensor):
        value = value._as_tensor()
    return convert_to_tensor(value, dtype)


# --- elementwise with a dense operand: sp * d, sp / d ----------------------------------------

def _infer_cwise(inputs, attrs):
    return [(inputs[1].dtype, TensorShape(inputs[1].shape.dims))]


def _cwise_kernel(fn):
    def kernel(indices, values, shape, dense):
        shape = tuple(int(d) for d in np.asarray(shape))
        dense = np.asarray(dense)
        try:
            if dense.ndim > len(shape):
                raise ValueError("the dense operand has the higher rank")
            full = np.broadcast_to(dense, shape)
        except ValueError:
            raise InvalidArgumentError(
                f"SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible "
                f"shapes: [{','.join(map(str, shape))}] vs. [{','.join(map(str, dense.shape))}]",
                "SparseDenseCwise") from None
        picked = full[tuple(np.asarray(indices).T)] if len(indices) else full.reshape(-1)[:0]
        return fn(np.asarray(values), picked).astype(np.asarray(values).dtype)
    return kernel


define_op("SparseDenseCwiseMul", infer=_infer_cwise)(_cwise_kernel(np.multiply))


def _divide(a, b):
    return a / b


def _check_no_zero(dense):
    """TF's SparseDenseCwiseDiv refuses a dense operand holding a zero anywhere."""
    if np.any(np.asarray(dense) == 0):
        raise InvalidArgumentError("SparseDenseCwiseDiv cannot divide by zero,but input dense "
                                   "tensor contains zero ", "SparseDenseCwiseDiv")


_div_kernel = _cwise_kernel(_divide)


@define_op("SparseDenseCwiseDiv", infer=_infer_cwise)
def _sparse_dense_div(indices, values, shape, dense):
    _check_no_zero(dense)
    return _div_kernel(indices, values, shape, dense)


def _dense_grad(op, values_grad_part, grad):
    """The dense operand's gradient: scattered per value, then summed over
    the dimensions it was broadcast along."""
    indices, shape, dense = op.inputs[0], op.inputs[2], op.inputs[3]
    scattered = scatter_nd(indices, values_grad_part, shape)
    rank = dense.shape.rank
    full_rank = _rank_of(indices, shape)
    if rank is None or full_rank is None:
        raise ValueError("the gradient of a sparse * dense product needs known ranks")
    lead = list(range(full_rank - rank))
    if lead:
        scattered = dense_reduce_sum(scattered, axis=lead)
    axes = [i for i, d in enumerate(dense.shape.dims) if d == 1]
    if axes:
        scattered = dense_reduce_sum(scattered, axis=axes, keepdims=True)
    return reshape(scattered, shape_of(dense))


def _picked(op):
    indices, shape, dense = op.inputs[0], op.inputs[2], op.inputs[3]
    ones = apply("SparseDenseCwiseMul", (indices, math_ops.cast(
        _ones_like_values(op.inputs[1]), dense.dtype), shape, dense))
    return ones


def _ones_like_values(values):
    return math_ops.add(zeros_like(values), 1)


@define_grad("SparseDenseCwiseMul")
def _cwise_mul_grad(op, grad):
    values = op.inputs[1]
    dense_at = _picked(op)
    return [None, math_ops.multiply(grad, dense_at), None,
            _dense_grad(op, math_ops.multiply(grad, values), grad)]


@define_grad("SparseDenseCwiseDiv")
def _cwise_div_grad(op, grad):
    values = op.inputs[1]
    dense_at = _picked(op)
    values_grad = math_ops.truediv(grad, dense_at)
    part = math_ops.negative(math_ops.truediv(math_ops.multiply(grad, values),
                                              math_ops.square(dense_at)))
    return [None, values_grad, None, _dense_grad(op, part, grad)]


def cwise_with_dense(sp, other, kind):
    """`sp * other` / `sp / other` (TF's SparseTensor operators): the values
    times (over) the dense operand broadcast to sp's shape, at sp's indices."""
    if hasattr(other, "dense_shape") and hasattr(other, "indices"):    # a SparseTensor
        raise TypeError(f"SparseTensor {'*' if kind == 'Mul' else '/'} SparseTensor is not "
                        "supported (as in TensorFlow); use tf.sparse.to_dense on one side")
    dense = _to_tensor(other, sp.dtype)
    values = sp.values
    if kind == "Div" and sp.dtype.is_integer:      # `/` of integers: floats, as TF's truediv
        out = dtypes.float64 if sp.dtype.np_dtype.itemsize >= 4 else dtypes.float32
        values, dense = math_ops.cast(values, out), math_ops.cast(dense, out)
    values = apply(f"SparseDenseCwise{kind}", (sp.indices, values, sp.dense_shape, dense))
    return sp.with_values(values)
