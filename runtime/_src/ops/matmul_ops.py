"""`matmul`: the matrix product of the last two dimensions, batched over the
leading ones (`a @ b`), with its transpose and adjoint flags and its gradient."""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.arithmetic_ops import _conj
from runtime._src.ops.base_ops import ARITHMETIC, convert_pair, dtype_error
from runtime._src.ops.base_ops import binary as _binary  # short local name
from runtime._src.ops.gradient_ops import unbroadcast

__all__ = ["matmul"]


# --- matmul --------------------------------------------------------------------

def _infer_matmul(inputs, attrs):
    a, b = inputs
    rules.check_same_dtype(a, b)
    sa, sb = a.shape, b.shape
    if sa.dims is None or sb.dims is None:
        return [(a.dtype, TensorShape(None))]
    if len(sa.dims) < 2 or len(sb.dims) < 2:
        raise ValueError(f"both inputs must be matrices (rank >= 2), got shapes "
                         f"{rules.dims_text(sa)} and {rules.dims_text(sb)}")
    m, k = sa.dims[-2:] if not attrs.get("transpose_a") else sa.dims[-2:][::-1]
    k2, n = sb.dims[-2:] if not attrs.get("transpose_b") else sb.dims[-2:][::-1]
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f"Dimensions must be equal, but are {k} and {k2} for matmul of "
                         f"shapes {rules.dims_text(sa)} and {rules.dims_text(sb)}")
    batch = rules.broadcast_shapes(TensorShape(sa.dims[:-2]), TensorShape(sb.dims[:-2]))
    return [(a.dtype, TensorShape(batch.dims + (m, n)))]


@define_op("MatMul", infer=_infer_matmul)
def _matmul(a, b, transpose_a=False, transpose_b=False):
    if a.ndim < 2 or b.ndim < 2:
        raise InvalidArgumentError(f"MatMul: both inputs must be matrices (rank >= 2), got "
                                   f"shapes {list(a.shape)} and {list(b.shape)}")
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    if a.shape[-1] != b.shape[-2]:
        raise InvalidArgumentError(f"MatMul: Matrix size-incompatible: In[0]: {list(a.shape)}, "
                                   f"In[1]: {list(b.shape)}")
    return np.matmul(a, b)


@define_grad("MatMul")
def _matmul_grad(op, grad):
    a, b = _conj(op.inputs[0]), _conj(op.inputs[1])
    ta, tb = op.attrs.get("transpose_a", False), op.attrs.get("transpose_b", False)
    if not ta and not tb:
        ga, gb = _mm(grad, b, False, True), _mm(a, grad, True, False)
    elif not ta:
        ga, gb = _mm(grad, b, False, False), _mm(grad, a, True, False)
    elif not tb:
        ga, gb = _mm(b, grad, False, True), _mm(a, grad, False, False)
    else:
        ga, gb = _mm(b, grad, True, True), _mm(grad, a, True, True)
    return [unbroadcast(ga, a), unbroadcast(gb, b)]


def _mm(a, b, transpose_a, transpose_b):
    attrs = {"transpose_a": True} if transpose_a else {}
    if transpose_b:
        attrs["transpose_b"] = True
    return apply("MatMul", (a, b), attrs or None)


def _conjugated(x, adjoint):
    """`x` conjugated when `adjoint` is set and it is complex (an adjoint is
    the conjugate transpose; real values pass through)."""
    if not adjoint or (isinstance(x, Tensor) and not x.dtype.is_complex):
        return x
    x = convert_to_tensor(x)
    return apply("Conj", (x,)) if x.dtype.is_complex else x


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Matrix product of the last two dims (batched over leading dims); `a @ b`.
    `grad_a`/`grad_b` (TF's hints that the product is a gradient) change nothing."""
    flag = rules.static_bool
    if flag(adjoint_a, "MatMul", "adjoint_a") or flag(adjoint_b, "MatMul", "adjoint_b"):
        a, b = _conjugated(a, adjoint_a), _conjugated(b, adjoint_b)
    transpose_a = flag(transpose_a, "MatMul", "transpose_a") or flag(adjoint_a, "MatMul", "adjoint_a")
    transpose_b = flag(transpose_b, "MatMul", "transpose_b") or flag(adjoint_b, "MatMul", "adjoint_b")
    if not (transpose_a or transpose_b):
        return _binary("MatMul", a, b, ARITHMETIC)
    a, b = convert_pair(a, b, "MatMul")
    if a.dtype not in ARITHMETIC:
        raise dtype_error("MatMul", a.dtype, ARITHMETIC)
    return apply("MatMul", (a, b), {"transpose_a": transpose_a, "transpose_b": transpose_b})
