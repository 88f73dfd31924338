"""NumPy's indexing of tensors, which `experimental_enable_numpy_behavior`
turns on: integer arrays (lists, ndarrays, tensors) and boolean masks mix
with ints, slices, `None` and `...` as in NumPy.

    x[[1, 0]]            # rows 1 and 0
    x[:, [0, 2]]         # columns 0 and 2
    x[[0, 1], [1, 2]]    # elements (0, 1) and (1, 2)
    x[x > 2]             # the elements above 2, flattened

A key with none of these goes to the ordinary strided slice. Otherwise the
basic parts (slices, None) are applied first, then the advanced indices
(broadcast together) gather: their axes come first when they are separated
by a slice, else where the first of them stood, as in NumPy.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.ops import manipulation_ops, math_ops, scatter_ops, shape_ops

__all__ = ["numpy_getitem"]


def _is_array(k):
    if isinstance(k, (list, np.ndarray)):
        return True
    return isinstance(k, Tensor) and (k.dtype.is_bool or k.shape.rank != 0)


def _is_advanced(key):
    return any(_is_array(k) for k in key)


def _expand_key(key, rank):
    """key with `...` replaced by slices and bool masks by their nonzero
    index arrays (one per axis of the mask)."""
    out = []
    used = sum(_width(k) for k in key if k is not Ellipsis and k is not None)
    for k in key:
        if k is Ellipsis:
            out.extend([slice(None)] * (rank - used))
        elif _is_bool(k):
            mask = _cast_to_tensor(k, None)
            idx = scatter_ops.where(mask)
            out.extend(idx[:, i] for i in range(mask.shape.rank))
        else:
            out.append(k)
    if not any(k is Ellipsis for k in key):
        out.extend([slice(None)] * (rank - used))
    return out


def _is_bool(k):
    if isinstance(k, Tensor):
        return k.dtype.is_bool
    return isinstance(k, (list, np.ndarray)) and np.asarray(k).dtype == np.bool_


def _width(k):
    """How many axes a key entry consumes: a bool mask its rank, others one."""
    if not _is_bool(k):
        return 1
    return k.shape.rank if isinstance(k, Tensor) else np.ndim(k)


def _cast_to_tensor(k, dtype):
    if isinstance(k, Tensor):
        return k if dtype is None or k.dtype == dtype else math_ops.cast(k, dtype)
    return convert_to_tensor(np.asarray(k) if dtype is None
                             else np.asarray(k, dtype.np_dtype))


def numpy_getitem(tensor, key, basic_getitem):
    """tensor[key] with NumPy's rules (see the module docstring)."""
    key = key if isinstance(key, tuple) else (key,)
    # as NumPy, a tuple inside the key is a sequence of indices (x[:, (True, False)])
    key = tuple(list(k) if isinstance(k, tuple) else k for k in key)
    if not _is_advanced(key):
        return basic_getitem(tensor, key if len(key) != 1 else key[0])
    for i, k in enumerate(key):   # axes for None first, so every key entry meets one axis
        if k is None:
            tensor = manipulation_ops.expand_dims(tensor, _axis_of(key, i))
    key = tuple(slice(None) if k is None else k for k in key)
    key = _expand_key(key, tensor.shape.rank)
    slices = tuple(k if isinstance(k, slice) else slice(None) for k in key)
    tensor = basic_getitem(tensor, slices)
    advanced = [i for i, k in enumerate(key) if not isinstance(k, slice)]
    rest = [i for i in range(len(key)) if i not in advanced]
    moved = manipulation_ops.transpose(tensor, advanced + rest)
    dims = tensor.shape.as_list()
    indices = []
    for i in advanced:
        idx = _cast_to_tensor(key[i], None)
        idx = math_ops.cast(idx, dtypes.int64) if idx.dtype != dtypes.int64 else idx
        indices.append(math_ops.where(math_ops.less(idx, 0), idx + dims[i], idx))
    shape = _broadcast_shapes([ix.shape for ix in indices])
    indices = [shape_ops.broadcast_to(ix, shape) for ix in indices]
    out = scatter_ops.gather_nd(moved, manipulation_ops.stack(indices, axis=-1))
    adjacent = advanced == list(range(advanced[0], advanced[0] + len(advanced)))
    if adjacent and advanced[0] > 0:
        n, first = len(shape), advanced[0]
        perm = list(range(n, n + first)) + list(range(n)) + \
            list(range(n + first, out.shape.rank))
        out = manipulation_ops.transpose(out, perm)
    return out


def _axis_of(key, i):
    """The axis a None at key[i] makes: counted from the front, or from the
    back when an Ellipsis comes before it."""
    def width(k):
        return 1 if k is None or k is Ellipsis else _width(k)
    if any(k is Ellipsis for k in key[:i]):
        return -1 - sum(width(k) for k in key[i + 1:] if k is not Ellipsis)
    return sum(width(k) for k in key[:i])


def _broadcast_shapes(shapes):
    out = shapes[0]
    for s in shapes[1:]:
        out = shape_ops.broadcast_static_shape(out, s)
    return out.as_list()

