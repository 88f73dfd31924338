"""`tf.experimental.numpy`'s array building and reshaping: creation
(zeros, arange, linspace, eye, tri, tril, vander...) and shapes (reshape,
stack, split, pad, roll...), NumPy-named and NumPy-typed over our ops.

Creation functions default to float64 (`dtype=float`), as NumPy's do;
`prefer_float32` makes values inferred from Python floats float32.

    arange(3)                 # [0, 1, 2] int64
    hstack([[1, 2], [3]])     # [1, 2, 3] int64
"""

import builtins

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor
from runtime._src.ops import (array_ops, manipulation_ops, math_ops, matrix_diag_ops,
                             meshgrid_ops, shape_ops, tile_ops)
from runtime._src.ops.np_dtypes import asarray, result_type
from runtime._src.ops.np_math_ops import promote

__all__ = ["empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full",
           "full_like", "eye", "identity", "arange", "linspace", "logspace", "geomspace",
           "tri", "tril", "triu", "diag", "diagflat", "diag_indices", "diagonal", "vander",
           "meshgrid", "copy", "reshape", "ravel", "flatten", "transpose", "swapaxes",
           "moveaxis", "expand_dims", "squeeze", "atleast_1d", "atleast_2d", "atleast_3d",
           "broadcast_to", "broadcast_arrays", "concatenate", "stack", "hstack", "vstack",
           "dstack", "split", "hsplit", "vsplit", "dsplit", "append", "tile", "repeat",
           "flip", "fliplr", "flipud", "roll", "rot90", "pad", "ndim", "shape", "size",
           "isscalar"]


def _dtype(dtype):
    return None if dtype is None else result_type(dtype)


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return asarray(shape, dtypes.int32) if isinstance(shape, Tensor) else list(shape)


# -- creation -------------------------------------------------------------------------

def zeros(shape, dtype=float):
    """`tnp.zeros(shape, dtype=float)`: float64 zeros by default."""
    return array_ops.zeros(_shape(shape), _dtype(dtype))


def ones(shape, dtype=float):
    """`tnp.ones(shape, dtype=float)`: float64 ones by default."""
    return array_ops.ones(_shape(shape), _dtype(dtype))


def empty(shape, dtype=float):
    """`tnp.empty(shape, dtype=float)`: zeros (tensors are never uninitialized)."""
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    """`tnp.full(shape, fill_value, dtype=None)`: fill_value's dtype by default."""
    value = asarray(fill_value, _dtype(dtype))
    return shape_ops.broadcast_to(value, _shape(shape))


def _like(name, value):
    def f(a, dtype=None):
        a = asarray(a)
        return array_ops.fill(array_ops.shape(a), asarray(value, _dtype(dtype) or a.dtype))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(a, dtype=None)`: {value}s of a's shape (and dtype)."
    return f


zeros_like = _like("zeros_like", 0)
ones_like = _like("ones_like", 1)


def empty_like(a, dtype=None):
    """`tnp.empty_like(a, dtype=None)`: zeros of a's shape."""
    return zeros_like(a, dtype)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """`tnp.full_like(a, fill_value, dtype=None, shape=None)`: fill_value in
    a's shape (or `shape`), of a's dtype unless `dtype` is given."""
    a = asarray(a)
    dims = array_ops.shape(a) if shape is None else _shape(shape)
    return array_ops.fill(dims, asarray(fill_value, _dtype(dtype) or a.dtype))


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's names
    """`tnp.eye(N, M=None, k=0, dtype=float)`: ones on diagonal k."""
    return asarray(np.eye(N, M, k), _dtype(dtype))


def identity(n, dtype=float):
    """`tnp.identity(n, dtype=float)`: the n x n identity."""
    return eye(n, dtype=dtype)


def _static(value):
    """A Python number for a Python number, numpy scalar or eager tensor."""
    if isinstance(value, Tensor):
        return value.numpy()
    return value


def arange(start, stop=None, step=1, dtype=None):
    """`tnp.arange(start, stop=None, step=1, dtype=None)`: int64 for integer
    bounds, float64 for floats (float32 under prefer_float32)."""
    if not step:
        raise ValueError("tnp.arange: step must be non-zero")
    start, stop, step = _static(start), _static(stop), _static(step)
    if stop is None:
        start, stop = 0, start
    out_dtype = _dtype(dtype) or result_type(start, stop, step)
    values = np.arange(start, stop, step, dtype=np.result_type(start, stop, step))
    return asarray(values, out_dtype)


def _scaled_dtype(start, stop):
    """TF 2.21's linspace/logspace dtype under NumPy 2: that of
    [start * 1.0, stop * 1.0], whatever `dtype` says."""
    def times_one(v):
        if isinstance(v, (int, float, bool)):
            return float(v)
        v = asarray(v)
        return v.dtype if v.dtype.is_floating or v.dtype.is_complex else dtypes.float64
    return result_type(times_one(start), times_one(stop))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """`tnp.linspace(start, stop, num=50, endpoint=True, retstep=False,
    dtype=float, axis=0)`: num evenly spaced values (and the step if
    retstep). As TF 2.21 with NumPy 2, a given dtype is not used: the values
    are of start's and stop's float dtype (float64, or float32 for Python
    floats under prefer_float32)."""
    if num < 0:
        raise ValueError(f"tnp.linspace: num (number of samples) must be non-negative, "
                         f"got {num}")
    out_dtype = _scaled_dtype(start, stop) if dtype else None
    start, stop = asarray(start, out_dtype), asarray(stop, out_dtype)
    if not (start.dtype.is_floating or start.dtype.is_complex):
        start, stop = math_ops.cast(start, dtypes.float64), math_ops.cast(stop, dtypes.float64)
    step = asarray(np.nan, start.dtype)
    if endpoint:
        out = meshgrid_ops.linspace(start, stop, num, axis=axis)
        if num > 1:
            step = (stop - start) / (num - 1)
    else:
        if num > 0:
            step = (stop - start) / num
        last = stop - step if num > 1 else stop
        out = meshgrid_ops.linspace(start, last, num, axis=axis)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`tnp.logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None,
    axis=0)`: base ** linspace(start, stop) (the dtype as linspace's)."""
    out_dtype = _scaled_dtype(start, stop)
    powers = linspace(start, stop, num, endpoint, axis=axis)
    return math_ops.pow(asarray(base, powers.dtype), math_ops.cast(powers, out_dtype))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`tnp.geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0)`:
    num values evenly spaced on a log scale (negative ranges mirrored)."""
    out_dtype = _dtype(dtype) or result_type(start, stop, float(num), np.float64)
    work = dtypes.as_dtype(np.promote_types(out_dtype.np_dtype, np.float32))
    start, stop = asarray(start, work), asarray(stop, work)
    flip_ = 1 - (1 - math_ops.sign(start)) * (1 - math_ops.sign(stop)) // 2
    logs = linspace(math_ops.log(flip_ * start) / np.log(10.0),
                    math_ops.log(flip_ * stop) / np.log(10.0), num, endpoint)
    out = flip_ * math_ops.pow(asarray(10.0, logs.dtype), logs)
    if axis != 0:
        out = moveaxis(out, 0, axis)
    return math_ops.cast(out, out_dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """`tnp.tri(N, M=None, k=0, dtype=None)`: ones at and below diagonal k (float64)."""
    return asarray(np.tri(N, M, k), _dtype(dtype) or dtypes.float64)


def _triangle(name, lower):
    def f(m, k=0):
        m = asarray(m)
        if m.shape.rank is not None and m.shape.rank < 2:
            raise ValueError(f"tnp.{name}: m must have at least 2 axes, got shape {m.shape}")
        dims = array_ops.shape(m)
        rows = manipulation_ops.expand_dims(array_ops.range(dims[-2]), 1)
        cols = manipulation_ops.expand_dims(array_ops.range(dims[-1]), 0)
        keep = math_ops.less_equal(cols - rows, k) if lower else \
            math_ops.greater_equal(cols - rows, k)
        return math_ops.where(keep, m, array_ops.zeros_like(m))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(m, k=0)`: m with the elements " + (
        "above diagonal k zeroed." if lower else "below diagonal k zeroed.")
    return f


tril = _triangle("tril", True)
triu = _triangle("triu", False)


def diag(v, k=0):
    """`tnp.diag(v, k=0)`: a matrix with v on diagonal k, or a matrix's diagonal k."""
    v = asarray(v)
    if v.shape.rank == 1:
        return matrix_diag_ops.diag(v, k=k)
    if v.shape.rank != 2:
        raise ValueError(f"tnp.diag: v must be 1-D or 2-D, got shape {v.shape}")
    return diagonal(v, k)


def diagflat(v, k=0):
    """`tnp.diagflat(v, k=0)`: v flattened onto diagonal k of a matrix."""
    return diag(ravel(v), k)


def diag_indices(n, ndim=2):
    """`tnp.diag_indices(n, ndim=2)`: ndim copies of range(n) (int32)."""
    if n < 0 or ndim < 0:
        raise ValueError(f"tnp.diag_indices: n and ndim must be non-negative, got {n}, {ndim}")
    idx = array_ops.range(n)
    return (idx,) * ndim


def diagonal(a, offset=0, axis1=0, axis2=1):
    """`tnp.diagonal(a, offset=0, axis1=0, axis2=1)`: the diagonal, last axis."""
    a = asarray(a)
    rank = a.shape.rank
    a1, a2 = axis1 % rank, axis2 % rank
    perm = [i for i in range(rank) if i not in (a1, a2)] + [a1, a2]
    a = manipulation_ops.transpose(a, perm)
    rows, cols = a.shape.as_list()[-2:]
    if (offset >= 0 and cols is not None and offset >= cols) or (
            offset < 0 and rows is not None and -offset >= rows):
        return a[..., 0, :0]
    return matrix_diag_ops.diag_part(a, k=offset)


def vander(x, N=None, increasing=False):  # noqa: N803
    """`tnp.vander(x, N=None, increasing=False)`: columns of powers of x."""
    x = asarray(x)
    n = x.shape.as_list()[0] if N is None else N
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    out_dtype = x.dtype if not x.dtype.is_bool else dtypes.int64
    x = math_ops.cast(x, out_dtype)
    return math_ops.pow(x[:, None], asarray(powers.copy(), out_dtype)[None, :]) if n else \
        array_ops.zeros([x.shape.as_list()[0], 0], out_dtype)


def meshgrid(*xi, **kwargs):
    """`tnp.meshgrid(*xi, indexing='xy', sparse=False, copy=True)`."""
    indexing = kwargs.get("indexing", "xy")
    sparse = kwargs.get("sparse", False)
    xs = [ravel(x) for x in xi]
    if not sparse:
        return meshgrid_ops.meshgrid(*xs, indexing=indexing)
    out = []
    for i, x in enumerate(xs):
        shape_ = [1] * len(xs)
        shape_[(1 - i if i < 2 and indexing == "xy" and len(xs) > 1 else i)] = -1
        out.append(array_ops.reshape(x, shape_))
    return out


def copy(a):
    """`tnp.copy(a)`: a's value as a new tensor."""
    return math_ops.identity(asarray(a))


# -- shapes ---------------------------------------------------------------------------

def reshape(a, newshape, order="C"):
    """`tnp.reshape(a, newshape, order='C')` (C order only)."""
    if order != "C":
        raise ValueError(f"tnp.reshape: only order='C' is supported, got {order!r}")
    return array_ops.reshape(asarray(a), _shape(newshape))


def ravel(a):
    """`tnp.ravel(a)`: a flattened."""
    return array_ops.reshape(asarray(a), [-1])


def flatten(a, order="C"):
    """`tnp.flatten(a, order='C')`: a flattened."""
    return reshape(a, [-1], order)


def transpose(a, axes=None):
    """`tnp.transpose(a, axes=None)`: axes reversed by default."""
    return manipulation_ops.transpose(asarray(a), None if axes is None else list(axes))


def swapaxes(a, axis1, axis2):
    """`tnp.swapaxes(a, axis1, axis2)`."""
    a = asarray(a)
    perm = list(range(a.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return manipulation_ops.transpose(a, perm)


def _axes(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else [axis]


def moveaxis(a, source, destination):
    """`tnp.moveaxis(a, source, destination)`: axes moved, the others in order."""
    a = asarray(a)
    rank = a.shape.rank
    src = [s % rank for s in _axes(source)]
    dst = [d % rank for d in _axes(destination)]
    perm = [i for i in range(rank) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return manipulation_ops.transpose(a, perm)


def expand_dims(a, axis):
    """`tnp.expand_dims(a, axis)`: axis may be a tuple."""
    a = asarray(a)
    axes = _axes(axis)
    rank = a.shape.rank + len(axes)
    for ax in sorted(ax % rank for ax in axes):
        a = manipulation_ops.expand_dims(a, ax)
    return a


def squeeze(a, axis=None):
    """`tnp.squeeze(a, axis=None)`."""
    return manipulation_ops.squeeze(asarray(a), None if axis is None else _axes(axis))


def _atleast(name, rank, place):
    def f(*arys):
        out = []
        for a in arys:
            a = asarray(a)
            while a.shape.rank < rank:
                a = manipulation_ops.expand_dims(a, place(a.shape.rank))
            out.append(a)
        return out[0] if len(out) == 1 else out
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(*arys)`: each with at least {rank} axes."
    return f


atleast_1d = _atleast("atleast_1d", 1, lambda r: 0)
atleast_2d = _atleast("atleast_2d", 2, lambda r: 0)
atleast_3d = _atleast("atleast_3d", 3, lambda r: 0 if r < 2 else r)


def broadcast_to(array, shape):
    """`tnp.broadcast_to(array, shape)`."""
    return shape_ops.broadcast_to(asarray(array), _shape(shape))


def broadcast_arrays(*args, **kwargs):
    """`tnp.broadcast_arrays(*args)`: the arrays broadcast to one shape."""
    xs = [asarray(a) for a in args]
    target = shape_ops.broadcast_static_shape(*[x.shape for x in xs[:1]] * 2) if xs else None
    for x in xs[1:]:
        target = shape_ops.broadcast_static_shape(target, x.shape)
    return [shape_ops.broadcast_to(x, target.as_list()) for x in xs]


def concatenate(arys, axis=0):
    """`tnp.concatenate(arys, axis=0)`: promoted to a common dtype; axis=None flattens."""
    xs = promote(*arys)
    if axis is None:
        xs, axis = [ravel(x) for x in xs], 0
    return manipulation_ops.concat(xs, axis)


def stack(arrays, axis=0):
    """`tnp.stack(arrays, axis=0)`: promoted to a common dtype."""
    return manipulation_ops.stack(promote(*arrays), axis)


def hstack(tup):
    """`tnp.hstack(tup)`: along axis 1 (axis 0 for 1-D arrays)."""
    xs = atleast_1d(*promote(*[asarray(t) for t in tup]))
    xs = xs if isinstance(xs, list) else [xs]
    return manipulation_ops.concat(xs, 0 if xs[0].shape.rank == 1 else 1)


def vstack(tup):
    """`tnp.vstack(tup)`: along axis 0, 1-D arrays as rows."""
    xs = atleast_2d(*promote(*[asarray(t) for t in tup]))
    return manipulation_ops.concat(xs if isinstance(xs, list) else [xs], 0)


def dstack(tup):
    """`tnp.dstack(tup)`: along axis 2, lower ranks raised to 3."""
    xs = atleast_3d(*promote(*[asarray(t) for t in tup]))
    return manipulation_ops.concat(xs if isinstance(xs, list) else [xs], 2)


def split(ary, indices_or_sections, axis=0):
    """`tnp.split(ary, indices_or_sections, axis=0)`: a list of tensors."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, (int, np.integer)):
        n = int(indices_or_sections)
        if ary.shape.as_list()[axis] is not None and ary.shape.as_list()[axis] % n:
            raise ValueError(f"tnp.split: an axis of size {ary.shape.as_list()[axis]} does "
                             f"not split into {n} equal sections")
        return list(shape_ops.split(ary, n, axis=axis))
    size_ = ary.shape.as_list()[axis]
    bounds = [0] + [builtins.min(int(i), size_) for i in indices_or_sections] + [size_]
    sizes = [builtins.max(b - a, 0) for a, b in zip(bounds, bounds[1:])]
    return list(shape_ops.split(ary, sizes, axis=axis))


def _split_on(name, axis):
    def f(ary, indices_or_sections):
        ary = asarray(ary)
        ax = 0 if axis == 1 and ary.shape.rank == 1 else axis
        return split(ary, indices_or_sections, ax)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(ary, indices_or_sections)`: split along axis {axis}."
    return f


hsplit = _split_on("hsplit", 1)
vsplit = _split_on("vsplit", 0)
dsplit = _split_on("dsplit", 2)


def append(arr, values, axis=None):
    """`tnp.append(arr, values, axis=None)`: flattened when axis is None."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def tile(a, reps):
    """`tnp.tile(a, reps)`, reps longer or shorter than a's rank."""
    a = asarray(a)
    reps = [int(reps)] if isinstance(reps, (int, np.integer)) else [int(r) for r in reps]
    reps = [1] * (a.shape.rank - len(reps)) + reps
    while a.shape.rank < len(reps):
        a = manipulation_ops.expand_dims(a, 0)
    return tile_ops.tile(a, reps)


def repeat(a, repeats, axis=None):
    """`tnp.repeat(a, repeats, axis=None)`: flattened when axis is None."""
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return shape_ops.repeat(a, repeats, axis=axis)


def flip(m, axis=None):
    """`tnp.flip(m, axis=None)`: all axes by default."""
    m = asarray(m)
    axes = list(range(m.shape.rank)) if axis is None else _axes(axis)
    return shape_ops.reverse(m, axes)


def fliplr(m):
    """`tnp.fliplr(m)`: axis 1 reversed."""
    return flip(m, 1)


def flipud(m):
    """`tnp.flipud(m)`: axis 0 reversed."""
    return flip(m, 0)


def roll(a, shift, axis=None):
    """`tnp.roll(a, shift, axis=None)`: flattened, rolled, reshaped when axis is None."""
    a = asarray(a)
    if axis is None:
        return array_ops.reshape(shape_ops.roll(ravel(a), shift, 0), array_ops.shape(a))
    return shape_ops.roll(a, shift, axis)


def rot90(m, k=1, axes=(0, 1)):
    """`tnp.rot90(m, k=1, axes=(0, 1))`: rotated by 90 degrees k times."""
    m = asarray(m)
    a0, a1 = axes
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    perm = list(range(m.shape.rank))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return manipulation_ops.transpose(flip(m, a1), perm)
    return flip(manipulation_ops.transpose(m, perm), a1)


def pad(array, pad_width, mode, **kwargs):
    """`tnp.pad(array, pad_width, mode, constant_values=0)`: modes 'constant',
    'reflect' and 'symmetric'."""
    array = asarray(array)
    if mode not in ("constant", "reflect", "symmetric"):
        raise ValueError(f"tnp.pad: mode must be 'constant', 'reflect' or 'symmetric', "
                         f"got {mode!r}")
    widths = np.broadcast_to(np.asarray(pad_width, np.int64), (array.shape.rank, 2))
    value = kwargs.get("constant_values", 0)
    return shape_ops.pad(array, widths.tolist(), mode=mode.upper(),
                         constant_values=asarray(value, array.dtype))


def ndim(a):
    """`tnp.ndim(a)`: the number of axes (a Python int)."""
    return asarray(a).shape.rank


def shape(a):
    """`tnp.shape(a)`: the shape as a tuple."""
    return tuple(asarray(a).shape.as_list())


def size(x, axis=None):
    """`tnp.size(x)`: the number of elements (a Python int; an int32 tensor
    when the shape is not known while tracing)."""
    if axis is not None:
        raise NotImplementedError("tnp.size: the axis argument is not supported "
                                  "(as in TensorFlow)")
    if isinstance(x, (int, float, np.integer, np.floating)):
        return 1
    x = asarray(x)
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is None or None in dims:
        return array_ops.size(x)             # known only when the graph runs
    return int(np.prod(dims, dtype=int))


def isscalar(num):
    """`tnp.isscalar(num)`: whether num is a 0-d array or a Python/NumPy scalar."""
    return asarray(num).shape.rank == 0
