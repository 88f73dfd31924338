"""RaggedTensors and SparseTensors as dataset elements, as TF's tf.data has them.

Inside a pipeline such an element is carried as its components (like any
composite value: structure.py), but slicing and batching work on whole rows,
since the components have no common first dimension:

  - `Dataset.from_tensor_slices(rt)` and `unbatch` give one row per element: a
    RaggedTensor of one ragged dimension less, or (of a 2-D RaggedTensor) a
    dense tensor, whose spec is TF's `RaggedTensorSpec(..., ragged_rank=0)`;
    a SparseTensor's rows are SparseTensors of one dimension less;
  - `batch` (and `ragged_batch`, which batches dense elements of any shapes)
    stacks rows into a RaggedTensor with one ragged dimension more, or a
    SparseTensor whose dense shape is the largest of the rows'.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import EagerTensor, Tensor, wrap_numpy
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from runtime._src.sparse.sparse_tensor import SparseTensor, SparseTensorSpec

__all__ = ["ROW_SPECS", "is_row_spec", "row_count", "rows", "stack_rows", "batched_row_spec",
           "unbatched_row_spec", "as_ragged_row_spec", "to_numpy"]

ROW_SPECS = (RaggedTensorSpec, SparseTensorSpec)


def is_row_spec(spec):
    return isinstance(spec, ROW_SPECS)


def _np(v):
    return v._value if isinstance(v, EagerTensor) else np.asarray(v)


def row_count(value):
    """How many rows (first-dimension entries) `value` has."""
    if isinstance(value, SparseTensor):
        return int(_np(value.dense_shape)[0])
    if isinstance(value, RaggedTensor):
        return int(_np(value.row_splits).shape[0]) - 1
    return len(value)


def rows(value):
    """The rows of a RaggedTensor, SparseTensor or array, in order."""
    if isinstance(value, SparseTensor):
        return _sparse_rows(value)
    if isinstance(value, RaggedTensor):
        return [_dense(r) for r in (value[i] for i in range(row_count(value)))]
    return list(value)


def _dense(row):
    return row._value if isinstance(row, EagerTensor) else row


def _sparse_rows(value):
    indices, values, shape = _np(value.indices), _np(value.values), _np(value.dense_shape)
    out = []
    for i in range(int(shape[0])):
        mask = indices[:, 0] == i
        out.append(SparseTensor._make(wrap_numpy(indices[mask][:, 1:]),
                                      wrap_numpy(values[mask]), wrap_numpy(shape[1:])))
    return out


def stack_rows(items, spec):
    """One batched value from the rows `items` whose (element) spec is `spec`."""
    if isinstance(spec, SparseTensorSpec):
        return _stack_sparse(items, spec)
    if spec.ragged_rank == 0 or not isinstance(items[0], RaggedTensor):
        dense = [_dense(v) if isinstance(v, Tensor) else np.asarray(v) for v in items]
        splits_dtype = spec.row_splits_dtype.np_dtype
        lengths = np.array([len(v) if np.ndim(v) else 1 for v in dense], splits_dtype)
        flat = np.concatenate([np.reshape(v, (-1,) + np.shape(v)[1:]) for v in dense]) \
            if dense else np.zeros((0,), spec.dtype.np_dtype)
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(lengths.dtype)
        return RaggedTensor(wrap_numpy(flat.astype(spec.dtype.np_dtype, copy=False)),
                            wrap_numpy(splits), internal=True)
    from runtime._src.ops.manipulation_ops import concat     # RaggedTensors: ragged/'s concat
    inner = concat(list(items), 0) if len(items) > 1 else items[0]
    lengths = np.array([row_count(v) for v in items], spec.row_splits_dtype.np_dtype)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(lengths.dtype)
    return RaggedTensor(inner, wrap_numpy(splits), internal=True)


def _stack_sparse(items, spec):
    rank = 1 + len(_np(items[0].dense_shape))
    indices, values, shapes = [], [], []
    for i, v in enumerate(items):
        ix = _np(v.indices)
        indices.append(np.hstack([np.full((len(ix), 1), i, np.int64), ix]))
        values.append(_np(v.values))
        shapes.append(_np(v.dense_shape))
    dense_shape = np.concatenate([[len(items)], np.max(shapes, axis=0)]).astype(np.int64)
    flat_indices = np.concatenate(indices) if indices else np.zeros((0, rank), np.int64)
    return SparseTensor._make(wrap_numpy(flat_indices.astype(np.int64)),
                              wrap_numpy(np.concatenate(values).astype(spec.dtype.np_dtype)),
                              wrap_numpy(dense_shape))


def batched_row_spec(spec, size):
    """The spec of a batch of `size` (None: unknown) elements of spec `spec`."""
    dims = spec.shape.dims
    shape = TensorShape(None if dims is None else [size] + list(dims))
    if isinstance(spec, SparseTensorSpec):
        return SparseTensorSpec(shape, spec.dtype)
    if dims is not None and spec.ragged_rank == 0:
        shape = TensorShape([size, None] + list(dims[1:])) if dims else shape
    return RaggedTensorSpec(shape, spec.dtype, spec.ragged_rank + 1, spec.row_splits_dtype)


def unbatched_row_spec(spec):
    """The spec of one row of a value of spec `spec`."""
    dims = spec.shape.dims
    shape = TensorShape(None if dims is None else list(dims[1:]))
    if isinstance(spec, SparseTensorSpec):
        return SparseTensorSpec(shape, spec.dtype)
    return RaggedTensorSpec(shape, spec.dtype, max(spec.ragged_rank - 1, 0),
                            spec.row_splits_dtype)


def as_ragged_row_spec(spec, row_splits_dtype=dtypes.int64):
    """`ragged_batch`'s view of a dense element spec: its rows may differ in
    length; one of a fully known (or unknown) shape stays dense, as in TF."""
    if isinstance(spec, ROW_SPECS) or not hasattr(spec, "shape") or (
            spec.shape.rank is None or spec.shape.is_fully_defined()):
        return spec
    return RaggedTensorSpec(spec.shape, spec.dtype, 0, row_splits_dtype)


def to_numpy(value):
    """What `as_numpy_iterator` gives for a composite, as TF's: a SparseTensor's
    dense array; a RaggedTensor's rows (slices of its values' array) as one
    array when they have one length, else an object array of them."""
    if isinstance(value, SparseTensor):
        from runtime._src.sparse.sparse_ops import to_dense
        return _np(to_dense(value))
    inner = value.values
    values = to_numpy(inner) if isinstance(inner, RaggedTensor) else _np(inner)
    splits = _np(value.row_splits)
    parts = [values[s:e] for s, e in zip(splits[:-1], splits[1:])]
    if not parts:
        return np.zeros((0, 0) + values.shape[1:], values.dtype)
    if len({len(p) for p in parts}) == 1:
        return np.array(parts)
    out = np.empty(len(parts), dtype=object)
    for i, part in enumerate(parts):
        out[i] = part
    return out
