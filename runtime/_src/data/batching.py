"""Batching: batch, padded_batch, unbatch, window, and the fused path.

    ds.batch(2)                 # [e0, e1] stacked, [e2, e3], ... (last may be short)
    ds.padded_batch(2)          # stacked after padding each to the longest
    ds.unbatch()                # the rows of each element
    ds.window(3, shift=2)       # datasets of 3 elements, starting every 2

The fused path (TensorFlow's map-and-batch fusion): when the elements are
rows of arrays (from_tensor_slices, range) reordered by shuffle/take/skip and
mapped by functions, `batch` gathers a whole batch of rows with one numpy
index and runs each map function's graph once on the stacked rows (see
`Map.apply_block`), instead of once per element.
"""

import itertools

import numpy as np

from runtime._src.core import dtypes, nest
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import wrap_numpy
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.sparse.sparse_tensor import SparseTensor, SparseTensorSpec
from runtime._src.data import composite_rows, structure
from runtime._src.data.node import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetNode,
    static_int,
)

__all__ = ["Batch", "PaddedBatch", "Plan", "Unbatch", "Window", "stack"]


class Plan:
    """Elements as rows `order()` of the flat `arrays` (packed like `spec`),
    then passed through `maps` (Map nodes, applied to whole blocks).
    `order()` returns an iterator of row numbers or an array of them; `size`
    is the number of rows when the order is all rows in sequence, else None."""

    __slots__ = ("arrays", "maps", "order", "size", "spec")

    def __init__(self, arrays, spec, order, maps=(), size=None):
        self.arrays, self.spec, self.order, self.maps = arrays, spec, order, tuple(maps)
        self.size = size

    @staticmethod
    def all_rows(arrays, spec):
        n = len(arrays[0])
        return Plan(arrays, spec, lambda: np.arange(n), size=n)

    def with_order(self, change):
        old = self.order
        return Plan(self.arrays, self.spec, lambda: change(old()), self.maps)

    def with_map(self, node):
        return Plan(self.arrays, self.spec, self.order, self.maps + (node,), self.size)

    def blocks(self, size, drop_remainder):
        """Batches of `size` rows. Rows are gathered and mapped `_ROWS` at a
        time (several batches: one gather and one run of each map's graph),
        then split into batches (views)."""
        group = size * max(1, _ROWS // size)
        order = self.order()
        if isinstance(order, np.ndarray):
            chunks = (order[i:i + group] for i in range(0, len(order), group))
        else:
            chunks = _chunks(iter(order), group)
        out_spec = self.maps[-1].element_spec if self.maps else self.spec
        if structure.has_extensions(out_spec):     # rebuilt with their batched specs
            out_spec = structure.batched_spec(out_spec, size if drop_remainder else None)
        for rows in chunks:
            n = len(rows)
            flat = [a[rows] for a in self.arrays]
            for node in self.maps:
                flat = node.apply_block(flat, n)
            for start in range(0, n, size):
                if drop_remainder and n - start < size:
                    return
                yield structure.pack(out_spec, [a[start:start + size] for a in flat])


_ROWS = 256     # rows gathered and mapped together on the fused path (fits in cache)


def _chunks(order, size):
    while True:
        rows = np.fromiter(itertools.islice(order, size), np.intp)
        if not len(rows):
            return
        yield rows


def stack(items, op):
    """np.stack of one component's values, refusing different shapes with
    TensorFlow's message."""
    first = np.shape(items[0])
    for v in items[1:]:
        if np.shape(v) != first:
            raise InvalidArgumentError(
                f"{op}: Cannot add tensor to the batch: number of elements does not match. "
                f"Shapes are: [tensor]: {list(np.shape(v))}, [batch]: {list(first)}. Use "
                f"padded_batch to batch elements of different shapes", op)
    if isinstance(items[0], bytes):
        return np.array(items, dtype=object)
    return np.stack(items)


def _batch_size(batch_size, op):
    n = static_int(batch_size, "batch_size", op)
    if n <= 0:
        raise InvalidArgumentError(f"{op}: Batch size must be greater than zero, got {n}", op)
    return n


def _batched_cardinality(n, size, drop):
    if n < 0:
        return n
    return n // size if drop else -(-n // size)


class Batch(DatasetNode):
    def __init__(self, source, batch_size, drop_remainder):
        self._size = _batch_size(batch_size, "Dataset.batch")
        self._drop = bool(drop_remainder)
        self._inputs = (source,)
        self._source = source
        super().__init__(structure.batched_spec(source.element_spec,
                                                self._size if self._drop else None))

    def _cardinality(self):
        return _batched_cardinality(self._source._cardinality(), self._size, self._drop)

    def _iterate(self, env):
        row_specs = self._row_specs()
        plan = None if row_specs else self._source._plan(env)
        if plan is not None:
            yield from plan.blocks(self._size, self._drop)
            return
        spec = self.element_spec
        it = self._source._iterate(env)
        while True:
            items = list(itertools.islice(it, self._size))
            if not items or (self._drop and len(items) < self._size):
                return
            if row_specs:
                yield self._stack_by_rows(items, row_specs)
                continue
            columns = zip(*[structure.flatten(e) for e in items])
            yield structure.pack(spec, [stack(list(c), "Dataset.batch") for c in columns])

    def _row_specs(self):
        """The source's leaf specs when some batch by rows (RaggedTensorSpec,
        SparseTensorSpec: composite_rows.py), else None."""
        spec = self._source.element_spec
        return structure.row_leaves(spec) if structure.has_row_composites(spec) else None

    def _stack_by_rows(self, items, row_specs):
        columns = zip(*[structure.row_leaves(e) for e in items])
        leaves = [composite_rows.stack_rows(list(c), s) if composite_rows.is_row_spec(s)
                  else stack(list(c), "Dataset.batch") for c, s in zip(columns, row_specs)]
        return structure.pack_leaves(self.element_spec, leaves)


class PaddedBatch(Batch):
    def __init__(self, source, batch_size, padded_shapes, padding_values, drop_remainder):
        self._size = _batch_size(batch_size, "Dataset.padded_batch")
        self._drop = bool(drop_remainder)
        self._inputs = (source,)
        self._source = source
        spec = source.element_spec
        leaves = structure.flatten(spec)
        shapes = [s.shape for s in leaves] if padded_shapes is None else \
            [TensorShape(s) for s in _flat_like(spec, padded_shapes, "padded_shapes")]
        pads = [None] * len(leaves) if padding_values is None else \
            _flat_like(spec, padding_values, "padding_values")
        self._shapes, self._pads = shapes, pads
        batched = [TensorSpec([self._size if self._drop else None] + list(s.dims), leaf.dtype)
                   for s, leaf in zip(shapes, leaves)]
        DatasetNode.__init__(self, structure.pack(spec, batched))

    def _iterate(self, env):
        spec = self._source.element_spec
        leaves = structure.flatten(spec)
        it = self._source._iterate(env)
        while True:
            items = list(itertools.islice(it, self._size))
            if not items or (self._drop and len(items) < self._size):
                return
            columns = zip(*[structure.flatten(e) for e in items])
            out = [self._pad(list(c), shape, pad, leaf)
                   for c, shape, pad, leaf in zip(columns, self._shapes, self._pads, leaves)]
            yield structure.pack(spec, out)

    @staticmethod
    def _pad(values, shape, pad, leaf):
        rank = np.ndim(values[0])
        longest = [max(np.shape(v)[d] for v in values) for d in range(rank)]
        dims = [longest[d] if shape.dims[d] is None else shape.dims[d] for d in range(rank)]
        fill = (b"" if leaf.dtype.is_string else 0) if pad is None else \
            getattr(pad, "_value", pad)
        out = np.full([len(values)] + dims, fill, dtype=leaf.dtype.np_dtype)
        for i, v in enumerate(values):
            if any(s > d for s, d in zip(np.shape(v), dims)):
                raise InvalidArgumentError(
                    f"Dataset.padded_batch: an element of shape {list(np.shape(v))} is larger "
                    f"than the padded shape {dims}", "Dataset.padded_batch")
            out[(i,) + tuple(slice(0, s) for s in np.shape(v))] = v
        return out


def _flat_like(spec, value, what):
    if not isinstance(spec, (tuple, dict)):
        return [value]
    flat = structure.flatten(value)
    if len(flat) != len(structure.flatten(spec)):
        raise ValueError(f"Dataset.padded_batch: {what} {value!r} does not match the element "
                         f"structure {spec!r}")
    return flat


class Unbatch(DatasetNode):
    def __init__(self, source):
        leaves = structure.row_leaves(source.element_spec)
        for s in leaves:
            if s.shape.dims is not None and not s.shape.dims:
                raise ValueError("Dataset.unbatch: the elements must have at least one "
                                 f"dimension, but the element_spec is {source.element_spec!r}")
        self._inputs = (source,)
        self._source = source
        super().__init__(structure.unbatched_spec(source.element_spec))

    def _cardinality(self):
        n = self._source._cardinality()
        return INFINITE_CARDINALITY if n == INFINITE_CARDINALITY else UNKNOWN_CARDINALITY

    def _iterate(self, env):
        spec = self.element_spec
        if structure.has_row_composites(self._source.element_spec):
            for e in self._source._iterate(env):
                columns = [composite_rows.rows(v) for v in structure.row_leaves(e)]
                for row in zip(*columns):
                    yield structure.pack_leaves(spec, list(row))
            return
        for e in self._source._iterate(env):
            flat = structure.flatten(e)
            n = len(flat[0])
            if any(len(a) != n for a in flat):
                raise InvalidArgumentError("Dataset.unbatch: the components of an element have "
                                           "different first dimensions", "Dataset.unbatch")
            for i in range(n):
                yield structure.pack(spec, [a[i] for a in flat])


class Stored(DatasetNode):
    """A finite dataset of given elements (the windows of `window`)."""
    _tf_class = "_VariantDataset"   # TensorFlow's repr

    def __init__(self, items, spec):
        self._items = items
        super().__init__(spec)

    def _cardinality(self):
        return len(self._items)

    def _iterate(self, env):
        yield from self._items


class Window(DatasetNode):
    def __init__(self, source, size, shift, stride, drop_remainder):
        self._n = _batch_size(size, "Dataset.window")
        self._shift = self._n if shift is None else static_int(shift, "shift", "Dataset.window")
        self._stride = static_int(stride, "stride", "Dataset.window")
        if self._shift <= 0 or self._stride <= 0:
            raise InvalidArgumentError("Dataset.window: shift and stride must be positive",
                                       "Dataset.window")
        self._drop = bool(drop_remainder)
        self._inputs = (source,)
        self._source = source
        spec = source.element_spec
        super().__init__(structure.pack(spec, [self._dataset_spec(s)
                                               for s in structure.flatten(spec)]))

    def _cardinality(self):
        n = self._source._cardinality()
        return n if n < 0 else UNKNOWN_CARDINALITY

    def _iterate(self, env):
        items = list(self._source._iterate(env))
        leaves = structure.flatten(self._source.element_spec)
        span = (self._n - 1) * self._stride + 1
        for start in range(0, len(items), self._shift):
            window = items[start:start + span:self._stride]
            if self._drop and len(window) < self._n:
                return
            columns = list(zip(*[structure.flatten(e) for e in window]))
            yield structure.pack(self._source.element_spec,
                                 [self._public(Stored)(list(c), s)
                                  for c, s in zip(columns, leaves)])


class RaggedBatch(Batch):
    """`Dataset.ragged_batch`: a batch whose dense leaves become RaggedTensors
    (elements of any shapes), as TF's."""

    def __init__(self, source, batch_size, drop_remainder, row_splits_dtype):
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        super().__init__(source, batch_size, drop_remainder)
        structure.note(self._ragged_spec())
        self._spec = structure.batched_spec(self._ragged_spec(),
                                            self._size if self._drop else None)

    def _ragged_spec(self):
        return nest.map_structure(
            lambda s: composite_rows.as_ragged_row_spec(s, self._row_splits_dtype),
            self._source.element_spec)

    def _row_specs(self):
        return structure.row_leaves(self._ragged_spec())


class SparseBatch(DatasetNode):
    """`Dataset.sparse_batch(batch_size, row_shape)`: batches of dense elements
    of any shapes within `row_shape`, as SparseTensors holding every value."""

    def __init__(self, source, batch_size, row_shape):
        self._size = _batch_size(batch_size, "Dataset.sparse_batch")
        self._row_shape = [static_int(d, "Dataset.sparse_batch", "row_shape") for d in
                           (row_shape.as_list() if isinstance(row_shape, TensorShape)
                            else list(row_shape))]
        if any(d < 0 for d in self._row_shape):
            raise ValueError(f"Dimension {min(self._row_shape)} must be >= 0")
        spec = source.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError(f"Dataset.sparse_batch: the elements must be single tensors, got "
                            f"element_spec {spec!r}")
        self._inputs = (source,)
        self._source = source
        out = SparseTensorSpec([None] + self._row_shape, spec.dtype)
        structure.note(out)
        super().__init__(out)

    def _cardinality(self):
        return _batched_cardinality(self._source._cardinality(), self._size, False)

    def _iterate(self, env):
        it = self._source._iterate(env)
        while True:
            items = list(itertools.islice(it, self._size))
            if not items:
                return
            yield self._sparse(items)

    def _sparse(self, items):
        rank = len(self._row_shape)
        indices, values = [], []
        for i, item in enumerate(items):
            v = np.asarray(item)
            if v.ndim != rank or any(n > m for n, m in zip(v.shape, self._row_shape)):
                raise InvalidArgumentError(
                    f"Dataset.sparse_batch: an element of shape {list(v.shape)} does not fit "
                    f"row_shape {self._row_shape}", "DenseToSparseBatchDataset")
            at = np.indices(v.shape).reshape(rank, -1).T
            indices.append(np.hstack([np.full((len(at), 1), i), at]).astype(np.int64))
            values.append(v.reshape(-1))
        return SparseTensor._make(
            wrap_numpy(np.concatenate(indices)), wrap_numpy(np.concatenate(values)),
            wrap_numpy(np.array([len(items)] + self._row_shape, np.int64)))
