"""`tf.experimental.numpy`'s reductions and products: sum, mean, var,
cumsum, argmax, the nan-reductions, and dot, matmul, einsum, kron, cross...

Reductions follow NumPy's dtypes as TensorFlow's tnp does: sum and prod of
bools and narrow integers accumulate in int64 (uint64 for unsigned), mean,
var and std of integers are float64, max and min keep the dtype.

    sum([True, True])           # 2, int64
    mean([1, 2])                # 1.5, float64
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.ops import (array_ops, complex_ops, einsum_ops, manipulation_ops, math_ops,
                              matrix_diag_ops, reduction_ops)
from runtime._src.ops.np_array_ops import atleast_1d, diagonal, ravel
from runtime._src.ops.np_dtypes import asarray, result_type
from runtime._src.ops.np_math_ops import isnan, promote

__all__ = ["sum", "prod", "mean", "amax", "amin", "max", "min", "all", "any", "var", "std",
           "ptp", "average", "count_nonzero", "cumsum", "cumprod", "nansum", "nanprod",
           "nanmean", "argmax", "argmin", "trace", "diff", "dot", "vdot", "inner", "outer",
           "matmul", "tensordot", "einsum", "kron", "cross", "polyval"]

_TO_INT, _TO_FLOAT = "int", "float"


def _widened(a, promote_int):
    """a with bools and integers widened as NumPy's reductions widen them."""
    if a.dtype.is_floating or a.dtype.is_complex or promote_int is None:
        return a
    if promote_int == _TO_FLOAT:
        return math_ops.cast(a, dtypes.float64)
    return math_ops.cast(a, dtypes.uint64 if a.dtype.is_unsigned else dtypes.int64)


def _reduce(fn, a, axis, dtype, keepdims, promote_int=_TO_INT, bool_fn=None,
            preserve_bool=False):
    dtype = None if not dtype else result_type(dtype)
    a = asarray(a, dtype)
    keepdims = bool(keepdims)
    if bool_fn is not None and (dtype == dtypes.bool or (preserve_bool and a.dtype.is_bool)):
        return bool_fn(a, axis=axis, keepdims=keepdims)
    if dtype is None:
        a = _widened(a, promote_int)
    if a.dtype == dtypes.uint64:     # our sums have no uint64 kernel: int64, the same bits
        return math_ops.cast(fn(math_ops.cast(a, dtypes.int64), axis=axis, keepdims=keepdims),
                             dtypes.uint64)
    return fn(a, axis=axis, keepdims=keepdims)


def sum(a, axis=None, dtype=None, keepdims=None):  # noqa: A001 - NumPy's name
    """`tnp.sum(a, axis=None, dtype=None, keepdims=None)`: bools and ints in int64."""
    return _reduce(reduction_ops.reduce_sum, a, axis, dtype, keepdims,
                   bool_fn=reduction_ops.reduce_any)


def prod(a, axis=None, dtype=None, keepdims=None):
    """`tnp.prod(a, axis=None, dtype=None, keepdims=None)`: bools and ints in int64."""
    return _reduce(reduction_ops.reduce_prod, a, axis, dtype, keepdims,
                   bool_fn=reduction_ops.reduce_all)


def mean(a, axis=None, dtype=None, out=None, keepdims=None):
    """`tnp.mean(a, axis=None, dtype=None, keepdims=None)`: ints give float64."""
    _no_out("mean", out)
    return _reduce(reduction_ops.reduce_mean, a, axis, dtype, keepdims, _TO_FLOAT)


def _no_out(name, out):
    if out is not None:
        raise ValueError(f"tnp.{name}: setting out is not supported (as in TensorFlow)")


def amax(a, axis=None, out=None, keepdims=None):
    """`tnp.amax(a, axis=None, keepdims=None)`: the largest, in a's dtype."""
    _no_out("amax", out)
    return _reduce(reduction_ops.reduce_max, a, axis, None, keepdims, None,
                   reduction_ops.reduce_any, True)


def amin(a, axis=None, out=None, keepdims=None):
    """`tnp.amin(a, axis=None, keepdims=None)`: the smallest, in a's dtype."""
    _no_out("amin", out)
    return _reduce(reduction_ops.reduce_min, a, axis, None, keepdims, None,
                   reduction_ops.reduce_all, True)


def max(a, axis=None, keepdims=None):  # noqa: A001
    """`tnp.max(a, axis=None, keepdims=None)`: amax."""
    return amax(a, axis=axis, keepdims=keepdims)


def min(a, axis=None, keepdims=None):  # noqa: A001
    """`tnp.min(a, axis=None, keepdims=None)`: amin."""
    return amin(a, axis=axis, keepdims=keepdims)


def all(a, axis=None, keepdims=None):  # noqa: A001
    """`tnp.all(a, axis=None, keepdims=None)`: whether every element is true."""
    return reduction_ops.reduce_all(asarray(a, dtypes.bool), axis=axis,
                                    keepdims=bool(keepdims))


def any(a, axis=None, keepdims=None):  # noqa: A001
    """`tnp.any(a, axis=None, keepdims=None)`: whether some element is true."""
    return reduction_ops.reduce_any(asarray(a, dtypes.bool), axis=axis,
                                    keepdims=bool(keepdims))


def _variance_ddof(ddof):
    def fn(a, axis=None, keepdims=False):
        centered = a - reduction_ops.reduce_mean(a, axis=axis, keepdims=True)
        squares = math_ops.square(math_ops.abs(centered)) if a.dtype.is_complex else \
            math_ops.square(centered)
        total = reduction_ops.reduce_sum(squares, axis=axis, keepdims=keepdims)
        n = array_ops.size(a) if axis is None else reduction_ops.reduce_prod(
            manipulation_ops.gather(array_ops.shape(a), axis))
        return total / math_ops.cast(n - ddof, total.dtype)
    return fn


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None):
    """`tnp.var(a, axis=None, dtype=None, ddof=0, keepdims=None)`: ints give float64."""
    _no_out("var", out)
    working = result_type(a, dtype) if dtype else None
    fn = reduction_ops.reduce_variance if ddof == 0 else _variance_ddof(ddof)
    out_ = _reduce(fn, a, axis, working, keepdims, _TO_FLOAT)
    return math_ops.cast(out_, result_type(dtype)) if dtype else out_


def std(a, axis=None, keepdims=None):
    """`tnp.std(a, axis=None, keepdims=None)`: ints give float64."""
    return _reduce(reduction_ops.reduce_std, a, axis, None, keepdims, _TO_FLOAT)


def ptp(a, axis=None, keepdims=None):
    """`tnp.ptp(a, axis=None, keepdims=None)`: max - min."""
    return amax(a, axis=axis, keepdims=keepdims) - amin(a, axis=axis, keepdims=keepdims)


def average(a, axis=None, weights=None, returned=False):
    """`tnp.average(a, axis=None, weights=None, returned=False)`: the
    (weighted) mean, float64 for ints; with returned, also the weights' sum."""
    if axis is not None and not isinstance(axis, int):
        raise ValueError(f"tnp.average: axis must be an integer, got {axis!r}")
    a = asarray(a)
    inexact = a.dtype.is_floating or a.dtype.is_complex
    if weights is None:
        a = a if inexact else math_ops.cast(a, result_type(a, float))
        avg = reduction_ops.reduce_mean(a, axis=axis)
        count = array_ops.size(a) if axis is None else array_ops.shape(a)[axis]
        total = math_ops.cast(count, a.dtype)
    else:
        dtype = result_type(a, weights) if inexact else result_type(a, weights, float)
        a, w = asarray(a, dtype), asarray(weights, dtype)
        if axis is None or a.shape.rank == w.shape.rank:
            total = reduction_ops.reduce_sum(w, axis=axis)
            avg = reduction_ops.reduce_sum(a * w, axis=axis) / total
        else:
            total = reduction_ops.reduce_sum(w)
            avg = einsum_ops.tensordot(a, w, [[axis], [0]]) / total
    if returned:
        return avg, array_ops.fill(array_ops.shape(avg), total) if avg.shape.rank else \
            total + 0 * avg
    return avg


def count_nonzero(a, axis=None):
    """`tnp.count_nonzero(a, axis=None)`: int64 counts."""
    return reduction_ops.count_nonzero(asarray(a), axis)


def _cumulative(name, fn):
    def f(a, axis=None, dtype=None):
        a = asarray(a, None if not dtype else result_type(dtype))
        if not dtype:
            a = _widened(a, _TO_INT)
        if axis is None:
            a, axis = ravel(a), 0
        return fn(a, axis=axis)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"`tnp.{name}(a, axis=None, dtype=None)`: flattened when axis is None; "
                 "bools and ints in int64.")
    return f


cumsum = _cumulative("cumsum", reduction_ops.cumsum)
cumprod = _cumulative("cumprod", reduction_ops.cumprod)


def _nan_reduction(name, reduce_fn, fill):
    def f(a, axis=None, dtype=None, keepdims=False):
        a = asarray(a)
        a = math_ops.where(isnan(a), asarray(fill, a.dtype), a)
        return reduce_fn(a, axis=axis, dtype=dtype, keepdims=keepdims)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(a, axis=None, dtype=None, keepdims=False)`: NaNs as {fill}."
    return f


nansum = _nan_reduction("nansum", sum, 0)
nanprod = _nan_reduction("nanprod", prod, 1)


def nanmean(a, axis=None, dtype=None, keepdims=None):
    """`tnp.nanmean(a, axis=None, dtype=None, keepdims=None)`: the mean of
    the non-NaN elements."""
    a = asarray(a)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    dtype = dtype or a.dtype
    count = sum(math_ops.logical_not(isnan(a)), axis=axis, dtype=dtype, keepdims=keepdims)
    return nansum(a, axis=axis, dtype=dtype, keepdims=keepdims) / count


def _arg(name, fn):
    def f(a, axis=None):
        a = asarray(a)
        a = ravel(a) if axis is None else atleast_1d(a)
        return fn(a, 0 if axis is None else axis)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(a, axis=None)`: int64 index, of the flattened a by default."
    return f


argmax = _arg("argmax", reduction_ops.argmax)
argmin = _arg("argmin", reduction_ops.argmin)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """`tnp.trace(a, offset=0, axis1=0, axis2=1, dtype=None)`: the sum of a diagonal."""
    a = asarray(a, None if not dtype else result_type(dtype))
    rank = a.shape.rank
    if offset == 0 and rank is not None and axis1 % rank == rank - 2 \
            and axis2 % rank == rank - 1:
        return matrix_diag_ops.trace(a)
    return sum(diagonal(a, offset, axis1, axis2), -1, dtype)


def diff(a, n=1, axis=-1):
    """`tnp.diff(a, n=1, axis=-1)`: the n-th differences along axis (!= for bools)."""
    a = asarray(a)
    rank = a.shape.rank
    if n < 0:
        raise ValueError(f"tnp.diff: order n must be non-negative, got {n}")
    if not -rank <= axis < rank:
        raise ValueError(f"tnp.diff: axis {axis} is out of bounds for rank {rank}")
    upper = tuple(slice(1, None) if i == axis % rank else slice(None) for i in range(rank))
    lower = tuple(slice(None, -1) if i == axis % rank else slice(None) for i in range(rank))
    op = math_ops.not_equal if a.dtype.is_bool else math_ops.subtract
    for _ in range(n):
        a = op(a[upper], a[lower])
    return a


# -- products -------------------------------------------------------------------------

def dot(a, b):
    """`tnp.dot(a, b)`: products for scalars, else a sum over a's last axis
    and b's last (1-D b) or second-to-last axis."""
    a, b = promote(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return einsum_ops.tensordot(a, b, [[a.shape.rank - 1],
                                       [0 if b.shape.rank == 1 else b.shape.rank - 2]])


def vdot(a, b):
    """`tnp.vdot(a, b)`: the dot of the flattened operands, a conjugated."""
    a, b = promote(a, b)
    a, b = ravel(a), ravel(b)
    if a.dtype.is_complex:   # our sums are real: the parts summed apart
        prod_ = complex_ops.conj(a) * b
        return complex_ops.complex(reduction_ops.reduce_sum(complex_ops.real(prod_)),
                                   reduction_ops.reduce_sum(complex_ops.imag(prod_)))
    return dot(a, b)


def inner(a, b):
    """`tnp.inner(a, b)`: a sum over both last axes."""
    a, b = promote(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return einsum_ops.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]])


def outer(a, b):
    """`tnp.outer(a, b)`: of the flattened operands."""
    a, b = promote(a, b)
    return array_ops.reshape(a, [-1, 1]) * array_ops.reshape(b, [-1])


def matmul(x1, x2):
    """`tnp.matmul(x1, x2)`: NumPy's, 1-D operands and batches included."""
    a, b = promote(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        raise ValueError("tnp.matmul: operands must have at least one axis, got a scalar")
    if b.shape.rank == 1:
        return einsum_ops.tensordot(a, b, 1)
    if a.shape.rank == 1:
        return einsum_ops.tensordot(a, b, [[0], [b.shape.rank - 2]])
    return math_ops.matmul(a, b)


def tensordot(a, b, axes=2):
    """`tnp.tensordot(a, b, axes=2)`."""
    a, b = promote(a, b)
    return einsum_ops.tensordot(a, b, axes)


def einsum(subscripts, *operands, **kwargs):
    """`tnp.einsum(subscripts, *operands)`, operands promoted to a common dtype."""
    unknown = set(kwargs) - {"casting", "optimize"}
    if unknown:
        raise TypeError(f"tnp.einsum: unexpected keyword arguments {sorted(unknown)}")
    return einsum_ops.einsum(subscripts, *promote(*operands))


def kron(a, b):
    """`tnp.kron(a, b)`: the Kronecker product (of any ranks; sizes may be
    unknown while tracing)."""
    a, b = promote(a, b)
    rank = np.maximum(a.shape.rank, b.shape.rank)
    sa, sb = _padded_shape(a, rank), _padded_shape(b, rank)
    ones = array_ops.ones_like(sa)
    a = array_ops.reshape(a, array_ops.reshape(manipulation_ops.stack([sa, ones], 1), [-1]))
    b = array_ops.reshape(b, array_ops.reshape(manipulation_ops.stack([ones, sb], 1), [-1]))
    return array_ops.reshape(a * b, sa * sb)


def _padded_shape(x, rank):
    """x's shape (an int32 tensor) with leading 1s up to `rank` axes."""
    ones = array_ops.ones([rank - x.shape.rank], dtypes.int32)
    return manipulation_ops.concat([ones, array_ops.shape(x)], 0)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """`tnp.cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None)`: the cross
    product of 3-vectors (2-vectors count z = 0; two 2-vectors give a scalar)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promote(a, b)
    a = manipulation_ops.unstack(a, axis=axisa)
    b = manipulation_ops.unstack(b, axis=axisb)
    if len(a) == 2 and len(b) == 2:
        return a[0] * b[1] - a[1] * b[0]
    zero = array_ops.zeros_like(a[0]) if len(a) == 2 else array_ops.zeros_like(b[0])
    a0, a1, a2 = (a + [zero])[:3]
    b0, b1, b2 = (b + [zero])[:3]
    c0, c1, c2 = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0
    c0, c1, c2 = (x + 0 * (c0 + c1 + c2) for x in (c0, c1, c2))
    out = manipulation_ops.stack([c0, c1, c2], axis=-1)
    rank = out.shape.rank
    return out if axisc % rank == rank - 1 else \
        manipulation_ops.transpose(out, _moved(rank, rank - 1, axisc % rank))


def _moved(rank, source, destination):
    perm = [i for i in range(rank) if i != source]
    perm.insert(destination, source)
    return perm


def polyval(p, x):
    """`tnp.polyval(p, x)`: the polynomial with coefficients p (highest first) at x."""
    p, x = promote(p, x)
    coeffs = manipulation_ops.unstack(array_ops.reshape(p, [-1]))
    out = array_ops.zeros_like(x) + coeffs[0]
    for c in coeffs[1:]:
        out = out * x + c
    return out
