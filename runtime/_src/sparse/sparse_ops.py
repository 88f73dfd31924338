"""The core `tf.sparse` ops: to_dense, from_dense, reorder, add, concat,
reduce_sum / reduce_max, sparse_dense_matmul, and a SparseTensor times (or
divided by) a dense tensor.

Each op is a registered op over the component tensors (indices, values,
dense_shape), so it runs eagerly and traces into graphs; the gradients TF
2.21 defines (with respect to the values and the dense operands) are
registered next to each op. As in TF, ops that merge two SparseTensors
(add, maximum) expect their indices in row-major order (`reorder` sorts).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import reshape, shape as shape_of, zeros_like
from runtime._src.ops.manipulation_ops import gather, transpose as dense_transpose
from runtime._src.ops.reduction_ops import reduce_sum as dense_reduce_sum
from runtime._src.ops.scatter_ops import gather_nd, scatter_nd, where as dense_where
from runtime._src.ops.shape_rules import constant_value
from runtime._src.sparse.sparse_tensor import SparseTensor, _to_tensor

__all__ = ["to_dense", "from_dense", "reorder", "add", "concat", "reduce_sum", "reduce_max",
           "sparse_dense_matmul", "make", "merge_sorted", "merge_ordered",
           "check_sparse"]


# --- helpers -------------------------------------------------------------------------------

def check_sparse(value, where, arg="sp_input"):
    if not isinstance(value, SparseTensor):
        raise TypeError(f"{where}: {arg} must be a SparseTensor, got {type(value).__name__}")
    return value


def make(indices, values, dense_shape):
    return SparseTensor._make(indices, values, dense_shape)


def _rank_of(*tensors):
    for t in tensors:
        dims = t.shape.dims
        if dims is not None and len(dims) >= 1:
            last = dims[-1] if len(dims) == 2 else dims[0]
            if last is not None:
                return last
    return None


def row_major_order(indices):
    """The stable permutation sorting index rows lexicographically."""
    if indices.shape[0] == 0 or indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


def _spec(dtype, dims):
    return (dtype, TensorShape(dims))


def _sparse_out(dtype, rank, nnz=None):
    """The shape rule's (dtype, shape) triple of a sparse result."""
    return [_spec(dtypes.int64, [nnz, rank]), _spec(dtype, [nnz]), _spec(dtypes.int64, [rank])]


def _index_text(row):
    return "[" + ",".join(str(int(v)) for v in row) + "]"


def check_order(indices, shape, op, require_order=True):
    """TF's SparseToDense validation, row by row: in bounds, then (with
    require_order) after the previous row and not equal to it."""
    n = len(indices)
    if n == 0:
        return
    bad = np.nonzero(np.any((indices < 0) | (indices >= shape), axis=1))[0]
    first_bad = int(bad[0]) if len(bad) else n
    first_order, repeated = n, False
    if require_order and n > 1:
        diff = indices[1:] - indices[:-1]
        differs = diff != 0
        col = np.argmax(differs, axis=1)
        same = ~np.any(differs, axis=1)
        backwards = diff[np.arange(n - 1), col] < 0
        wrong = np.nonzero(same | backwards)[0]
        if len(wrong):
            first_order, repeated = int(wrong[0]) + 1, bool(same[wrong[0]])
    if first_bad <= first_order and first_bad < n:
        raise InvalidArgumentError(
            f"indices[{first_bad}] = {_index_text(indices[first_bad])} is out of bounds: need "
            f"0 <= index < {_index_text(shape)}", op)
    if first_order < n:
        row = _index_text(indices[first_order])
        if repeated:
            raise InvalidArgumentError(f"indices[{first_order}] = {row} is repeated", op)
        raise InvalidArgumentError(
            f"indices[{first_order}] = {row} is out of order. Many sparse ops require sorted "
            "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n", op)


# --- to_dense ------------------------------------------------------------------------------

def _infer_to_dense(inputs, attrs):
    shape, values = inputs[1], inputs[2]
    known = constant_value(shape)
    if known is not None:
        return [_spec(values.dtype, [int(d) for d in np.asarray(known).reshape(-1)])]
    rank = shape.shape.dims[0] if shape.shape.rank == 1 else None
    return [_spec(values.dtype, None if rank is None else [None] * rank)]


@define_op("SparseToDense", infer=_infer_to_dense)
def _sparse_to_dense(indices, shape, values, default, validate_indices):
    shape = np.asarray(shape, np.int64)
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    if np.any(shape < 0):
        raise InvalidArgumentError(f"Dimension {int(shape.min())} must be >= 0", "SparseToDense")
    if validate_indices:
        check_order(indices, shape, "SparseToDense")
    elif len(indices) and (np.any(indices < 0) or np.any(indices >= shape)):
        bad = int(np.nonzero(np.any((indices < 0) | (indices >= shape), axis=1))[0][0])
        raise InvalidArgumentError(f"indices[{bad}] = {_index_text(indices[bad])} is out of "
                                   f"bounds: need 0 <= index < {_index_text(shape)}",
                                   "SparseToDense")
    out = np.empty(tuple(shape), dtype=np.asarray(values).dtype)
    out[...] = default
    if len(indices):
        out[tuple(indices.T)] = values
    return out


@define_grad("SparseToDense")
def _sparse_to_dense_grad(op, grad):
    indices = op.inputs[0]
    values_grad = gather_nd(grad, indices)
    default_grad = math_ops.subtract(dense_reduce_sum(grad), dense_reduce_sum(values_grad))
    return [None, None, values_grad, default_grad]


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """`tf.sparse.to_dense`: the dense tensor, `default_value` (0) where no value is.
    With validate_indices, unordered or repeated indices are an error."""
    sp = check_sparse(sp_input, "tf.sparse.to_dense")
    default = _to_tensor(_zero_of(sp.dtype) if default_value is None else default_value,
                         sp.dtype)
    out = apply("SparseToDense", (sp.indices, sp.dense_shape, sp.values, default),
                {"validate_indices": bool(validate_indices)})
    if not out.shape.is_fully_defined() and sp.shape.rank is not None \
            and sp.shape.is_fully_defined():
        from runtime._src.ops.misc_ops import ensure_shape
        out = ensure_shape(out, sp.shape)             # the static shape TF knows
    return out


def _zero_of(dtype):
    if dtype == dtypes.string:
        return b""
    return False if dtype == dtypes.bool else 0


# --- from_dense ----------------------------------------------------------------------------

def from_dense(tensor, name=None):
    """`tf.sparse.from_dense`: the nonzero (non-empty for strings) entries of `tensor`."""
    t = _to_tensor(tensor)
    if t.shape.rank == 0:
        raise InvalidArgumentError("tf.sparse.from_dense: the tensor must have rank >= 1 "
                                   "(a scalar has no indices)", "Where")
    zero = _to_tensor(_zero_of(t.dtype), t.dtype)
    indices = dense_where(math_ops.not_equal(t, zero))
    return make(indices, gather_nd(t, indices), shape_of(t, dtypes.int64))


# --- reorder -------------------------------------------------------------------------------

def _infer_reorder(inputs, attrs):
    return _sparse_out(inputs[1].dtype, _rank_of(inputs[0], inputs[2]),
                       inputs[1].shape.dims[0] if inputs[1].shape.rank == 1 else None)[:2]


@define_op("SparseReorder", infer=_infer_reorder, num_outputs=2)
def _sparse_reorder(indices, values, shape):
    order = row_major_order(np.asarray(indices))
    return np.asarray(indices)[order], np.asarray(values)[order]


@define_grad("SparseReorder")
def _sparse_reorder_grad(op, grad_indices, grad_values):
    indices, values, shape = op.inputs
    nnz = shape_of(values, dtypes.int64)
    _, perm = apply("SparseReorder", (indices, _arange_like(values), shape))
    return [None, scatter_nd(reshape(perm, [-1, 1]), grad_values, nnz), None]


def _arange_like(values):
    return apply("SparseRange", (values,))


@define_op("SparseRange", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [inputs[0].shape.dims[0] if inputs[0].shape.rank == 1 else None])])
def _sparse_range(values):
    return np.arange(len(values), dtype=np.int64)


not_differentiable("SparseRange")


def reorder(sp_input, name=None):
    """`tf.sparse.reorder`: the same SparseTensor with its indices in row-major order."""
    sp = check_sparse(sp_input, "tf.sparse.reorder")
    indices, values = apply("SparseReorder", (sp.indices, sp.values, sp.dense_shape))
    out = make(indices, values, sp.dense_shape)
    out._shape_default = sp._shape_default
    return out


# --- add -----------------------------------------------------------------------------------

def _infer_sparse_add(inputs, attrs):
    return _sparse_out(inputs[1].dtype, _rank_of(inputs[0], inputs[2], inputs[3], inputs[5]))


def _cmp(a, b):
    for x, y in zip(a, b):
        if x != y:
            return -1 if x < y else 1
    return 0


def merge_sorted(a_idx, b_idx):
    """TF's merge of two index lists assumed ordered: (from_a, position) per
    output entry, and for matched pairs the position in b (-1 otherwise)."""
    out, i, j = [], 0, 0
    while i < len(a_idx) and j < len(b_idx):
        c = _cmp(a_idx[i], b_idx[j])
        if c < 0:
            out.append((i, -1))
            i += 1
        elif c > 0:
            out.append((-1, j))
            j += 1
        else:
            out.append((i, j))
            i += 1
            j += 1
    out += [(k, -1) for k in range(i, len(a_idx))] + [(-1, k) for k in range(j, len(b_idx))]
    return out


def _ordered_keys(indices, shape):
    """Row-major linear keys of index rows that are in order and unique, else
    None (then the merge walks pairs, as TF's kernel does)."""
    try:
        keys = np.ravel_multi_index(tuple(indices.T), tuple(int(d) for d in shape)) \
            if len(indices) else np.zeros(0, np.int64)
    except ValueError:                     # out of bounds, or too large to linearize
        return None
    return keys if np.all(np.diff(keys) > 0) else None


def merge_ordered(a_ind, a_val, b_ind, b_val, shape, combine, thresh=None):
    """The merge of two SparseTensors with ordered unique indices, vectorized:
    (indices, values) with `combine(a, b)` at shared indices (dropped when its
    magnitude is below `thresh`) and `combine(a, 0)` / `combine(0, b)` (or the
    value itself, with thresh) elsewhere. None when an input is not ordered."""
    ka, kb = _ordered_keys(a_ind, shape), _ordered_keys(b_ind, shape)
    if ka is None or kb is None or not len(shape):
        return None
    keys = np.concatenate([ka, kb])
    if len(keys) == 0:
        return np.zeros((0, len(shape)), np.int64), np.asarray(a_val)[:0]
    order = np.argsort(keys, kind="stable")       # a's entry first at a shared index
    keys = keys[order]
    rows = np.concatenate([a_ind, b_ind])[order]
    from_a = (np.arange(len(keys)) < len(ka))[order]
    vals = np.concatenate([a_val, b_val])[order]
    first = np.r_[keys[1:] == keys[:-1], False]   # the a-half of a shared index
    second = np.r_[False, first[:-1]]
    zero = np.zeros_like(vals)
    if thresh is None:
        a_side = np.where(from_a, vals, zero)
        b_side = np.where(from_a, zero, vals)
        b_side[first] = vals[second]
        out = combine(a_side, b_side)
    else:
        out = vals.copy()
        out[first] = combine(vals[first], vals[second])
    keep = ~second
    if thresh is not None:
        keep &= ~(first & (np.abs(out) < thresh))
    return rows[keep], out[keep].astype(np.asarray(a_val).dtype)


@define_op("SparseAdd", infer=_infer_sparse_add, num_outputs=3)
def _sparse_add(a_ind, a_val, a_shape, b_ind, b_val, b_shape, thresh):
    if not np.array_equal(a_shape, b_shape):
        raise InvalidArgumentError(
            f"Operands' shapes do not match: A.shape = {_index_text(a_shape)} and B.shape = "
            f"{_index_text(b_shape)}", "SparseAdd")
    rank = len(a_shape)
    a_ind = np.asarray(a_ind, np.int64).reshape(-1, rank)
    b_ind = np.asarray(b_ind, np.int64).reshape(-1, rank)
    fast = merge_ordered(a_ind, np.asarray(a_val), b_ind, np.asarray(b_val), a_shape,
                         np.add, thresh)
    if fast is not None:
        return fast[0], fast[1], np.asarray(a_shape, np.int64)
    pairs = merge_sorted(a_ind, b_ind)
    rows, vals = [], []
    zero = np.zeros((), np.asarray(a_val).dtype)
    for i, j in pairs:
        if i >= 0 and j >= 0:
            s = a_val[i] + b_val[j]
            if np.abs(s) >= thresh:
                rows.append(a_ind[i])
                vals.append(s)
        elif i >= 0:
            rows.append(a_ind[i])
            vals.append(a_val[i])
        else:
            rows.append(b_ind[j])
            vals.append(b_val[j])
    rank = len(a_shape)
    indices = np.array(rows, np.int64).reshape(len(rows), rank)
    values = np.array(vals, dtype=zero.dtype).reshape(len(vals))
    return indices, values, np.asarray(a_shape, np.int64)


@define_op("SparseAddGrad", infer=lambda inputs, attrs: [
    _spec(inputs[0].dtype, [None]), _spec(inputs[0].dtype, [None])], num_outputs=2)
def _sparse_add_grad_kernel(grad, a_ind, b_ind, sum_ind):
    def pick(ind):
        keys = {tuple(r): k for k, r in enumerate(np.asarray(sum_ind))}
        out = np.zeros(len(ind), np.asarray(grad).dtype)
        for k, r in enumerate(np.asarray(ind)):
            pos = keys.get(tuple(r))
            if pos is not None:
                out[k] = grad[pos]
        return out
    return pick(a_ind), pick(b_ind)


not_differentiable("SparseAddGrad")


@define_grad("SparseAdd")
def _sparse_add_grad(op, g_ind, g_val, g_shape):
    a_ind, b_ind, sum_ind = op.inputs[0], op.inputs[3], op.outputs[0]
    a_grad, b_grad = apply("SparseAddGrad", (g_val, a_ind, b_ind, sum_ind))
    return [None, a_grad, None, None, b_grad, None, None]


@define_op("SparseTensorDenseAdd", infer=lambda inputs, attrs: [
    _spec(inputs[3].dtype, inputs[3].shape.dims)])
def _sparse_dense_add(indices, values, shape, dense):
    if not np.array_equal(np.asarray(shape), np.shape(dense)):
        raise InvalidArgumentError(
            f"Dimensions [{', '.join(map(str, np.asarray(shape)))}] and "
            f"[{', '.join(map(str, np.shape(dense)))}] are not compatible (a SparseTensor "
            "plus a dense tensor must have the same shape)", "SparseTensorDenseAdd")
    out = np.array(dense, copy=True)
    if len(indices):
        np.add.at(out, tuple(np.asarray(indices).T), values)
    return out


@define_grad("SparseTensorDenseAdd")
def _sparse_dense_add_grad(op, grad):
    return [None, gather_nd(grad, op.inputs[0]), None, grad]


def add(a, b, threshold=0):
    """`tf.sparse.add`: sparse + sparse is sparse (matched entries summed, sums
    smaller in magnitude than `threshold` dropped); sparse + dense is dense."""
    sparse_a, sparse_b = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if sparse_a and sparse_b:
        if a.dtype != b.dtype:       # TF: InvalidArgumentError eagerly, TypeError traced
            error = TypeError if current_graph() is not None else InvalidArgumentError
            text = (f"tf.sparse.add: the two SparseTensors have different dtypes "
                    f"({a.dtype.name} and {b.dtype.name})")
            raise error(text) if error is TypeError else error(text, "SparseAdd")
        thresh = _to_tensor(threshold, a.dtype.real_dtype if a.dtype.is_complex else a.dtype)
        return make(*apply("SparseAdd", (a.indices, a.values, a.dense_shape, b.indices,
                                         b.values, b.dense_shape, thresh)))
    if not (sparse_a or sparse_b):
        raise TypeError("tf.sparse.add: at least one of a and b must be a SparseTensor")
    sp, dense = (a, b) if sparse_a else (b, a)
    dense = _to_tensor(dense, sp.dtype)
    return apply("SparseTensorDenseAdd", (sp.indices, sp.values, sp.dense_shape, dense))


# --- concat --------------------------------------------------------------------------------

def _infer_concat(inputs, attrs):
    n = attrs["n"]
    return _sparse_out(inputs[n].dtype, _rank_of(*inputs[:n]))


@define_op("SparseConcat", infer=_infer_concat, num_outputs=3)
def _sparse_concat(*parts, n, axis, expand):
    inds, vals, shapes = parts[:n], parts[n:2 * n], [np.asarray(s) for s in parts[2 * n:]]
    rank = len(shapes[0])
    for i, s in enumerate(shapes):
        if len(s) != rank:
            raise InvalidArgumentError(f"Ranks of all input tensors must match: expected "
                                       f"{rank} but got {len(s)} at position {i}", "SparseConcat")
    ax = axis + rank if axis < 0 else axis
    if not 0 <= ax < rank:
        raise InvalidArgumentError(f"Concat dimension must be in range [{-rank}, {rank}), got "
                                   f"{axis}", "SparseConcat")
    out_shape = shapes[0].copy()
    if expand:
        out_shape = np.max(np.stack(shapes), axis=0)
    for i, s in enumerate(shapes[1:], 1):
        other = np.delete(s, ax) != np.delete(out_shape, ax)
        if not expand and np.any(other):
            d = int(np.nonzero(other)[0][0])
            d = d + (d >= ax)
            raise InvalidArgumentError(
                f"Input shapes must match: expected {int(out_shape[d])} for dimension {d} but "
                f"got {int(s[d])} at position {i}", "SparseConcat")
    offsets = np.concatenate([[0], np.cumsum([s[ax] for s in shapes])])
    out_shape[ax] = offsets[-1]
    moved, moved_values = [], []
    for k, (ind, val) in enumerate(zip(inds, vals)):
        ind = np.array(ind, np.int64).reshape(-1, rank)
        order = row_major_order(ind)          # TF reorders each input first
        ind = ind[order]
        ind[:, ax] += offsets[k]
        moved.append(ind)
        moved_values.append(np.asarray(val)[order])
    indices = np.concatenate(moved) if moved else np.zeros((0, rank), np.int64)
    values = np.concatenate(moved_values)
    if ax != 0:
        # TF's output order: by the dimensions before the concat axis, then input
        # by input (each input's own order kept).
        keys = [indices[:, d] for d in reversed(range(ax))]
        order = np.lexsort(keys) if keys else np.arange(len(indices))
        indices, values = indices[order], values[order]
    return indices, values, out_shape.astype(np.int64)


not_differentiable("SparseConcat")


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """`tf.sparse.concat(axis, sp_inputs, expand_nonconcat_dims=False)`. Dense
    tensors among the inputs are converted with from_dense."""
    inputs = [s if isinstance(s, SparseTensor) else from_dense(s) for s in sp_inputs]
    if not inputs:
        raise ValueError("tf.sparse.concat: sp_inputs is empty")
    dtypes_seen = {s.dtype for s in inputs}
    if len(dtypes_seen) > 1:
        raise TypeError(f"tf.sparse.concat: the inputs have different dtypes "
                        f"{sorted(d.name for d in dtypes_seen)}")
    parts = [s.indices for s in inputs] + [s.values for s in inputs] + \
        [s.dense_shape for s in inputs]
    return make(*apply("SparseConcat", parts, {"n": len(inputs), "axis": int(axis),
                                               "expand": bool(expand_nonconcat_dims)}))


# --- reductions ----------------------------------------------------------------------------

def _reduction_axes(axis, rank):
    if axis is None:
        return list(range(rank))
    axes = [int(a) for a in np.asarray(axis).reshape(-1)]
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(f"Invalid reduction dimension {a}, for input with "
                                       f"{rank} dimensions.", "SparseReduce")
    return sorted({a % rank for a in axes})


def _groups(indices, shape, axes, keepdims):
    """(kept index rows per value, output dense shape, group id per value, group rows)."""
    rank = len(shape)
    kept = [d for d in range(rank) if d not in axes]
    out_shape = [1 if d in axes else int(shape[d]) for d in range(rank)] if keepdims \
        else [int(shape[d]) for d in kept]
    rows = indices[:, kept] if len(indices) else np.zeros((0, len(kept)), np.int64)
    if len(rows) == 0:
        return out_shape, np.zeros(0, np.int64), rows
    uniq, ids = np.unique(rows, axis=0, return_inverse=True)
    return out_shape, ids.reshape(-1), uniq


def _reduce_kernel(kind, sparse_out):
    def kernel(indices, values, shape, axis, keepdims):
        shape = np.asarray(shape)
        indices, values = np.asarray(indices).reshape(-1, len(shape)), np.asarray(values)
        axes = _reduction_axes(axis, len(shape))
        out_shape, ids, group_rows = _groups(indices, shape, axes, keepdims)
        n = len(group_rows)
        if kind == "sum":
            red = np.zeros(n, values.dtype)
            np.add.at(red, ids, values)
        else:
            red = np.full(n, _lowest(values.dtype), values.dtype)
            np.maximum.at(red, ids, values)
        if keepdims:
            full = np.zeros((n, len(shape)), np.int64)
            kept = [d for d in range(len(shape)) if d not in axes]
            full[:, kept] = group_rows
            group_rows = full
        if sparse_out:
            return group_rows.astype(np.int64), red, np.array(out_shape, np.int64)
        out = np.zeros(out_shape, values.dtype)
        if n and group_rows.shape[1]:
            out[tuple(group_rows.T)] = red
        elif n:
            out[...] = red[0]
        return out
    return kernel


def _lowest(dtype):
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind == "b":
        return False
    return np.iinfo(dtype).min


def _infer_reduce(inputs, attrs):
    values, shape = inputs[1], inputs[2]
    known = constant_value(shape)
    if known is None:
        return [_spec(values.dtype, None)]
    dims = [int(d) for d in np.asarray(known)]
    axes = _reduction_axes(attrs["axis"], len(dims))
    out = [1 if d in axes else s for d, s in enumerate(dims)] if attrs["keepdims"] \
        else [s for d, s in enumerate(dims) if d not in axes]
    return [_spec(values.dtype, out)]


def _infer_reduce_sparse(inputs, attrs):
    return _sparse_out(inputs[1].dtype, None)


define_op("SparseReduceSum", infer=_infer_reduce)(_reduce_kernel("sum", False))
define_op("SparseReduceMax", infer=_infer_reduce)(_reduce_kernel("max", False))
define_op("SparseReduceSumSparse", infer=_infer_reduce_sparse, num_outputs=3)(
    _reduce_kernel("sum", True))
define_op("SparseReduceMaxSparse", infer=_infer_reduce_sparse, num_outputs=3)(
    _reduce_kernel("max", True))
not_differentiable("SparseReduceMax", "SparseReduceSumSparse", "SparseReduceMaxSparse")


@define_grad("SparseReduceSum")
def _sparse_reduce_sum_grad(op, grad):
    indices, shape = op.inputs[0], op.inputs[2]
    axis = op.attrs["axis"]
    kept = apply("SparseReduceKeepIndices", (indices, shape), {"axis": axis,
                                                                "keepdims": op.attrs["keepdims"]})
    return [None, gather_nd(grad, kept), None]


@define_op("SparseReduceKeepIndices", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [None, None])])
def _keep_indices(indices, shape, axis, keepdims):
    axes = _reduction_axes(axis, len(shape))
    indices = np.asarray(indices).reshape(-1, len(shape))
    if keepdims:
        out = indices.copy()
        out[:, axes] = 0
        return out
    return indices[:, [d for d in range(len(shape)) if d not in axes]]


not_differentiable("SparseReduceKeepIndices")


def _reduce(kind, sp_input, axis, keepdims, output_is_sparse, name):
    sp = check_sparse(sp_input, f"tf.sparse.reduce_{kind}")
    axis_attr = None if axis is None else tuple(int(a) for a in np.asarray(axis).reshape(-1))
    attrs = {"axis": axis_attr, "keepdims": bool(keepdims)}
    op = f"SparseReduce{kind.capitalize()}"
    if output_is_sparse:
        return make(*apply(op + "Sparse", (sp.indices, sp.values, sp.dense_shape), attrs))
    return apply(op, (sp.indices, sp.values, sp.dense_shape), attrs)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """`tf.sparse.reduce_sum`: the sum over `axis` of the values (absent entries
    are 0); dense unless `output_is_sparse`."""
    return _reduce("sum", sp_input, axis, keepdims, output_is_sparse, name)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """`tf.sparse.reduce_max`: the maximum over `axis` of the present values
    (absent entries are not counted; a slice with no value gives 0)."""
    return _reduce("max", sp_input, axis, keepdims, output_is_sparse, name)


# --- sparse_dense_matmul ---------------------------------------------------------------------

def _infer_matmul(inputs, attrs):
    shape, b = inputs[2], inputs[3]
    known = constant_value(shape)
    a_rows = None
    if known is not None:
        known = [int(d) for d in np.asarray(known)]
        a_rows = known[1] if attrs["adjoint_a"] else known[0]
    b_dims = b.shape.dims
    cols = None if b_dims is None else (b_dims[0] if attrs["adjoint_b"] else b_dims[1])
    return [_spec(b.dtype, [a_rows, cols])]


@define_op("SparseTensorDenseMatMul", infer=_infer_matmul)
def _sparse_dense_matmul(indices, values, shape, b, adjoint_a, adjoint_b):
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    if len(shape) != 2:
        raise InvalidArgumentError(f"Tensor 'a_shape' must have 2 elements (sp_a must be a "
                                   f"matrix), got shape {_index_text(shape)}",
                                   "SparseTensorDenseMatMul")
    b = np.asarray(b)
    if adjoint_b:
        b = np.conj(b.T)
    rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    n_rows, n_inner = (shape[1], shape[0]) if adjoint_a else (shape[0], shape[1])
    if b.ndim != 2 or b.shape[0] != n_inner:
        raise InvalidArgumentError(
            f"Cannot multiply A and B because inner dimension does not match: {n_inner} vs. "
            f"{b.shape[0] if b.ndim else 0}.  Did you forget a transpose?  Dimensions of A: "
            f"[{shape[0]}, {shape[1]}).  Dimensions of B: [{', '.join(map(str, b.shape))})",
            "SparseTensorDenseMatMul")
    if len(rows) and (np.any(cols >= n_inner) or np.any(rows >= n_rows) or np.any(rows < 0)
                      or np.any(cols < 0)):
        k = int(np.nonzero((cols >= n_inner) | (rows >= n_rows) | (rows < 0) | (cols < 0))[0][0])
        raise InvalidArgumentError(f"k ({k}) from index[{k},{int(adjoint_a)}] out of bounds "
                                   f"(>={n_inner})", "SparseTensorDenseMatMul")
    vals = np.conj(values) if adjoint_a else values
    out = np.zeros((int(n_rows), b.shape[1]), np.result_type(values, b))
    if len(rows):
        np.add.at(out, rows, vals[:, None] * b[cols])
    return out.astype(b.dtype)


@define_grad("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, grad):
    indices, values, shape, b = op.inputs
    adj_a, adj_b = op.attrs["adjoint_a"], op.attrs["adjoint_b"]
    # b's gradient: A^T grad (A's adjoint flips), transposed back when b was.
    b_grad = apply("SparseTensorDenseMatMul", (indices, values, shape, grad),
                   {"adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = dense_transpose(b_grad)
    # a's values: sum_k grad[row, k] * B[col, k] at each value's (row, col).
    rows = gather(dense_transpose(indices), 1 if adj_a else 0)
    cols = gather(dense_transpose(indices), 0 if adj_a else 1)
    b_used = dense_transpose(b) if adj_b else b
    values_grad = dense_reduce_sum(math_ops.multiply(gather(grad, rows), gather(b_used, cols)),
                                   axis=1)
    return [None, values_grad, None, b_grad]


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """`tf.sparse.sparse_dense_matmul`: A @ B for a sparse A and a dense B
    (or a dense A and a sparse B), as a dense tensor; adjoint_* transpose
    (and conjugate) an operand first."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # dense A @ sparse B == (B^T A^T)^T
        a = _to_tensor(sp_a, b.dtype)
        out = sparse_dense_matmul(b, a, adjoint_a=not adjoint_b, adjoint_b=not adjoint_a)
        return dense_transpose(out)
    sp = check_sparse(sp_a, "tf.sparse.sparse_dense_matmul", "sp_a")
    b = _to_tensor(b, sp.dtype)
    if sp.dtype != b.dtype:
        raise TypeError(f"tf.sparse.sparse_dense_matmul: sp_a is {sp.dtype.name} but b is "
                        f"{b.dtype.name}")
    return apply("SparseTensorDenseMatMul", (sp.indices, sp.values, sp.dense_shape, b),
                 {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)})
