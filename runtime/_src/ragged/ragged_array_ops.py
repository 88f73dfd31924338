"""The `tf.ragged` functions beside `constant`: ranges, row partitions and
segment ids, stacking, masking, partitioning and feature crosses.

    tf.ragged.range([3, 0, 2])                      # [[0, 1, 2], [], [0, 1]]
    tf.ragged.boolean_mask(rt, rt > 2)              # the values kept, rows kept
    tf.ragged.stack([rt, rt], axis=1)               # a new ragged dimension
    tf.ragged.stack_dynamic_partitions(x, [1, 0, 1], 2)   # row p: the x[i] with partition p
    tf.ragged.cross([a, b])                         # [[b'a_X_d'], [b'b_X_e', b'c_X_e']]
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import reshape
from runtime._src.ops.farmhash import fingerprint64
from runtime._src.ops.manipulation_ops import concat as dense_concat, gather
from runtime._src.ops.reduction_ops import cumsum
from runtime._src.ops.scatter_ops import boolean_mask as dense_boolean_mask
from runtime._src.ops.segment_ops import bincount
from runtime._src.ops.sort_ops import argsort
from runtime._src.ragged import ragged_dispatch
from runtime._src.ragged.ragged_tensor import RaggedTensor, _ragged_range, _tensor

__all__ = ["range", "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack",
           "boolean_mask", "stack_dynamic_partitions", "cross", "cross_hashed"]

_I64 = dtypes.int64


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 - TF's name
          row_splits_dtype=dtypes.int64):
    """`tf.ragged.range`: row i is range(starts[i], limits[i], deltas[i]) (the
    three broadcast; one argument is the limits, from 0)."""
    if limits is None:
        starts, limits = 0, starts
    args = [starts, limits, deltas]
    if dtype is None:
        kinds = [_tensor(a).dtype for a in args]
        dtype = next((k for k in kinds if k.is_floating),
                     dtypes.int64 if dtypes.int64 in kinds else kinds[0])
    starts, limits, deltas = (math_ops.cast(_tensor(a), dtypes.as_dtype(dtype)) for a in args)
    splits, values = _ragged_range(starts, limits, deltas)
    return RaggedTensor.from_row_splits(values, splits, validate=False)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """`tf.ragged.row_splits_to_segment_ids`: the row of each value."""
    ids = ragged_dispatch.segment_ids(math_ops.cast(_tensor(splits), _I64))
    out_type = _I64 if out_type is None else dtypes.as_dtype(out_type)
    return ids if out_type == _I64 else math_ops.cast(ids, out_type)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """`tf.ragged.segment_ids_to_row_splits`: row splits of sorted segment ids."""
    ids = _tensor(segment_ids)
    n = None if num_segments is None else num_segments
    lengths = bincount(math_ops.cast(ids, dtypes.int32), minlength=n, maxlength=n, dtype=_I64)
    splits = dense_concat([convert_to_tensor([0], _I64), cumsum(lengths)], 0)
    out_type = _I64 if out_type is None else dtypes.as_dtype(out_type)
    return splits if out_type == _I64 else math_ops.cast(splits, out_type)


def stack(values, axis=0, name=None):
    """`tf.ragged.stack`: tensors (ragged or dense, of one rank) stacked along
    a new `axis`; the result is ragged."""
    values = [v if isinstance(v, RaggedTensor) else _tensor(v) for v in values]
    if all(not isinstance(v, RaggedTensor) and v.shape.rank == 1 for v in values):
        if axis not in (0, -2):
            raise ValueError(f"tf.ragged.stack: axis {axis} is out of range for rank-1 values")
        from runtime._src.ops.array_ops import shape as shape_of
        lengths = dense_concat([shape_of(v, _I64) for v in values], 0)
        return RaggedTensor.from_row_lengths(dense_concat(values, 0), lengths, validate=False)
    values = [v if isinstance(v, RaggedTensor) else RaggedTensor.from_tensor(v)
              for v in values]
    return ragged_dispatch.stack(values, axis)


def boolean_mask(data, mask, name=None):
    """`tf.ragged.boolean_mask`: the items of data where mask is True; mask's
    dimensions are data's outer ones; rows keep their place."""
    if isinstance(mask, RaggedTensor):
        if not isinstance(data, RaggedTensor):
            raise ValueError("tf.ragged.boolean_mask: a ragged mask needs ragged data")
        if mask.ragged_rank == 1 or not isinstance(data.values, RaggedTensor):
            kept = dense_boolean_mask(data.values, mask.values)
            lengths = ragged_dispatch.reduce(math_ops.cast(mask, _I64), "Sum", 1, False)
            return RaggedTensor.from_row_lengths(kept, lengths, validate=False)
        return data.with_values(boolean_mask(data.values, mask.values))
    mask = _tensor(mask)
    if mask.shape.rank != 1:
        if isinstance(data, RaggedTensor):
            raise ValueError("tf.ragged.boolean_mask: a dense mask of rank > 1 on ragged data "
                             "is not supported; use a ragged mask")
        return boolean_mask(RaggedTensor.from_tensor(data), RaggedTensor.from_tensor(mask))
    if isinstance(data, RaggedTensor):
        from runtime._src.ragged.ragged_tensor import _gather_rows
        return _gather_rows(data, _true_indices(mask))
    return dense_boolean_mask(data, mask)


def _true_indices(mask):
    from runtime._src.ops.scatter_ops import where
    return reshape(where(mask), [-1])


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """`tf.ragged.stack_dynamic_partitions`: row p holds the data[i] whose
    partitions[i] is p, in order."""
    partitions = math_ops.cast(_tensor(partitions), dtypes.int32)
    order = argsort(partitions, stable=True)
    lengths = bincount(partitions, minlength=num_partitions, maxlength=num_partitions,
                       dtype=_I64)
    if isinstance(data, RaggedTensor):
        from runtime._src.ragged.ragged_tensor import _gather_rows
        rows = _gather_rows(data, order)
    else:
        rows = gather(_tensor(data), order)
    return RaggedTensor.from_row_lengths(rows, lengths, validate=False)


# --- feature crosses -----------------------------------------------------------------------

def _cross_inputs(inputs):
    """Each input as (values, row splits): 2-D ragged or dense tensors, one row
    per example."""
    out = []
    for x in inputs:
        if isinstance(x, RaggedTensor):
            if x.ragged_rank != 1 or x.shape.rank != 2:
                raise ValueError("tf.ragged.cross: inputs must be 2-D")
            out.append((x.values, x.row_splits))
        elif hasattr(x, "indices") and hasattr(x, "dense_shape"):
            r = RaggedTensor.from_sparse(x)
            out.append((r.values, r.row_splits))
        else:
            r = RaggedTensor.from_tensor(_tensor(x))
            out.append((r.values, r.row_splits))
    return out


def _infer_cross(inputs, attrs):
    out = dtypes.int64 if attrs["hashed"] else dtypes.string
    return [(out, TensorShape([None])), (_I64, TensorShape([None]))]


_MUL = 0xc6a4a7935bd1e995
_MASK = (1 << 64) - 1


def _shift_mix(v):
    return v ^ (v >> 47)


def _fingerprint_cat(a, b):
    """TF's FingerprintCat64 of two 64-bit fingerprints."""
    r = (a ^ _MUL) & _MASK
    r ^= (_shift_mix((b * _MUL) & _MASK) * _MUL) & _MASK
    r = (r * _MUL) & _MASK
    r = (_shift_mix(r) * _MUL) & _MASK
    return _shift_mix(r)


def _feature_text(v):
    return v if isinstance(v, bytes) else str(int(v)).encode()


def _feature_hash(v):
    return fingerprint64(v) if isinstance(v, bytes) else int(v) & _MASK


@define_op("RaggedCross", infer=_infer_cross, num_outputs=2)
def _ragged_cross(*parts, hashed, num_buckets, hash_key):
    n = len(parts) // 2
    values, splits = parts[:n], parts[n:]
    rows = len(splits[0]) - 1
    out, out_splits = [], [0]
    for i in np.arange(rows):
        features = [list(v[s[i]:s[i + 1]]) for v, s in zip(values, splits)]
        for combo in _product(features):
            if hashed:
                h = hash_key
                for f in combo:
                    h = _fingerprint_cat(h, _feature_hash(f))
                out.append(h % num_buckets if num_buckets > 0 else h % (_MASK >> 1))
            else:
                out.append(b"_X_".join(_feature_text(f) for f in combo))
        out_splits.append(len(out))
    kind = np.int64 if hashed else object
    return np.array(out, dtype=kind).reshape(-1), np.array(out_splits, np.int64)


def _product(features):
    combos = [[]]
    for f in features:
        combos = [c + [x] for c in combos for x in f]
    return combos


def cross(inputs, name=None):
    """`tf.ragged.cross`: per row, every combination of one value of each
    input, joined by '_X_'."""
    return _cross(inputs, False, 0, 0)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """`tf.ragged.cross_hashed`: the fingerprints of `cross`'s combinations
    (modulo num_buckets when it is > 0)."""
    key = 0xDECAFCAFFE if hash_key is None else int(hash_key)
    return _cross(inputs, True, int(num_buckets), key)


def _cross(inputs, hashed, num_buckets, hash_key):
    pairs = _cross_inputs(inputs)
    values, splits = apply("RaggedCross", [p[0] for p in pairs] + [p[1] for p in pairs],
                           {"hashed": hashed, "num_buckets": num_buckets,
                            "hash_key": hash_key})
    return RaggedTensor.from_row_splits(values, splits, validate=False)


not_differentiable("RaggedCross")
