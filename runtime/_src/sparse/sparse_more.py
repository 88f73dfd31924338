"""The rest of `tf.sparse`: reshape, slice, retain, fill_empty_rows,
reset_shape, split, transpose, expand_dims, eye, maximum / minimum, softmax,
to_indicator, map_values, mask, bincount, segment_sum / mean / sqrt_n and
sampled_addmm. Each works eagerly and in traced graphs (ops over the
component tensors); gradients where TF 2.21 has them (slice, fill_empty_rows,
maximum / minimum, softmax, and the segment reductions w.r.t. the data).
"""

import numpy as np

from runtime._src.core import dtypes, nest
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import ones_like, reshape, shape as shape_of
from runtime._src.ops.manipulation_ops import gather
from runtime._src.ops.scatter_ops import boolean_mask, scatter_nd
from runtime._src.ops.segment_ops import segment_sum as dense_segment_sum
from runtime._src.ops.segment_ops import unsorted_segment_sum
from runtime._src.ops.shape_rules import constant_value
from runtime._src.sparse.sparse_ops import (_index_text, _rank_of, _sparse_out, _spec,
                                            check_sparse, make, merge_ordered,
                                            merge_sorted, reorder, row_major_order)
from runtime._src.sparse.sparse_tensor import SparseTensor, _to_tensor, _int64

__all__ = ["reshape_sparse", "slice_sparse", "retain", "fill_empty_rows", "reset_shape",
           "split", "transpose", "expand_dims", "eye", "maximum", "minimum", "softmax",
           "to_indicator", "map_values", "mask", "bincount", "segment_sum", "segment_mean",
           "segment_sqrt_n", "sampled_addmm", "ragged_fill_empty_rows",
           "ragged_fill_empty_rows_grad"]


def _known(t):
    v = constant_value(t)
    return None if v is None else [int(d) for d in np.asarray(v).reshape(-1)]


# --- reshape -------------------------------------------------------------------------------

@define_op("SparseReshape", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [inputs[0].shape.dims[0] if inputs[0].shape.rank == 2 else None,
                         inputs[2].shape.dims[0] if inputs[2].shape.rank == 1 else None]),
    _spec(dtypes.int64, inputs[2].shape.dims)], num_outputs=2)
def _sparse_reshape(indices, shape, new_shape):
    shape, new_shape = np.asarray(shape, np.int64), np.array(new_shape, np.int64)
    total = int(np.prod(shape))
    unknown = np.nonzero(new_shape == -1)[0]
    if len(unknown) > 1:
        raise InvalidArgumentError(f"only one output dimension may be -1, not both "
                                   f"{unknown[0]} and {unknown[1]}", "SparseReshape")
    known = int(np.prod(new_shape[new_shape != -1]))
    if len(unknown):
        if known == 0 or total % known:
            raise InvalidArgumentError(
                f"Input to reshape is a SparseTensor with {total} dense values, but the "
                f"requested shape requires a multiple of {known}. "
                f"inputShape={_index_text(shape)} outputShape={_index_text(new_shape)}",
                "SparseReshape")
        new_shape[unknown[0]] = total // known
    elif known != total:
        raise InvalidArgumentError(
            f"Input to reshape is a tensor with {total} dense values, but the requested shape "
            f"has {known}. inputShape={_index_text(shape)} outputShape="
            f"{_index_text(new_shape)}", "SparseReshape")
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    if len(indices) == 0:
        return np.zeros((0, len(new_shape)), np.int64), new_shape
    flat = np.ravel_multi_index(tuple(indices.T), tuple(shape)) if len(shape) else \
        np.zeros(len(indices), np.int64)
    out = np.stack(np.unravel_index(flat, tuple(new_shape)), axis=1) if len(new_shape) else \
        np.zeros((len(indices), 0), np.int64)
    return out.astype(np.int64), new_shape


not_differentiable("SparseReshape")


def reshape_sparse(sp_input, shape, name=None):
    """`tf.sparse.reshape`: the same values at the positions of the new
    (row-major) shape; one dimension may be -1."""
    sp = check_sparse(sp_input, "tf.sparse.reshape")
    new_shape = _int64(shape, "shape")
    indices, out_shape = apply("SparseReshape", (sp.indices, sp.dense_shape, new_shape))
    return make(indices, sp.values, out_shape)


# --- slice ---------------------------------------------------------------------------------

@define_op("SparseSlice", infer=lambda inputs, attrs: _sparse_out(
    inputs[1].dtype, _rank_of(inputs[0], inputs[2])), num_outputs=3)
def _sparse_slice(indices, values, shape, start, size):
    shape, start, size = (np.asarray(a, np.int64) for a in (shape, start, size))
    if len(start) != len(shape) or len(size) != len(shape):
        raise InvalidArgumentError(f"Expected start and size of length {len(shape)}, got "
                                   f"{len(start)} and {len(size)}", "SparseSlice")
    end = np.minimum(start + size, shape)
    out_shape = np.maximum(end - start, 0)
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    keep = np.all((indices >= start) & (indices < end), axis=1) if len(indices) else \
        np.zeros(0, bool)
    return (indices[keep] - start).astype(np.int64), np.asarray(values)[keep], \
        out_shape.astype(np.int64)


@define_grad("SparseSlice")
def _sparse_slice_grad(op, g_ind, g_val, g_shape):
    indices, start, out_indices = op.inputs[0], op.inputs[3], op.outputs[0]
    return [None, apply("SparseSliceGrad", (g_val, indices, start, out_indices)), None, None,
            None]


@define_op("SparseSliceGrad", infer=lambda inputs, attrs: [
    _spec(inputs[0].dtype, [inputs[1].shape.dims[0] if inputs[1].shape.rank == 2 else None])])
def _sparse_slice_grad_kernel(grad, indices, start, out_indices):
    shifted = {tuple(r): k for k, r in enumerate(np.asarray(out_indices) + np.asarray(start))}
    out = np.zeros(len(indices), np.asarray(grad).dtype)
    for k, r in enumerate(np.asarray(indices)):
        pos = shifted.get(tuple(r))
        if pos is not None:
            out[k] = grad[pos]
    return out


not_differentiable("SparseSliceGrad")


def slice_sparse(sp_input, start, size, name=None):
    """`tf.sparse.slice`: the entries in [start, start + size), shifted to the
    origin; the shape is clipped to the input's."""
    sp = check_sparse(sp_input, "tf.sparse.slice")
    return make(*apply("SparseSlice", (sp.indices, sp.values, sp.dense_shape,
                                       _int64(start, "start"), _int64(size, "size"))))


# --- retain, reset_shape, fill_empty_rows ------------------------------------------------------

def retain(sp_input, to_retain):
    """`tf.sparse.retain`: the entries where the bool vector `to_retain` is True."""
    sp = check_sparse(sp_input, "tf.sparse.retain")
    keep = _to_tensor(to_retain, dtypes.bool)
    if keep.shape.rank not in (None, 1):
        raise ValueError(f"tf.sparse.retain: to_retain must be a vector, got shape {keep.shape}")
    n, m = keep.shape.dims and keep.shape.dims[0], sp.values.shape.dims[0]
    if n is not None and m is not None and n != m:
        raise ValueError(f"Dimensions {m} and {n} are not compatible (tf.sparse.retain: "
                         f"to_retain must have one entry per value)")
    return make(boolean_mask(sp.indices, keep), boolean_mask(sp.values, keep), sp.dense_shape)


@define_op("SparseResetShape", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [_rank_of(inputs[0])])])
def _reset_shape(indices, shape, *new_shape):
    indices = np.asarray(indices).reshape(-1, len(shape))
    if not new_shape:
        return (indices.max(axis=0) + 1).astype(np.int64) if len(indices) else \
            np.zeros(len(shape), np.int64)
    new = np.asarray(new_shape[0], np.int64)
    if len(new) != len(shape):
        raise InvalidArgumentError(f"tf.sparse.reset_shape: new_shape has rank {len(new)} but "
                                   f"the SparseTensor has rank {len(shape)}", "SparseResetShape")
    if np.any(new < np.asarray(shape)):
        raise InvalidArgumentError(
            f"tf.sparse.reset_shape: new_shape {_index_text(new)} is smaller than the "
            f"SparseTensor's shape {_index_text(shape)} in some dimension", "SparseResetShape")
    return new


not_differentiable("SparseResetShape")


def reset_shape(sp_input, new_shape=None):
    """`tf.sparse.reset_shape`: the same entries with dense shape `new_shape`
    (at least the old one in every dimension), or the tight bounding box of
    the indices when new_shape is None."""
    sp = check_sparse(sp_input, "tf.sparse.reset_shape")
    extra = () if new_shape is None else (_int64(new_shape, "new_shape"),)
    old, new = _known(sp.dense_shape), extra and _known(extra[0])
    if old is not None and new and len(old) == len(new) and \
            any(n < o for n, o in zip(new, old)):
        raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape. "
                         f" Found new_shape ({np.array(new)}), sp_input.shape "
                         f"({np.array(old)}).")
    return make(sp.indices, sp.values, apply("SparseResetShape",
                                             (sp.indices, sp.dense_shape) + extra))


@define_op("SparseFillEmptyRows", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [None, _rank_of(inputs[0], inputs[2])]),
    _spec(inputs[1].dtype, [None]), _spec(dtypes.bool, [None]),
    _spec(dtypes.int64, [inputs[1].shape.dims[0] if inputs[1].shape.rank == 1 else None])],
    num_outputs=4)
def _fill_empty_rows(indices, values, shape, default):
    shape = np.asarray(shape, np.int64)
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    values = np.asarray(values)
    n_rows = int(shape[0]) if len(shape) else 0
    if len(indices) and (np.any(indices[:, 0] < 0) or np.any(indices[:, 0] >= n_rows)):
        k = int(np.nonzero((indices[:, 0] < 0) | (indices[:, 0] >= n_rows))[0][0])
        raise InvalidArgumentError(f"indices({k}, 0) is invalid: {int(indices[k, 0])} >= "
                                   f"{n_rows}", "SparseFillEmptyRows")
    empty = np.ones(n_rows, bool)
    empty[indices[:, 0]] = False
    empty_rows = np.nonzero(empty)[0]
    rows = np.concatenate([indices[:, 0], empty_rows])
    order = np.argsort(rows, kind="stable")
    filler = np.zeros((len(empty_rows), len(shape)), np.int64)
    filler[:, 0] = empty_rows
    all_idx = np.concatenate([indices, filler])[order]
    all_vals = np.concatenate([values, np.full(len(empty_rows), default, values.dtype)])[order]
    reverse = np.empty(len(order), np.int64)
    reverse[order] = np.arange(len(order))
    return all_idx, all_vals, empty, reverse[:len(indices)]


@define_grad("SparseFillEmptyRows")
def _fill_empty_rows_grad(op, g_ind, g_val, g_empty, g_reverse):
    reverse = op.outputs[3]
    values_grad = gather(g_val, reverse)
    default_grad = math_ops.subtract(_total(g_val), _total(values_grad))
    return [None, values_grad, None, default_grad]


def _total(t):
    from runtime._src.ops.reduction_ops import reduce_sum
    return reduce_sum(t)


def fill_empty_rows(sp_input, default_value, name=None):
    """`tf.sparse.fill_empty_rows`: (the SparseTensor with `default_value` at
    [row, 0, ...] of every row without entries, the bool indicator of those rows)."""
    sp = check_sparse(sp_input, "tf.sparse.fill_empty_rows")
    default = _to_tensor(default_value, sp.dtype)
    indices, values, empty, _ = apply("SparseFillEmptyRows",
                                      (sp.indices, sp.values, sp.dense_shape, default))
    return make(indices, values, sp.dense_shape), empty


def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    """`tf.ragged_fill_empty_rows`: (value_rowids, values) with `default_value` in
    each of the `nrows` rows that had none, rows sorted (stably); the bool indicator
    of those rows; and where each input value went (reverse_index_map)."""
    rowids = convert_to_tensor(value_rowids, dtype=dtypes.int64)
    vals = convert_to_tensor(values)
    default = _to_tensor(default_value, vals.dtype)
    if default.shape.rank not in (None, 0):
        raise InvalidArgumentError(f"default_value must be a scalar, saw: "
                                   f"{default.shape.as_list()}", "RaggedFillEmptyRows")
    shape = reshape(convert_to_tensor(nrows, dtype=dtypes.int64), [1])
    indices, out_values, empty, reverse = apply(
        "SparseFillEmptyRows", (reshape(rowids, [-1, 1]), vals, shape, default))
    return reshape(indices, [-1]), out_values, empty, reverse


def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None):
    """`tf.ragged_fill_empty_rows_grad`: (the gradient of the input values, of the
    default value) from that of the filled values."""
    grad = convert_to_tensor(grad_values)
    d_values = gather(grad, convert_to_tensor(reverse_index_map, dtype=dtypes.int64))
    return d_values, math_ops.subtract(_total(grad), _total(d_values))


# --- split, transpose, expand_dims, eye -------------------------------------------------------

@define_op("SparseSplit", infer=lambda inputs, attrs: [
    s for _ in range(attrs["num_split"]) for s in _sparse_out(inputs[1].dtype,
                                                               _rank_of(inputs[0], inputs[2]))],
    num_outputs=None)
def _sparse_split(indices, values, shape, axis, num_split):
    shape = np.asarray(shape, np.int64)
    rank = len(shape)
    ax = axis + rank if axis < 0 else axis
    if not 0 <= ax < rank:
        raise InvalidArgumentError(f"Input axis should be in range [{-rank}, {rank}), got "
                                   f"{axis}", "SparseSplit")
    size = int(shape[ax])
    if num_split < 1 or num_split > size:
        raise InvalidArgumentError(f"Input num_split should be between 1 and the splitting "
                                   f"dimension size ({size}), got {num_split}", "SparseSplit")
    base, extra = divmod(size, num_split)
    sizes = [base + (1 if k < extra else 0) for k in range(num_split)]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    indices = np.asarray(indices, np.int64).reshape(-1, rank)
    out = []
    for k in range(num_split):
        keep = (indices[:, ax] >= starts[k]) & (indices[:, ax] < starts[k + 1])
        ind = indices[keep].copy()
        ind[:, ax] -= starts[k]
        piece_shape = shape.copy()
        piece_shape[ax] = sizes[k]
        out += [ind, np.asarray(values)[keep], piece_shape]
    return tuple(out)


not_differentiable("SparseSplit")


def split(sp_input=None, num_split=None, axis=None, name=None):
    """`tf.sparse.split`: `num_split` SparseTensors along `axis` (the first
    size % num_split pieces one longer)."""
    sp = check_sparse(sp_input, "tf.sparse.split")
    if num_split is None or axis is None:
        raise ValueError("tf.sparse.split: num_split and axis are required")
    outs = apply("SparseSplit", (sp.indices, sp.values, sp.dense_shape),
                 {"axis": int(axis), "num_split": int(num_split)})
    return [make(*outs[3 * k:3 * k + 3]) for k in range(int(num_split))]


def transpose(sp_input, perm=None, name=None):
    """`tf.sparse.transpose`: dimensions permuted by `perm` (reversed by
    default), indices reordered to row-major order."""
    sp = check_sparse(sp_input, "tf.sparse.transpose")
    rank = sp.shape.rank
    if perm is None:
        if rank is None:
            raise ValueError("tf.sparse.transpose: perm is needed when the rank is unknown")
        perm = list(range(rank))[::-1]
    perm_t = _to_tensor(perm, dtypes.int64)
    indices = gather(sp.indices, perm_t, axis=1)
    dense_shape = gather(sp.dense_shape, perm_t)
    return reorder(make(indices, sp.values, dense_shape))


def expand_dims(sp_input, axis=None, name=None):
    """`tf.sparse.expand_dims`: a dimension of size 1 inserted at `axis`."""
    sp = check_sparse(sp_input, "tf.sparse.expand_dims")
    rank = sp.shape.rank
    axis = -1 if axis is None else int(axis)
    if rank is None:
        raise ValueError("tf.sparse.expand_dims: the rank must be known")
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"tf.sparse.expand_dims: axis {axis} is out of range for rank {rank}")
    at = axis + rank + 1 if axis < 0 else axis
    indices, shape = apply("SparseExpandDims", (sp.indices, sp.dense_shape), {"axis": at})
    return make(indices, sp.values, shape)


@define_op("SparseExpandDims", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [None, None]), _spec(dtypes.int64, [None])], num_outputs=2)
def _expand_dims(indices, shape, axis):
    indices = np.asarray(indices, np.int64)
    return (np.insert(indices, axis, 0, axis=1),
            np.insert(np.asarray(shape, np.int64), axis, 1))


not_differentiable("SparseExpandDims")


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """`tf.sparse.eye`: the identity matrix [num_rows, num_columns] as a SparseTensor."""
    rows = _to_tensor(num_rows, dtypes.int64) if not isinstance(num_rows, Tensor) else \
        math_ops.cast(num_rows, dtypes.int64)
    cols = rows if num_columns is None else (
        _to_tensor(num_columns, dtypes.int64) if not isinstance(num_columns, Tensor)
        else math_ops.cast(num_columns, dtypes.int64))
    dtype = dtypes.as_dtype(dtype)
    indices, values, shape = apply("SparseEye", (rows, cols), {"dtype": dtype})
    return make(indices, values, shape)


@define_op("SparseEye", infer=lambda inputs, attrs: _sparse_out(attrs["dtype"], 2),
           num_outputs=3)
def _sparse_eye(rows, cols, dtype):
    n = int(min(rows, cols))
    diag = np.arange(n, dtype=np.int64)
    return (np.stack([diag, diag], axis=1), np.ones(n, dtype.np_dtype),
            np.array([rows, cols], np.int64))


not_differentiable("SparseEye")


# --- maximum / minimum ---------------------------------------------------------------------

def _union_kernel(fn):
    """TF's SparseSparseMaximum/Minimum: the indices merged as if both were in
    row-major order (as TF's kernel assumes), an absent side counting as 0."""
    def kernel(a_ind, a_val, a_shape, b_ind, b_val, b_shape):
        if not np.array_equal(a_shape, b_shape):
            raise InvalidArgumentError(
                f"Operands do not have the same ranks or shapes: {_index_text(a_shape)} vs "
                f"{_index_text(b_shape)}", "SparseSparseMaximum")
        rank = len(a_shape)
        a_ind = np.asarray(a_ind, np.int64).reshape(-1, rank)
        b_ind = np.asarray(b_ind, np.int64).reshape(-1, rank)
        a_val, b_val = np.asarray(a_val), np.asarray(b_val)
        fast = merge_ordered(a_ind, a_val, b_ind, b_val, a_shape, fn)
        if fast is not None:
            return fast
        zero = np.zeros((), a_val.dtype)
        rows, vals = [], []
        for i, j in merge_sorted(a_ind, b_ind):
            rows.append(a_ind[i] if i >= 0 else b_ind[j])
            vals.append(fn(a_val[i] if i >= 0 else zero, b_val[j] if j >= 0 else zero))
        return (np.array(rows, np.int64).reshape(-1, rank),
                np.array(vals, a_val.dtype).reshape(-1))
    return kernel


for _name, _fn in (("SparseSparseMaximum", np.maximum), ("SparseSparseMinimum", np.minimum)):
    define_op(_name, infer=lambda inputs, attrs: _sparse_out(
        inputs[1].dtype, _rank_of(inputs[0], inputs[2]))[:2], num_outputs=2)(_union_kernel(_fn))


@define_op("SparseSparseSelectGrad", infer=lambda inputs, attrs: [
    _spec(inputs[0].dtype, [None]), _spec(inputs[0].dtype, [None])], num_outputs=2)
def _select_grad(grad, a_ind, a_val, b_ind, b_val, out_ind, out_val):
    """Each output value's gradient goes to the input it came from (a when tied)."""
    pos = {}
    for k, r in enumerate(np.asarray(out_ind)):
        pos.setdefault(tuple(r), k)
    ga = np.zeros(len(a_val), np.asarray(grad).dtype)
    gb = np.zeros(len(b_val), np.asarray(grad).dtype)
    taken = set()
    for k, r in enumerate(np.asarray(a_ind)):
        p = pos[tuple(r)]
        if a_val[k] == out_val[p]:
            ga[k] = grad[p]
            taken.add(p)
    for k, r in enumerate(np.asarray(b_ind)):
        p = pos[tuple(r)]
        if b_val[k] == out_val[p] and p not in taken:
            gb[k] = grad[p]
    return ga, gb


not_differentiable("SparseSparseSelectGrad")


def _union_grad(op, g_ind, g_val):
    a_ind, a_val, _, b_ind, b_val, _ = op.inputs
    ga, gb = apply("SparseSparseSelectGrad", (g_val, a_ind, a_val, b_ind, b_val,
                                              op.outputs[0], op.outputs[1]))
    return [None, ga, None, None, gb, None]


define_grad("SparseSparseMaximum")(_union_grad)
define_grad("SparseSparseMinimum")(_union_grad)


def _union(op, sp_a, sp_b, where):
    check_sparse(sp_a, where, "sp_a")
    check_sparse(sp_b, where, "sp_b")
    if sp_a.dtype != sp_b.dtype:
        raise TypeError(f"{where}: sp_a is {sp_a.dtype.name} but sp_b is {sp_b.dtype.name}")
    indices, values = apply(op, (sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices,
                                 sp_b.values, sp_b.dense_shape))
    return make(indices, values, sp_a.dense_shape)


def maximum(sp_a, sp_b, name=None):
    """`tf.sparse.maximum`: the elementwise maximum (absent entries count as 0)
    at the union of the indices."""
    return _union("SparseSparseMaximum", sp_a, sp_b, "tf.sparse.maximum")


def minimum(sp_a, sp_b, name=None):
    """`tf.sparse.minimum`: the elementwise minimum (absent entries count as 0)."""
    return _union("SparseSparseMinimum", sp_a, sp_b, "tf.sparse.minimum")


# --- softmax -------------------------------------------------------------------------------

@define_op("SparseRowIds", infer=lambda inputs, attrs: [
    _spec(dtypes.int64, [inputs[0].shape.dims[0] if inputs[0].shape.rank == 2 else None]),
    _spec(dtypes.int64, [])], num_outputs=2)
def _row_ids(indices):
    """The group of each value by all but its last coordinate (groups in
    first-seen order), and the number of groups."""
    indices = np.asarray(indices, np.int64)
    if len(indices) == 0:
        return np.zeros(0, np.int64), np.int64(0)
    _, first, inv = np.unique(indices[:, :-1], axis=0, return_index=True, return_inverse=True)
    return inv.reshape(-1).astype(np.int64), np.int64(len(first))


not_differentiable("SparseRowIds")


def softmax(sp_input, name=None):
    """`tf.sparse.softmax`: softmax over the present values of each innermost
    row (absent entries take no part and stay absent)."""
    from runtime._src.ops.segment_ops import unsorted_segment_max
    sp = check_sparse(sp_input, "tf.sparse.softmax")
    if sp.shape.rank is not None and sp.shape.rank < 2:
        raise ValueError("tf.sparse.softmax: the SparseTensor must have rank >= 2")
    if not sp.dtype.is_floating:
        raise TypeError(f"tf.sparse.softmax: the values must be floats, got {sp.dtype.name}")
    ids, n = apply("SparseRowIds", (sp.indices,))
    top = gather(unsorted_segment_max(sp.values, ids, n), ids)
    e = math_ops.exp(math_ops.subtract(sp.values, top))
    total = gather(unsorted_segment_sum(e, ids, n), ids)
    return sp.with_values(math_ops.truediv(e, total))


# --- to_indicator, map_values, mask -------------------------------------------------------

@define_op("SparseToIndicator", infer=lambda inputs, attrs: [
    _spec(dtypes.bool, None if _known(inputs[2]) is None else
          _known(inputs[2])[:-1] + [attrs["vocab_size"]])])
def _to_indicator(indices, values, shape, vocab_size):
    shape = np.asarray(shape, np.int64)
    out = np.zeros(tuple(shape[:-1]) + (vocab_size,), bool)
    values = np.asarray(values, np.int64)
    if len(values) and (np.any(values < 0) or np.any(values >= vocab_size)):
        bad = values[(values < 0) | (values >= vocab_size)][0]
        raise InvalidArgumentError(f"tf.sparse.to_indicator: value {int(bad)} is outside "
                                   f"[0, vocab_size={vocab_size})", "SparseToIndicator")
    if len(values):
        lead = np.asarray(indices, np.int64)[:, :-1]
        out[tuple(lead.T) + (values,)] = True
    return out


not_differentiable("SparseToIndicator")


def to_indicator(sp_input, vocab_size, name=None):
    """`tf.sparse.to_indicator`: a dense bool tensor [..., vocab_size] with
    True at [i..., value] for each entry at [i..., j] (int values)."""
    sp = check_sparse(sp_input, "tf.sparse.to_indicator")
    values = sp.values if sp.dtype == dtypes.int64 else math_ops.cast(sp.values, dtypes.int64)
    vocab = constant_value(_to_tensor(vocab_size))
    if vocab is None:
        raise ValueError("tf.sparse.to_indicator: vocab_size must be known while tracing "
                         "(a Python int or a constant)")
    return apply("SparseToIndicator", (sp.indices, values, sp.dense_shape),
                 {"vocab_size": int(vocab)})


def map_values(op, *args, **kwargs):
    """`tf.sparse.map_values(op, *args, **kwargs)`: `op` applied to the values
    of the SparseTensors among the arguments (which must share their indices),
    other arguments passed as they are; a SparseTensor with those indices."""
    found = [v for v in nest.flatten([list(args), kwargs]) if isinstance(v, SparseTensor)]
    if not found:
        raise ValueError("tf.sparse.map_values: no SparseTensor among the arguments")
    first = found[0]
    for other in found[1:]:
        _check_same_indices(first, other)

    def values_of(v):
        return v.values if isinstance(v, SparseTensor) else v
    new_args = nest.map_structure(values_of, list(args))
    new_kwargs = nest.map_structure(values_of, dict(kwargs))
    return first.with_values(op(*new_args, **new_kwargs))


def _check_same_indices(a, b):
    ia, ib = a.indices, b.indices
    if ia is ib:
        return
    va, vb = getattr(ia, "_value", None), getattr(ib, "_value", None)
    if va is not None and vb is not None and not np.array_equal(va, vb):
        raise InvalidArgumentError("Inputs must have identical indices.", "map_values")


def mask(a, mask_indices, name=None):
    """`tf.sparse.mask`: the IndexedSlices `a` without the slices whose index
    is in `mask_indices`."""
    keep = apply("SparseMaskKeep", (_to_tensor(a.indices), _to_tensor(mask_indices)))
    indices = boolean_mask(a.indices, keep)
    values = boolean_mask(a.values, keep)
    return type(a)(values, indices, getattr(a, "dense_shape", None))   # an IndexedSlices


@define_op("SparseMaskKeep", infer=lambda inputs, attrs: [
    _spec(dtypes.bool, inputs[0].shape.dims)])
def _mask_keep(indices, mask_indices):
    return ~np.isin(np.asarray(indices), np.asarray(mask_indices))


not_differentiable("SparseMaskKeep")


# --- bincount ------------------------------------------------------------------------------

@define_op("SparseBincountDense", infer=lambda inputs, attrs: _sparse_out(
    attrs["dtype"], 1 if attrs["axis"] == 0 else 2), num_outputs=3)
def _sparse_bincount(values, *weights, axis, minlength, maxlength, binary, dtype):
    values = np.asarray(values, np.int64)
    if len(values.reshape(-1)) and values.min() < 0:
        raise InvalidArgumentError("Input values must all be non-negative", "SparseBincount")
    w = np.asarray(weights[0]) if weights else None
    top = int(values.max()) + 1 if values.size else 1
    size = max(top, minlength or 0)
    if maxlength is not None:
        size = min(size, maxlength)
    if axis == 0 or values.ndim <= 1:
        rows = [(None, values.reshape(-1), None if w is None else w.reshape(-1))]
    else:
        rows = [(r, values[r], None if w is None else w[r]) for r in range(values.shape[0])]
    out_idx, out_val = [], []
    for r, row, wrow in rows:
        keep = row < size
        counts = np.zeros(size, dtype.np_dtype)
        if binary:
            counts[row[keep]] = 1
        elif wrow is None:
            np.add.at(counts, row[keep], 1)
        else:
            np.add.at(counts, row[keep], wrow[keep])
        present = np.zeros(size, bool)
        present[row[keep]] = True
        for b in np.nonzero(present)[0]:
            out_idx.append([b] if r is None else [r, b])
            out_val.append(counts[b])
    rank = 1 if rows[0][0] is None else 2
    shape = [size] if rank == 1 else [values.shape[0], size]
    return (np.array(out_idx, np.int64).reshape(-1, rank), np.array(out_val, dtype.np_dtype),
            np.array(shape, np.int64))


not_differentiable("SparseBincountDense")


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None,
             binary_output=False, name=None):
    """`tf.sparse.bincount`: the counts of each value (or the sums of their
    weights) as a SparseTensor holding the nonzero bins; axis=-1 counts each
    row of a 2-D input apart."""
    if isinstance(values, SparseTensor):
        if weights is not None and isinstance(weights, SparseTensor):
            weights = weights.values
        return _bincount_sparse(values, weights, axis, minlength, maxlength, binary_output)
    v = _to_tensor(values)
    if not v.dtype.is_integer:
        raise TypeError(f"tf.sparse.bincount: values must be integers, got {v.dtype.name}")
    dtype = v.dtype if weights is None else _to_tensor(weights).dtype
    inputs = (v,) if weights is None else (v, _to_tensor(weights))
    axis = 0 if axis is None else int(axis)
    if axis not in (0, -1):
        raise ValueError(f"tf.sparse.bincount: axis must be 0 or -1, got {axis}")
    return make(*apply("SparseBincountDense", inputs, {
        "axis": axis if v.shape.rank != 1 else 0, "minlength": minlength,
        "maxlength": maxlength, "binary": bool(binary_output), "dtype": dtype}))


def _bincount_sparse(sp, weights, axis, minlength, maxlength, binary):
    axis = 0 if axis is None else int(axis)
    if axis == 0:
        return bincount(sp.values, weights, 0, minlength, maxlength, binary)
    rows = gather(sp.indices, 0, axis=1)
    dtype = sp.dtype if weights is None else _to_tensor(weights).dtype
    inputs = (rows, sp.values, sp.dense_shape) + (() if weights is None else
                                                   (_to_tensor(weights),))
    return make(*apply("SparseBincountRows", inputs, {
        "minlength": minlength, "maxlength": maxlength, "binary": bool(binary),
        "dtype": dtype}))


@define_op("SparseBincountRows", infer=lambda inputs, attrs: _sparse_out(attrs["dtype"], 2),
           num_outputs=3)
def _sparse_bincount_rows(rows, values, shape, *weights, minlength, maxlength, binary, dtype):
    values = np.asarray(values, np.int64)
    top = int(values.max()) + 1 if values.size else 0
    size = max(top, minlength or 0)
    if maxlength is not None:
        size = min(size, maxlength)
    counts = {}
    for k, (r, v) in enumerate(zip(np.asarray(rows), values)):
        if v >= size:
            continue
        add = 1 if not weights else weights[0][k]
        counts[(int(r), int(v))] = 1 if binary else counts.get((int(r), int(v)), 0) + add
    keys = sorted(counts)
    return (np.array(keys, np.int64).reshape(-1, 2),
            np.array([counts[k] for k in keys], dtype.np_dtype),
            np.array([int(shape[0]), size], np.int64))


not_differentiable("SparseBincountRows")


# --- segment reductions of gathered rows -------------------------------------------------------

def _segment(kind, data, indices, segment_ids, num_segments):
    data = _to_tensor(data)
    rows = gather(data, _to_tensor(indices))
    ids = _to_tensor(segment_ids)
    if num_segments is None:
        total = dense_segment_sum(rows, ids)
        count = dense_segment_sum(ones_like(ids, dtype=data.dtype), ids)
    else:
        total = unsorted_segment_sum(rows, ids, num_segments)
        count = unsorted_segment_sum(ones_like(ids, dtype=data.dtype), ids, num_segments)
    if kind == "sum":
        return total
    count = math_ops.maximum(count, math_ops.cast(1, data.dtype))
    if kind == "sqrt_n":
        count = math_ops.sqrt(count)
    rank = data.shape.rank
    if rank is not None and rank > 1:
        count = reshape(count, [-1] + [1] * (rank - 1))
    return math_ops.truediv(total, count)


def segment_sum(data, indices, segment_ids, num_segments=None, name=None,
                sparse_gradient=False):
    """`tf.sparse.segment_sum`: output[i] = sum of data[indices[j]] over the j
    with segment_ids[j] == i (ids sorted unless num_segments is given)."""
    return _segment("sum", data, indices, segment_ids, num_segments)


def segment_mean(data, indices, segment_ids, num_segments=None, name=None,
                 sparse_gradient=False):
    """`tf.sparse.segment_mean`: as segment_sum, divided by each segment's count."""
    return _segment("mean", data, indices, segment_ids, num_segments)


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None,
                   sparse_gradient=False):
    """`tf.sparse.segment_sqrt_n`: as segment_sum, divided by sqrt(count)."""
    return _segment("sqrt_n", data, indices, segment_ids, num_segments)


# --- sampled_addmm -------------------------------------------------------------------------

def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0,
                  output_type=dtypes.float32):
    """`tf.sparse.sampled_addmm`: alpha * (mat1 @ mat2) read at `indices`, plus
    beta * values; returns (indices, values, dense_shape) as TF does."""
    from runtime._src.ops.math_ops import matmul
    from runtime._src.ops.scatter_ops import gather_nd
    mat1, mat2 = _to_tensor(mat1), _to_tensor(mat2)
    product = matmul(mat1, mat2)
    indices = _to_tensor(indices)
    picked = gather_nd(product, indices, batch_dims=max((indices.shape.rank or 2) - 2, 0))
    values = _to_tensor(values, product.dtype)
    out = math_ops.add(math_ops.multiply(_to_tensor(alpha, product.dtype), picked),
                       math_ops.multiply(_to_tensor(beta, product.dtype), values))
    return indices, math_ops.cast(out, output_type), _to_tensor(dense_shape)


del scatter_nd, shape_of, TensorShape
