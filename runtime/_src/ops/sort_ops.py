"""Ordering ops: `math.top_k` (the `TopKV2` op), `sort` and `argsort` (built on
top_k as TensorFlow builds them), `unique`, `unique_with_counts` and
`searchsorted` (the `LowerBound` / `UpperBound` ops).

    >>> top_k(constant([1, 3, 3, 2]), k=2)
    TopKV2(values=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 3], dtype=int32)>, \
indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>)

top_k breaks ties by the lower index, so `sort` and `argsort` are stable in both
directions; NaN counts as the smallest value. `unique` keeps the order of first
occurrence (NaNs are all distinct, as in TF).
"""

import collections

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad, not_differentiable  # gradients
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import shape as _shape
from runtime._src.ops.bitwise_ops import invert as invert_
from runtime._src.ops.manipulation_ops import transpose
from runtime._src.ops.math_ops import negative, subtract
from runtime._src.ops.shape_ops import op_error

__all__ = ["top_k", "sort", "argsort", "unique", "unique_with_counts", "searchsorted"]

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])

_INDEX_TYPES = (dtypes.int32, dtypes.int64)


def _index_type(value, op_name, what):
    dtype = dtypes.as_dtype(value)
    if dtype not in _INDEX_TYPES:
        raise TypeError(f"{op_name}: {what} must be int32 or int64, got {dtype.name}")
    return dtype


# --- top_k -------------------------------------------------------------------------------

def _infer_top_k(inputs, attrs):
    x, k = inputs
    if not x.dtype.is_numeric:
        raise TypeError(f"input must be a numeric tensor, got {x.dtype.name}")
    if not k.dtype.is_integer or k.shape.rank not in (None, 0):
        raise TypeError(f"k must be an int32 or int64 scalar, got {k!r}")
    dims = x.shape.dims
    if dims is not None and not dims:
        raise ValueError("input must be >= 1-D, got shape []")
    kv = rules.constant_value(k)
    kv = None if kv is None else int(kv)
    if kv is not None and kv < 0:
        raise ValueError(f"Need k >= 0, got {kv}")
    if dims is None:
        out = TensorShape(None)
    else:
        if kv is not None and dims[-1] is not None and dims[-1] < kv:
            raise ValueError(f"input must have at least k columns. Had {dims[-1]}, needed {kv}")
        out = TensorShape(list(dims[:-1]) + [kv])
    return [(x.dtype, out), (attrs["index_type"], out)]


_EXACT_NAN_ROWS = 20000     # longer rows with NaN: NaN last (TF's order costs a Python sort)


def descending_order(x, k=None):
    """Indices sorting the last axis of `x` from largest to smallest, ties by
    lower index first. NaNs count as smallest, except in a full sort (`k` the
    length, at most _EXACT_NAN_ROWS) of a row holding one, which follows TF's
    kernel (`_tf_row_order`)."""
    n = np.shape(x)[-1]
    if dtypes.is_float_array(x.dtype):
        nan = np.isnan(x)
        keys = np.where(nan, 0, -x.astype(np.float64) if x.dtype.itemsize < 8 else -x)
        position = np.broadcast_to(np.arange(n), np.shape(x))
        order = np.lexsort((position, keys, nan), axis=-1)
        if k == n and n <= _EXACT_NAN_ROWS and nan.any():
            rows, flat = order.reshape(-1, n), x.reshape(-1, n)
            for r in np.flatnonzero(nan.reshape(-1, n).any(axis=1)):
                rows[r] = _tf_row_order(flat[r].tolist())
            order = rows.reshape(order.shape)
        return order
    reverse = np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    return n - 1 - reverse


def _tf_row_order(v):
    """TF's TopKV2 kernel's order of one full row holding NaN: libstdc++'s
    std::sort (introsort) of the indices 0..n-1 by "v[b] < v[a]" (a NaN is
    neither smaller nor larger than any value), then each run of equal
    neighbours' indices sorted increasing."""
    def comp(a, b):
        return v[b] < v[a]

    n = len(v)
    idx = list(range(n))
    if n > 1:
        _introsort(idx, 0, n, 2 * (n.bit_length() - 1), comp)
        _insertion_sort(idx, 0, min(n, 16), comp)
        _insertion_sort(idx, 16, n, comp, guarded=False)
    start = 0
    while start < n - 1:
        end = start + 1
        while end < n and v[idx[start]] == v[idx[end]]:
            end += 1
        idx[start:end] = sorted(idx[start:end])
        start = end
    return idx


def _introsort(idx, first, last, depth, comp):
    """libstdc++'s __introsort_loop: median-of-three quicksort down to runs of
    16, heap sort past the depth limit."""
    while last - first > 16:
        if depth == 0:
            _heap_sort(idx, first, last, comp)
            return
        depth -= 1
        mid = first + (last - first) // 2
        a, b, c = first + 1, mid, last - 1
        if comp(idx[a], idx[b]):
            pick = b if comp(idx[b], idx[c]) else (c if comp(idx[a], idx[c]) else a)
        else:
            pick = a if comp(idx[a], idx[c]) else (c if comp(idx[b], idx[c]) else b)
        idx[first], idx[pick] = idx[pick], idx[first]
        lo, hi = first + 1, last
        while True:
            while comp(idx[lo], idx[first]):
                lo += 1
            hi -= 1
            while comp(idx[first], idx[hi]):
                hi -= 1
            if lo >= hi:
                break
            idx[lo], idx[hi] = idx[hi], idx[lo]
            lo += 1
        _introsort(idx, lo, last, depth, comp)
        last = lo


def _insertion_sort(idx, first, last, comp, guarded=True):
    """libstdc++'s __insertion_sort, or its __unguarded_insertion_sort."""
    for i in range(first + (1 if guarded else 0), last):
        val = idx[i]
        if guarded and comp(val, idx[first]):
            idx[first + 1:i + 1] = idx[first:i]
            idx[first] = val
            continue
        j = i
        while j > 0 and comp(val, idx[j - 1]):
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = val


def _heap_sort(idx, first, last, comp):
    """libstdc++'s make_heap then sort_heap on idx[first:last]."""
    heap = idx[first:last]
    n = len(heap)
    for parent in range((n - 2) // 2, -1, -1):
        _adjust_heap(heap, parent, n, heap[parent], comp)
    for end in range(n - 1, 0, -1):
        value, heap[end] = heap[end], heap[0]
        _adjust_heap(heap, 0, end, value, comp)
    idx[first:last] = heap


def _adjust_heap(heap, hole, length, value, comp):
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if comp(heap[child], heap[child - 1]):
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and comp(heap[parent], value):
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = value


@define_op("TopKV2", infer=_infer_top_k, num_outputs=2)
def _top_k(x, k, sorted, index_type):  # TensorFlow's attr name
    k = int(k)
    if np.ndim(x) == 0:
        raise InvalidArgumentError("TopKV2: input must be >= 1-D, got shape []", "TopKV2")
    if k < 0:
        raise InvalidArgumentError(f"TopKV2: Need k >= 0, got {k}", "TopKV2")
    if np.shape(x)[-1] < k:
        raise InvalidArgumentError(f"TopKV2: input must have at least k columns. Had "
                                   f"{np.shape(x)[-1]}, needed {k}", "TopKV2")
    order = descending_order(x, k)[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(index_type.np_dtype)


@define_grad("TopKV2")
def _top_k_grad(op, grad, _):
    return [apply("TopKGrad", (grad, op.inputs[0], op.outputs[1])), None]


def _infer_top_k_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("TopKGrad", infer=_infer_top_k_grad)
def _top_k_grad_kernel(grad, x, indices):
    """Zeros like x with the k values' gradients put back at their indices."""
    out = np.zeros(np.shape(x), grad.dtype)
    np.put_along_axis(out, indices.astype(np.int64), grad, axis=-1)
    return out


@define_grad("TopKGrad")
def _top_k_grad_grad(op, grad):
    # TopKGrad puts k values back at their indices; its gradient takes them out again.
    _, x, indices = op.inputs
    rank = x.shape.rank
    if rank is None:
        raise LookupError("No gradient defined for operation 'TopKGrad' with an input of "
                          "unknown rank")
    attrs = {"axis": rank - 1, "batch_dims": rank - 1}
    return [apply("GatherV2", (grad, indices), attrs), None, None]


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):
    """The `k` largest entries of the last dimension of `input` and their indices.

    Equal values keep their order (lower index first). `k` may be a scalar tensor.
    """
    input = convert_to_tensor(input)
    k = unwrap_variable(k)
    if not isinstance(k, Tensor):
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"TopKV2: k must be an int, got {k!r}")
        k = convert_to_tensor(int(k), dtypes.int32)
    if not input.dtype.is_numeric:
        raise TypeError(f"TopKV2: input must be a numeric tensor, got {input.dtype.name}")
    if input.shape.rank == 0:
        raise op_error("TopKV2", "input must be >= 1-D, got shape []")
    index_type = _index_type(index_type, "TopKV2", "index_type")
    values, indices = apply("TopKV2", (input, k), {"sorted": bool(sorted),
                                                    "index_type": index_type})
    return TopKV2(values, indices)


# --- sort / argsort ---------------------------------------------------------------------

def _sort(values, axis, direction, want_indices, op_name):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    values = convert_to_tensor(values)
    if not values.dtype.is_numeric:
        raise TypeError(f"{op_name}: values must be a numeric tensor, got {values.dtype.name}")
    axis = rules.static_int(axis, op_name, "axis")
    rank = values.shape.rank
    if rank == 0:
        raise op_error(op_name, "values must be >= 1-D, got a scalar")
    if rank is None:
        if axis != -1:
            raise ValueError(f"{op_name}: axis must be -1 for a tensor of unknown rank, got "
                             f"{axis}")
        last = True
    else:
        axis = rules.normalize_axis(axis, rank)
        last = axis == rank - 1
    keys = values
    if direction == "ASCENDING":
        keys = _flip_order(values)
    if not last:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        keys = transpose(keys, perm)
    out_values, indices = top_k(keys, _shape(keys)[-1])
    out = indices if want_indices else out_values
    if not last:
        out = transpose(out, perm)
    if not want_indices and direction == "ASCENDING":
        out = _flip_order(out)
    return out


def _flip_order(t):
    """A tensor whose descending order is `t`'s ascending one (exactly invertible)."""
    if t.dtype.is_unsigned:
        return subtract(convert_to_tensor(t.dtype.max, t.dtype), t)
    if t.dtype.is_integer:
        return invert_(t)
    return negative(t)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis` (ASCENDING or DESCENDING)."""
    return _sort(values, axis, direction, False, "sort")


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort `values` along `axis`; equal values keep their order."""
    return _sort(values, axis, direction, True, "argsort")


# --- unique / unique_with_counts ----------------------------------------------------------

def _infer_unique(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 1):
        if not attrs.get("counts"):           # TF checks UniqueWithCounts only when it runs
            raise ValueError(f"unique expects a 1D vector, got shape {rules.dims_text(x.shape)}")
        return [(inputs[0].dtype, TensorShape([None])), (attrs["out_idx"], TensorShape([None])),
                (attrs["out_idx"], TensorShape([None]))]
    out_idx = attrs["out_idx"]
    outs = [(x.dtype, TensorShape([None])), (out_idx, x.shape if x.shape.rank else
                                             TensorShape([None]))]
    if attrs.get("counts"):
        outs.append((out_idx, TensorShape([None])))
    return outs


def _unique(x, out_idx):
    if np.ndim(x) != 1:
        raise InvalidArgumentError("Unique: unique expects a 1D vector.", "Unique")
    extra = {"equal_nan": False} if x.dtype.kind in "fc" else {}
    _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                          return_counts=True, **extra)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idx_type = out_idx.np_dtype
    return (x[first[order]], rank[np.reshape(inverse, -1)].astype(idx_type),
            counts[order].astype(idx_type))


@define_op("Unique", infer=_infer_unique, num_outputs=2)
def _unique_op(x, out_idx):
    return _unique(x, out_idx)[:2]


@define_op("UniqueWithCounts", infer=_infer_unique, num_outputs=3)
def _unique_with_counts_op(x, out_idx, counts):
    return _unique(x, out_idx)


# Unique and UniqueWithCounts have no gradient rule, as in TF: a gradient through
# y is a LookupError naming the op.


def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct elements of 1-D `x` in order of first occurrence, and
    for each element of x the index of its value in y."""
    x = convert_to_tensor(x)
    y, idx = apply("Unique", (x,), {"out_idx": _index_type(out_idx, "Unique", "out_idx")})
    return Unique(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count): as `unique`, plus how often each element of y occurs in x."""
    x = convert_to_tensor(x)
    attrs = {"out_idx": _index_type(out_idx, "UniqueWithCounts", "out_idx"), "counts": True}
    y, idx, count = apply("UniqueWithCounts", (x,), attrs)
    return UniqueWithCounts(y, idx, count)


# --- searchsorted --------------------------------------------------------------------------

def _infer_bound(inputs, attrs):
    seq, values = inputs
    rules.check_same_dtype(seq, values)
    for t, what in ((seq, "sorted_sequence"), (values, "values")):
        if t.shape.rank == 0:
            raise ValueError(f"{what} must have rank >= 1, got a scalar")
    s, v = seq.shape, values.shape
    if s.is_fully_defined() and v.is_fully_defined() and s.dims and v.dims and (
            int(np.prod(s.dims[:-1])) != int(np.prod(v.dims[:-1]))):
        raise ValueError("Leading dim_size of both tensors must match.")
    return [(attrs["out_type"], v)]


def _bound(seq, values, side, out_type, op_name):
    if np.ndim(seq) == 0 or np.ndim(values) == 0:
        raise InvalidArgumentError(f"{op_name}: inputs must have rank >= 1", op_name)
    s = np.reshape(seq, (-1, np.shape(seq)[-1]))
    v = np.reshape(values, (-1, np.shape(values)[-1]))
    if s.shape[0] != v.shape[0]:
        raise InvalidArgumentError(f"{op_name}: Leading dim_size of both tensors must match.",
                                   op_name)
    out = np.empty(v.shape, out_type.np_dtype)
    for row in range(s.shape[0]):
        out[row] = np.searchsorted(s[row], v[row], side=side)
    return out.reshape(np.shape(values))


@define_op("LowerBound", infer=_infer_bound)
def _lower_bound(seq, values, out_type):
    return _bound(seq, values, "left", out_type, "LowerBound")


not_differentiable("LowerBound")


@define_op("UpperBound", infer=_infer_bound)
def _upper_bound(seq, values, out_type):
    return _bound(seq, values, "right", out_type, "UpperBound")


not_differentiable("UpperBound")


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Where each of `values` would go in `sorted_sequence` (sorted along its last
    dimension, one row per leading index) to keep it sorted: before equal
    entries (`side="left"`) or after them (`"right"`)."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: "
                         f"`side` = '{side}'.")
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values)
    op_name = "LowerBound" if side == "left" else "UpperBound"
    if values.dtype != sorted_sequence.dtype:
        raise op_error(op_name, f"values must have the dtype of sorted_sequence "
                                f"({sorted_sequence.dtype.name}), got {values.dtype.name}")
    out_type = _index_type(out_type, op_name, "out_type")
    return apply(op_name, (sorted_sequence, values), {"out_type": out_type})
