"""TensorFlow's dispatch of public ops on RaggedTensors: the handlers this layer
registers with core/composite.py (`register_api`), which the ops' front
functions consult, so `tf.add(rt, 1)`, `tf.concat([rt, rt], 1)`,
`tf.reduce_mean(rt, axis=0)` work as in TF:

    D = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]])
    tf.add(D, 3)                     # <tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5]]>
    D + [[10], [20], [30]]           # a dense operand broadcasts along rows
    tf.reduce_sum(D, axis=0)         # [8, 10, 6, 1]: column sums
    tf.concat([D, D], axis=1)        # rows joined

Every handler is made of ordinary ops on the components, so it traces into a
tf.function and has the gradients of those ops (on the flat values).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import register_api
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor, convert_to_tensor
from runtime._src.ops import math_ops, segment_ops
from runtime._src.ops.check_ops import equal_failure
from runtime._src.ops.array_ops import range as range_, shape as shape_of
from runtime._src.ops.manipulation_ops import concat as dense_concat, gather as dense_gather
from runtime._src.ops.array_ops import ones_like as ones_like_dense, reshape
from runtime._src.ops.manipulation_ops import squeeze as dense_squeeze
from runtime._src.ragged.ragged_tensor import RaggedTensor, _gather_rows, _tensor

__all__ = ["binary", "reduce", "concat", "stack", "expand_dims", "squeeze", "tile", "gather",
           "gather_nd", "where", "size", "rank", "embedding_lookup", "segment_ids",
           "zeros_like", "ones_like", "reverse", "map_fn", "segment_reduce",
           "reduce_variance", "softmax", "reduce_logsumexp"]

_I64 = dtypes.int64


def _ragged(value, dtype=None):
    """A RaggedTensor of value (a RaggedTensor, or a nested list of ragged rows)."""
    if isinstance(value, RaggedTensor):
        return value
    if isinstance(value, (list, tuple)):
        from runtime._src.ragged.ragged_factory import constant
        try:
            return constant(value, dtype)
        except ValueError:
            pass
    return RaggedTensor.from_tensor(_tensor(value, dtype))


# --- elementwise binary ops ---------------------------------------------------------------

@register_api(RaggedTensor, "binary")
def binary(name, x, y, fn):
    """Op `fn` of two operands, one or both ragged (see _dense_to_flat)."""
    if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
        _check_same_rows(x, y, name)
        return x.with_flat_values(fn(x.flat_values, y.flat_values))
    if isinstance(x, RaggedTensor):
        return x.with_flat_values(fn(x.flat_values, _dense_to_flat(x, y)))
    return y.with_flat_values(fn(_dense_to_flat(y, x), y.flat_values))


def _check_same_rows(x, y, name):
    xs, ys = x.nested_row_splits, y.nested_row_splits
    if len(xs) != len(ys):
        raise ValueError(f"{name}: the RaggedTensors have different ragged ranks "
                         f"({len(xs)} and {len(ys)})")
    for a, b in zip(xs, ys):
        if a is b or not (isinstance(a, EagerTensor) and isinstance(b, EagerTensor)):
            continue
        if a.numpy().shape != b.numpy().shape or (a.numpy() != b.numpy()).any():
            # TF's words: its assert_equal of the two row splits failing
            raise InvalidArgumentError(equal_failure(a.numpy(), b.numpy()), name)


def _dense_to_flat(rt, other):
    """A dense operand as a tensor that broadcasts against rt.flat_values: its
    dimensions over rt's ragged ones must be 1; over rt's rows, 1 or nrows (each
    value then takes its row's entry)."""
    other = _tensor(other, rt.dtype)
    rank, r = rt.shape.rank, rt.ragged_rank
    d = other.shape.rank
    if d is None or rank is None:
        raise ValueError("RaggedTensor: an elementwise op needs the ranks of its operands")
    if d <= rank - r - 1:
        return other
    if d > rank:
        raise ValueError(f"RaggedTensor: an operand of rank {d} does not broadcast against "
                         f"a RaggedTensor of rank {rank}")
    dims = [1] * (rank - d) + list(other.shape.dims)
    other = reshape(other, [-1 if x is None else x for x in dims])
    if r == 1 and dims[1] != 1 and isinstance(rt.row_splits, EagerTensor) \
            and isinstance(other, EagerTensor):
        return _uniform_rows_to_flat(rt, other, dims)
    for k in range(1, r + 1):
        if dims[k] != 1:
            raise InvalidArgumentError(
                f"RaggedTensor: a dense operand of shape {other.shape} does not broadcast "
                f"against ragged dimension {k} of a RaggedTensor of shape {rt.shape}",
                "RaggedTensor")
    other = reshape(other, [-1 if dims[0] is None else dims[0]] +
                    [-1 if x is None else x for x in dims[r + 1:]])
    if dims[0] == 1:
        return dense_squeeze(other, [0])
    return dense_gather(other, _outer_row_of_values(rt))


def _uniform_rows_to_flat(rt, other, dims):
    """A dense operand whose rows (dims[1] values each) meet a ragged rank 1
    tensor's rows: its values when the row lengths match (TF's checks and
    words otherwise: its assert_equal of the dense operand's row splits and
    the ragged one's)."""
    splits = rt.row_splits.numpy()
    nrows = len(splits) - 1
    uniform = np.arange((nrows if dims[0] == 1 else dims[0]) + 1, dtype=splits.dtype) * dims[1]
    if uniform.shape != splits.shape or (uniform != splits).any():
        raise InvalidArgumentError(equal_failure(uniform, splits), "RaggedTensor")
    if dims[0] == 1 and nrows != 1:      # TF 2.21 refuses this broadcast, in these words
        raise InvalidArgumentError(
            "Last row partition does not match flat_values.\nCondition x == y did not "
            f"hold.\nFirst 1 elements of x:\n[{dims[1]}]\nFirst 1 elements of y:\n"
            f"[{int(splits[-1])}]", "RaggedTensor")
    return reshape(other, [-1] + [-1 if x is None else x for x in dims[2:]])


def _outer_row_of_values(rt):
    """The row (dimension 0) of each flat value."""
    index = range_(shape_of(rt.flat_values, _I64)[0], dtype=_I64)
    for splits in reversed(rt.nested_row_splits):
        index = dense_gather(segment_ids(splits), index)
    return index


def segment_ids(splits):
    from runtime._src.graph.op_registry import apply
    return apply("RaggedValueRowIds", [splits])


# --- reductions ---------------------------------------------------------------------------

_SEGMENT = {"Sum": segment_ops.unsorted_segment_sum, "Max": segment_ops.unsorted_segment_max,
            "Min": segment_ops.unsorted_segment_min, "Prod": segment_ops.unsorted_segment_prod}


@register_api(RaggedTensor, "reduce")
def reduce(rt, op_name, axis, keepdims):
    """`tf.reduce_<op>(rt, axis)`: axis None reduces all values; other axes
    reduce each in turn, largest first (empty rows give TF's values: 0, 1,
    the dtype's lowest (max) or highest (min), NaN (mean); all True, any False)."""
    from runtime._src.ops import reduction_ops
    whole = {"Sum": reduction_ops.reduce_sum, "Max": reduction_ops.reduce_max,
             "Min": reduction_ops.reduce_min, "Mean": reduction_ops.reduce_mean,
             "Prod": reduction_ops.reduce_prod, "All": reduction_ops.reduce_all,
             "Any": reduction_ops.reduce_any}
    if op_name not in whole:
        raise TypeError(f"{op_name} does not support a RaggedTensor")
    if axis is None:
        return whole[op_name](rt.flat_values, keepdims=keepdims)
    rank = rt.shape.rank
    axes = sorted({(a + rank if a < 0 else a) for a in
                   (list(axis) if isinstance(axis, (list, tuple)) else [int(axis)])},
                  reverse=True)
    if any(not 0 <= a < rank for a in axes):
        raise ValueError(f"reduce on a RaggedTensor of rank {rank}: axis {axis} is out of range")
    if op_name == "Mean":
        x = rt if rt.dtype.is_floating else math_ops.cast(rt, dtypes.float64)
        total = _reduce_axes(x, axes, "Sum")
        count = _reduce_axes(x.with_flat_values(ones_like_dense(x.flat_values)), axes, "Sum")
        out = total / count
    elif op_name in ("All", "Any"):
        flags = math_ops.cast(rt if op_name == "Any" else math_ops.logical_not(rt), dtypes.int32)
        hits = _reduce_axes(flags, axes, "Sum")
        out = hits > 0 if op_name == "Any" else math_ops.equal(hits, 0)
    else:
        out = _reduce_axes(rt, axes, op_name)
    if keepdims:
        from runtime._src.ops.manipulation_ops import expand_dims
        for a in sorted(axes):
            out = expand_dims(out, a)
    return out


def _reduce_axes(x, axes, op_name):
    for a in axes:
        x = _reduce_axis(x, a, op_name)
    return x


def _reduce_axis(x, axis, op_name):
    from runtime._src.ops import reduction_ops
    if not isinstance(x, RaggedTensor):
        fn = {"Sum": reduction_ops.reduce_sum, "Max": reduction_ops.reduce_max,
              "Min": reduction_ops.reduce_min, "Prod": reduction_ops.reduce_prod}[op_name]
        return fn(x, axis=axis)
    if axis == 0:
        lengths = x.row_lengths()
        width = math_ops.maximum(reduction_ops.reduce_max(lengths), convert_to_tensor(0, _I64))
        column = range_(_nitems(x.values), dtype=_I64) - \
            dense_gather(x.row_splits, segment_ids(x.row_splits))
        return _segment_reduce(x.values, column, width, op_name)
    if axis == 1:
        return _segment_reduce(x.values, segment_ids(x.row_splits), x.nrows(), op_name)
    return x.with_values(_reduce_axis(x.values, axis - 1, op_name))


def _nitems(values):
    """The number of rows of values (ragged or dense)."""
    return values.nrows() if isinstance(values, RaggedTensor) else shape_of(values, _I64)[0]


def _segment_reduce(data, ids, n, op_name):
    """Rows of data (dense or ragged) with one id combined elementwise; a
    ragged data's combined row is as long as the longest row combined."""
    if not isinstance(data, RaggedTensor):
        return _SEGMENT[op_name](data, ids, n)
    lengths = data.row_lengths()
    out_lengths = math_ops.maximum(segment_ops.unsorted_segment_max(lengths, ids, n),
                                   convert_to_tensor(0, _I64))
    from runtime._src.ops.reduction_ops import cumsum
    out_splits = dense_concat([convert_to_tensor([0], _I64), cumsum(out_lengths)], 0)
    owner = segment_ids(data.row_splits)
    position = range_(_nitems(data.values), dtype=_I64) - dense_gather(data.row_splits, owner)
    target = dense_gather(out_splits, dense_gather(math_ops.cast(ids, _I64), owner)) + position
    values = _segment_reduce(data.values, target, out_splits[-1], op_name)
    return RaggedTensor(values, out_splits, internal=True)


# --- array ops ----------------------------------------------------------------------------

@register_api(RaggedTensor, "concat")
def concat(values, axis):
    """`tf.concat` of RaggedTensors (and ragged-convertible values)."""
    values = [_ragged(v) for v in values]
    rank = values[0].shape.rank
    axis = axis + rank if axis < 0 else axis
    if len(values) == 1:
        return values[0]
    if axis == 0:
        return _concat_rows(values)
    if axis == 1:
        stacked = _concat_rows(values)                       # rows of each, one after another
        n = values[0].nrows()
        order = reshape(_transpose_index(len(values), n), [-1])
        rows = _gather_rows(stacked, order)
        return RaggedTensor(rows.values, rows.row_splits[::len(values)], internal=True)
    return values[0].with_values(concat([v.values for v in values], axis - 1)) \
        if isinstance(values[0].values, RaggedTensor) else \
        values[0].with_values(dense_concat([v.values for v in values], axis - 1))


def _transpose_index(k, n):
    """[n, k] matrix of row numbers: row i of input j sits at j * n + i."""
    from runtime._src.ops.manipulation_ops import transpose
    return transpose(reshape(range_(k * n, dtype=_I64), [k, -1]))


def _concat_rows(values):
    flat = [v.values for v in values]
    if isinstance(flat[0], RaggedTensor):
        inner = _concat_rows(flat)
    else:
        inner = dense_concat(flat, 0)
    splits, offset = [values[0].row_splits], values[0].row_splits[-1]
    for v in values[1:]:
        splits.append(v.row_splits[1:] + offset)
        offset = offset + v.row_splits[-1]
    return RaggedTensor(inner, dense_concat(splits, 0), internal=True)


@register_api(RaggedTensor, "stack")
def stack(values, axis=0):
    """`tf.stack` of RaggedTensors: `concat` of each with a new dimension."""
    values = [_ragged(v) for v in values]
    return concat([expand_dims(v, axis) for v in values], axis)


@register_api(RaggedTensor, "expand_dims")
def expand_dims(rt, axis):
    rank = rt.shape.rank
    axis = axis + rank + 1 if axis < 0 else axis
    if axis == 0:
        return RaggedTensor(rt, math_ops.cast(convert_to_tensor([0, 1]), _I64) *
                            rt.nrows(), internal=True, uniform_row_length=rt.shape.dims[0])
    if axis == 1:
        n = rt.nrows()
        return RaggedTensor(rt, range_(n + 1, dtype=_I64), internal=True,
                            uniform_row_length=1)
    from runtime._src.ops.manipulation_ops import expand_dims as dense_expand
    inner = rt.values
    new = expand_dims(inner, axis - 1) if isinstance(inner, RaggedTensor) else \
        dense_expand(inner, axis - 1)
    return rt.with_values(new)


@register_api(RaggedTensor, "squeeze")
def squeeze(rt, axis=None):
    if axis is None:
        raise ValueError("tf.squeeze of a RaggedTensor: axis must be given")
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    rank = rt.shape.rank
    axes = [a + rank if a < 0 else a for a in axes]
    if any(a <= rt.ragged_rank for a in axes):
        raise ValueError("tf.squeeze of a RaggedTensor: only uniform inner dimensions can "
                         "be squeezed")
    return rt.with_flat_values(dense_squeeze(rt.flat_values, [a - rt.ragged_rank for a in axes]))


@register_api(RaggedTensor, "tile")
def tile(rt, multiples):
    """`tf.tile`: rows repeated (dimension 0), row contents repeated (dimension 1)."""
    m = [int(x) for x in (multiples.numpy() if isinstance(multiples, EagerTensor)
                          else multiples)]
    if rt.ragged_rank != 1 or any(x != 1 for x in m[2:]):
        raise ValueError("tf.tile of a RaggedTensor: only the first two dimensions of a "
                         "RaggedTensor with one ragged dimension can be tiled")
    out = rt
    if m[1] != 1:
        out = concat([rt] * m[1], 1) if m[1] > 0 else rt[:, :0]
    if m[0] != 1:
        out = concat([out] * m[0], 0) if m[0] > 0 else out[:0]
    return out


@register_api(RaggedTensor, "gather")
def gather(params, indices, axis=None, batch_dims=0):
    """`tf.gather(rt, indices)`: the rows at indices (any rank of indices)."""
    if axis not in (None, 0) or batch_dims:
        raise ValueError("tf.gather of a RaggedTensor: only axis=0, batch_dims=0")
    indices = _tensor(indices)
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(gather(params, indices.flat_values))
    if indices.shape.rank == 0:
        return params[indices]
    flat = reshape(indices, [-1])
    rows = _gather_rows(params, flat)
    for k in range(indices.shape.rank - 1, 0, -1):
        width = indices.shape.dims[k]
        rows = RaggedTensor(rows, range_(0, rows.nrows() + 1, width, dtype=_I64),
                            internal=True)
    return rows


@register_api(RaggedTensor, "gather_nd")
def gather_nd(params, indices, batch_dims=0):
    """`tf.gather_nd(rt, indices)`: each index row picks a row, an item or a value."""
    indices = _tensor(indices)
    if batch_dims or indices.shape.rank != 2:
        raise ValueError("tf.gather_nd of a RaggedTensor: only 2-D indices, batch_dims=0")
    idx = math_ops.cast(indices, _I64)
    depth = indices.shape.dims[1]
    pos, k, values = idx[:, 0], 1, params
    while k < depth and isinstance(values, RaggedTensor):
        pos = dense_gather(values.row_splits, pos) + idx[:, k]
        values, k = values.values, k + 1
    if isinstance(values, RaggedTensor):
        return _gather_rows(values, pos) if k > 1 else gather(params, pos)
    if k == depth:
        return dense_gather(values, pos)
    from runtime._src.ops.scatter_ops import gather_nd as dense_gather_nd
    from runtime._src.ops.manipulation_ops import expand_dims as dense_expand
    return dense_gather_nd(values, dense_concat([dense_expand(pos, 1), idx[:, k:]], 1))


@register_api(RaggedTensor, "where")
def where(condition, x=None, y=None):
    """`tf.where(c, x, y)` value by value, or the coordinates of the True values."""
    if x is None and y is None:
        return _true_coords(condition)
    parts = [v if isinstance(v, RaggedTensor) else None for v in (condition, x, y)]
    ref = next(p for p in parts if p is not None)
    flat = [v.flat_values if isinstance(v, RaggedTensor) else _dense_to_flat(ref, v)
            for v in (condition, x, y)]
    return ref.with_flat_values(math_ops.where(*flat))


def _true_coords(condition):
    from runtime._src.ops.scatter_ops import boolean_mask
    sparse = condition.to_sparse()
    return boolean_mask(sparse.indices, sparse.values)


@register_api(RaggedTensor, "size")
def size(rt, out_type=dtypes.int32):
    from runtime._src.ops.array_ops import size as dense_size
    return dense_size(rt.flat_values, out_type)


@register_api(RaggedTensor, "rank")
def rank(rt):
    return convert_to_tensor(rt.shape.rank, dtypes.int32)


@register_api(RaggedTensor, "embedding_lookup")
def embedding_lookup(params, ids, max_norm=None):
    from runtime._src.ops.nn_ops import embedding_lookup as dense_lookup
    return ids.with_flat_values(dense_lookup(params, ids.flat_values, max_norm))




@register_api(RaggedTensor, "zeros_like")
def zeros_like(rt, dtype=None):
    from runtime._src.ops.array_ops import zeros_like as dense_zeros_like
    return rt.with_flat_values(dense_zeros_like(rt.flat_values, dtype))


@register_api(RaggedTensor, "ones_like")
def ones_like(rt, dtype=None):
    from runtime._src.ops.array_ops import ones_like as dense_ones_like
    return rt.with_flat_values(dense_ones_like(rt.flat_values, dtype))


@register_api(RaggedTensor, "reverse")
def reverse(rt, axis):
    """`tf.reverse`: the rows' order (axis 0), each row's items (axis 1), or
    dimensions of the values."""
    from runtime._src.ops.shape_ops import reverse as dense_reverse
    rank = rt.shape.rank
    out = rt
    for a in sorted({int(a) + rank if int(a) < 0 else int(a) for a in axis}):
        if a == 0:
            out = _gather_rows(out, range_(out.nrows() - 1, -1, -1, dtype=_I64))
        elif a == 1:
            owner = segment_ids(out.row_splits)
            position = range_(_nitems(out.values), dtype=_I64)
            mirrored = dense_gather(out.row_splits, owner) + \
                dense_gather(out.row_splits[1:], owner) - 1 - position
            from runtime._src.ragged.ragged_tensor import _gather_values
            out = out.with_values(_gather_values(out.values, mirrored))
        elif isinstance(out.values, RaggedTensor):
            out = out.with_values(reverse(out.values, [a - 1]))
        else:
            out = out.with_values(dense_reverse(out.values, [a - 1]))
    return out


@register_api(RaggedTensor, "map_fn")
def map_fn(fn, rt, signature=None):
    """`tf.map_fn` over the rows of a RaggedTensor (unrolled: the number of rows
    must be known); rows of one length stack densely only when the signature
    is a TensorSpec, else the result is ragged as in TF."""
    from runtime._src.core.tensor import TensorSpec
    n = rt.shape.dims[0]
    if n is None:
        raise ValueError("tf.map_fn over a RaggedTensor: the number of rows must be known "
                         "when the function is traced")
    results = [fn(rt[i]) for i in range(n)]
    if isinstance(signature, TensorSpec) or (signature is not None and not hasattr(
            signature, "ragged_rank")):
        from runtime._src.ops.manipulation_ops import stack as dense_stack
        return dense_stack(results)
    if not results:
        return rt
    if all(isinstance(r, RaggedTensor) for r in results):
        return stack(results, 0)
    from runtime._src.ops.array_ops import shape
    results = [_tensor(r) for r in results]
    if results[0].shape.rank == 0:
        from runtime._src.ops.manipulation_ops import stack as dense_stack
        return dense_stack(results)
    lengths = dense_concat([shape(r, _I64)[:1] for r in results], 0)
    return RaggedTensor.from_row_lengths(dense_concat(results, 0), lengths, validate=False)


@register_api(RaggedTensor, "segment_reduce")
def segment_reduce(kind, data, ids, num_segments):
    """`tf.math.unsorted_segment_<kind>` of ragged rows: rows with one id
    combined elementwise (a ragged result)."""
    return _segment_reduce(data, math_ops.cast(_tensor(ids), _I64), num_segments,
                           kind.capitalize())


def _innermost_rows(rt, axis, what):
    """The innermost row splits when `axis` is rt's last dimension and it is
    ragged (flat values of rank 1); else ValueError naming `what`."""
    rank = rt.shape.rank
    a = -1 if axis is None else axis
    if (a + rank if a < 0 else a) != rank - 1 or rt.flat_values.shape.rank != 1:
        raise ValueError(f"{what} of a RaggedTensor: only its last axis, when ragged, is "
                         f"supported (got axis {axis}, shape {rt.shape})")
    inner = rt
    while isinstance(inner.values, RaggedTensor):
        inner = inner.values
    return inner.row_splits


def _row_spread(flat, splits, op):
    """op over each innermost row, gathered back to every value of the row."""
    ids = segment_ids(splits)
    n = shape_of(splits, _I64)[0] - 1
    return dense_gather(op(flat, ids, n), ids)


@register_api(RaggedTensor, "reduce_variance")
def reduce_variance(rt, axis=None, keepdims=False):
    """`tf.math.reduce_variance` over all values or the last (ragged) axis."""
    from runtime._src.ops.reduction_ops import reduce_variance as dense_variance
    if axis is None:
        return dense_variance(rt.flat_values, None, keepdims)
    splits = _innermost_rows(rt, axis, "reduce_variance")
    flat = rt.flat_values
    mean = _row_spread(flat, splits, segment_ops.unsorted_segment_mean)
    return reduce(rt.with_flat_values(math_ops.square(flat - mean)), "Mean", axis, keepdims)


def _logsumexp_rows(flat, splits):
    top = _row_spread(flat, splits, segment_ops.unsorted_segment_max)
    total = _row_spread(math_ops.exp(flat - top), splits, segment_ops.unsorted_segment_sum)
    return top + math_ops.log(total)


@register_api(RaggedTensor, "softmax")
def softmax(rt, axis=None):
    """`tf.nn.softmax` along the last (ragged) axis."""
    splits = _innermost_rows(rt, axis, "softmax")
    flat = rt.flat_values
    return rt.with_flat_values(math_ops.exp(flat - _logsumexp_rows(flat, splits)))


@register_api(RaggedTensor, "reduce_logsumexp")
def reduce_logsumexp(rt, axis=None, keepdims=False):
    """`tf.math.reduce_logsumexp` over all values or the last (ragged) axis."""
    from runtime._src.ops.reduction_ops import reduce_logsumexp as dense_logsumexp
    if axis is None:
        return dense_logsumexp(rt.flat_values, None, keepdims)
    splits = _innermost_rows(rt, axis, "reduce_logsumexp")
    flat = rt.flat_values
    ids = segment_ids(splits)
    n = shape_of(splits, _I64)[0] - 1
    top = segment_ops.unsorted_segment_max(flat, ids, n)
    top = math_ops.where(math_ops.is_finite(top), top, top * 0)
    total = segment_ops.unsorted_segment_sum(math_ops.exp(flat - dense_gather(top, ids)), ids, n)
    out = math_ops.log(total) + top
    rows = rt
    outer = []
    while isinstance(rows.values, RaggedTensor):
        outer.append(rows.row_splits)
        rows = rows.values
    for s in reversed(outer):
        out = RaggedTensor(out, s, internal=True)
    if keepdims:
        from runtime._src.ops.manipulation_ops import expand_dims as dense_expand
        out = dense_expand(out, -1) if not isinstance(out, RaggedTensor) else \
            out.with_flat_values(dense_expand(out.flat_values, -1))
    return out
