"""`tf.nn.embedding_lookup_sparse` and `safe_embedding_lookup_sparse`: the
embeddings of each row's ids in a SparseTensor, combined by "sum", "mean"
or "sqrtn" (weighted when a SparseTensor of weights is given), as TF
composes them: one output row per row up to the last that has ids (the
safe form: every row of the dense shape, ids < 0 dropped (and weights
<= 0 unless combining by "sum"), empty rows zero or `default_id`'s embedding).

    >>> import runtime as tf
    >>> params = tf.reshape(tf.range(6.0), [3, 2])
    >>> ids = tf.SparseTensor([[0, 0], [0, 1]], tf.constant([0, 2], tf.int64), [1, 2])
    >>> tf.nn.embedding_lookup_sparse(params, ids, None, combiner="sum").numpy()
    array([[4., 6.]], dtype=float32)
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import reshape, shape as shape_of, zeros_like
from runtime._src.ops.manipulation_ops import concat, expand_dims, gather
from runtime._src.ops.nn_ops import embedding_lookup
from runtime._src.ops.reduction_ops import reduce_prod
from runtime._src.ops.segment_ops import segment_sum as dense_segment_sum
from runtime._src.ops.sort_ops import unique
from runtime._src.ops.special_math_ops import divide_no_nan
from runtime._src.sparse.sparse_more import (fill_empty_rows, reshape_sparse, retain,
                                             segment_mean, segment_sqrt_n, segment_sum)
from runtime._src.sparse.sparse_ops import check_sparse

__all__ = ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]

_COMBINERS = ("mean", "sqrtn", "sum")


def _check_combiner(combiner):
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}")


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None,
                            name=None, allow_fast_lookup=False):
    """[rows, dim]: row r combines the embeddings of sp_ids' row r."""
    combiner = combiner or "mean"
    _check_combiner(combiner)
    check_sparse(sp_ids, "embedding_lookup_sparse", "sp_ids")
    segments = math_ops.cast(sp_ids.indices[:, 0], dtypes.int32)
    ids, idx = unique(sp_ids.values)
    rows = embedding_lookup(params, ids, max_norm=max_norm)
    if sp_weights is None:
        combine = {"sum": segment_sum, "mean": segment_mean, "sqrtn": segment_sqrt_n}[combiner]
        return combine(rows, idx, segments)
    check_sparse(sp_weights, "embedding_lookup_sparse", "sp_weights")
    weights = convert_to_tensor(sp_weights.values)
    rows = gather(rows, idx)
    if weights.dtype != rows.dtype:
        weights = math_ops.cast(weights, rows.dtype)
    total = dense_segment_sum(math_ops.multiply(rows, expand_dims(weights, -1)), segments)
    if combiner == "sum":
        return total
    if combiner == "mean":
        norm = dense_segment_sum(weights, segments)
    else:
        norm = math_ops.sqrt(dense_segment_sum(math_ops.square(weights), segments))
    return divide_no_nan(total, expand_dims(norm, -1))


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """embedding_lookup_sparse over every row of sparse_ids' dense shape
    (all but its last dimension), ids < 0 dropped (weights <= 0 too, unless
    combiner is "sum"), an empty row zero, or default_id's embedding when given."""
    _check_combiner(combiner)
    check_sparse(sparse_ids, "safe_embedding_lookup_sparse", "sparse_ids")
    dense = sparse_ids.dense_shape
    outer = dense[:-1]
    flat_shape = concat([expand_dims(reduce_prod(outer), 0), dense[-1:]], 0)
    ids = reshape_sparse(sparse_ids, flat_shape)
    weights = None if sparse_weights is None else reshape_sparse(sparse_weights, flat_shape)
    keep = math_ops.greater_equal(ids.values, 0)
    if weights is not None:
        if combiner != "sum":      # TF drops weights <= 0 for "mean" and "sqrtn" only
            keep = math_ops.logical_and(keep, math_ops.greater(weights.values, 0))
        weights = retain(weights, keep)
    ids = retain(ids, keep)
    ids, empty = fill_empty_rows(ids, default_id or 0)
    if weights is not None:
        weights, _ = fill_empty_rows(weights, 1.0)
    result = embedding_lookup_sparse(embedding_weights, ids, weights, combiner=combiner,
                                     max_norm=max_norm)
    if default_id is None:
        result = math_ops.where(expand_dims(empty, -1), zeros_like(result), result)
    return reshape(result, concat([math_ops.cast(outer, dtypes.int32),
                                   shape_of(result)[1:]], 0))
