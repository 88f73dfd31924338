"""`tf.experimental.numpy`'s selection: take, take_along_axis, compress,
nonzero, where, select, ix_, sort, argsort and clip, NumPy-named and
NumPy-typed over our ops (indices int64, as NumPy's intp).

    take([4, 5, 6], [0, 9])          # [4, 6]: out-of-range indices clipped
    nonzero([[0, 1], [2, 0]])        # ([0, 1], [1, 0])
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.ops import array_ops, manipulation_ops, math_ops, scatter_ops, sort_ops
from runtime._src.ops.np_array_ops import ravel
from runtime._src.ops.np_dtypes import asarray
from runtime._src.ops.np_math_ops import promote

__all__ = ["ix_", "take", "take_along_axis", "compress", "nonzero", "where", "select",
           "sort", "argsort", "clip"]


def ix_(*args):
    """`tnp.ix_(*args)`: open-mesh index arrays (bool arrays as their nonzero indices)."""
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if a.dtype.is_bool:
            a = nonzero(a)[0]
        shape_ = [1] * len(args)
        shape_[i] = -1
        out.append(array_ops.reshape(a, shape_))
    return out


def take(a, indices, axis=None, out=None, mode="clip"):
    """`tnp.take(a, indices, axis=None, mode='clip')`: flattened when axis is
    None; out-of-range indices clipped ('clip') or wrapped ('wrap')."""
    if out is not None:
        raise ValueError("tnp.take: the out argument is not supported (as in TensorFlow)")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"tnp.take: mode must be 'clip' or 'wrap', got {mode!r}")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    indices = asarray(indices)
    if not indices.dtype.is_integer:
        if 0 not in (indices.shape.as_list() or [1]):
            raise TypeError(f"tnp.take: indices must be integers, got {indices.dtype.name}")
        indices = math_ops.cast(indices, dtypes.int64)     # [] is float64 to NumPy
    n = math_ops.cast(array_ops.shape(a)[axis], indices.dtype)
    if mode == "clip":
        indices = math_ops.minimum(math_ops.maximum(indices, asarray(0, indices.dtype)), n - 1)
    else:
        indices = math_ops.floormod(indices, n)
    return manipulation_ops.gather(a, indices, axis=axis)


def take_along_axis(arr, indices, axis):
    """`tnp.take_along_axis(arr, indices, axis)`, as NumPy's (negative
    indices count from the end; arr and indices broadcast on the other axes,
    by adding zeros, so sizes unknown while tracing work)."""
    arr, indices = asarray(arr), asarray(indices)
    if not indices.dtype.is_integer:
        raise TypeError(f"tnp.take_along_axis: indices must be integers, got "
                        f"{indices.dtype.name}")
    if axis is None:
        arr, axis = ravel(arr), 0
    rank = arr.shape.rank
    axis %= rank
    first = tuple(slice(0, 1) if j == axis else slice(None) for j in range(rank))
    arr = arr + array_ops.zeros_like(math_ops.cast(indices[first], arr.dtype))
    indices = indices + array_ops.zeros_like(math_ops.cast(arr[first], indices.dtype))
    size_ = math_ops.cast(array_ops.shape(arr)[axis], indices.dtype)
    indices = math_ops.where(math_ops.less(indices, 0), indices + size_, indices)
    perm = [j for j in range(rank) if j != axis] + [axis]
    out = manipulation_ops.gather(manipulation_ops.transpose(arr, perm),
                                  manipulation_ops.transpose(indices, perm),
                                  axis=rank - 1, batch_dims=rank - 1)
    return manipulation_ops.transpose(out, [int(i) for i in np.argsort(perm)])


def compress(condition, a, axis=None):
    """`tnp.compress(condition, a, axis=None)`: the slices where condition
    holds (a shorter condition counts as False after its end)."""
    cond = asarray(condition, dtypes.bool)
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    n = a.shape.as_list()[axis]
    k = cond.shape.as_list()[0]
    if k < n:
        a = manipulation_ops.gather(a, list(range(k)), axis=axis)
    elif k > n:
        cond = cond[:n]
    return scatter_ops.boolean_mask(a, cond, axis=axis)


def nonzero(a):
    """`tnp.nonzero(a)`: a tuple of int64 index arrays, one per axis."""
    a = asarray(a)
    idx = scatter_ops.where(math_ops.not_equal(a, array_ops.zeros_like(a)))
    return tuple(idx[:, i] for i in range(a.shape.rank))


def where(condition, x=None, y=None):
    """`tnp.where(condition, x, y)`; with only a condition, nonzero(condition)."""
    condition = asarray(condition, dtypes.bool)
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("tnp.where: give both x and y, or neither")
    x, y = promote(x, y)
    return math_ops.where(condition, x, y)


def select(condlist, choicelist, default=0):
    """`tnp.select(condlist, choicelist, default=0)`: from the first true condition."""
    choices = promote(*choicelist, default)
    out = choices[-1]
    for cond, choice in reversed(list(zip(condlist, choices[:-1]))):
        out = math_ops.where(asarray(cond, dtypes.bool), choice, out)
    return out


def sort(a, axis=-1, kind="quicksort", order=None):
    """`tnp.sort(a, axis=-1)`: ascending; axis=None flattens."""
    if order is not None:
        raise ValueError("tnp.sort: the order argument is not supported (as in TensorFlow)")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), -1
    if a.dtype.is_bool:
        return math_ops.cast(sort_ops.sort(math_ops.cast(a, dtypes.int32), axis=axis),
                             dtypes.bool)
    return sort_ops.sort(a, axis=axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    """`tnp.argsort(a, axis=-1)`: stable, int64; axis=None flattens."""
    if order is not None:
        raise ValueError("tnp.argsort: the order argument is not supported "
                         "(as in TensorFlow)")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), -1
    if a.dtype.is_bool:
        a = math_ops.cast(a, dtypes.int32)
    return math_ops.cast(sort_ops.argsort(a, axis=axis, stable=True), dtypes.int64)


def clip(a, a_min, a_max):
    """`tnp.clip(a, a_min, a_max)`: promoted by NumPy's rules; either bound may be None."""
    if a_min is None and a_max is None:
        raise ValueError("tnp.clip: a_min and a_max cannot both be None")
    if a_min is None:
        a, hi = promote(a, a_max)
        return math_ops.minimum(a, hi)
    if a_max is None:
        a, lo = promote(a, a_min)
        return math_ops.maximum(a, lo)
    a, lo, hi = promote(a, a_min, a_max)
    return math_ops.maximum(math_ops.minimum(a, hi), lo)   # a_min wins over a_max, as TF

