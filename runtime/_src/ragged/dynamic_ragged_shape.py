"""`tf.experimental.DynamicRaggedShape` and `tf.experimental.RowPartition`:
the shape of a RaggedTensor, as `tf.shape(rt)` returns it.

    shape = tf.shape(tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]]))
    shape                  # <DynamicRaggedShape lengths=[4, (1, 3, 0, 2)] num_row_partitions=1>
    shape[0]               # 4; shape[1] raises ValueError (not uniform)
    tf.zeros(shape)        # <tf.RaggedTensor [[0.0], [0.0, 0.0, 0.0], [], [0.0, 0.0]]>
    tf.reshape(x, shape)   # x's values in those rows

A shape is its row partitions (one per ragged dimension, outermost first)
and the inner shape (the flat values' shape).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import register_api
from runtime._src.core.tensor import EagerTensor, convert_to_tensor
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import fill, ones, reshape, shape as shape_of, zeros
from runtime._src.ops.manipulation_ops import concat
from runtime._src.ops.reduction_ops import cumsum
from runtime._src.ragged.ragged_tensor import RaggedTensor, _tensor

__all__ = ["DynamicRaggedShape", "RowPartition"]

_I64 = dtypes.int64


class RowPartition:
    """How a dimension's values are cut into rows (kept as row splits)."""

    def __init__(self, row_splits, internal=False):
        if not internal:
            raise ValueError("RowPartition: build one with RowPartition.from_row_splits or "
                             "from_row_lengths")
        self._row_splits = row_splits

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None):
        return cls(math_ops.cast(_tensor(row_splits), _I64), internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None):
        lengths = math_ops.cast(_tensor(row_lengths), _I64)
        return cls(concat([convert_to_tensor([0], _I64), cumsum(lengths)], 0), internal=True)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None):
        """From each value's row; `nrows` (default: the last row id + 1) allows empty
        trailing rows."""
        ids = np.asarray(_tensor(value_rowids).numpy(), np.int64)
        n = int(ids[-1]) + 1 if nrows is None and ids.size else int(nrows or 0)
        return cls.from_row_lengths(np.bincount(ids, minlength=n).astype(np.int64))

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None,
                                validate=True, dtype=None):
        """Rows of `uniform_row_length` values each, `nvals` values (or `nrows` rows)."""
        length = int(_tensor(uniform_row_length).numpy())
        if nrows is None:
            nrows = int(_tensor(nvals).numpy()) // length if length else 0
        splits = np.arange(int(nrows) + 1, dtype=np.int64) * length
        partition = cls(convert_to_tensor(splits), internal=True)
        partition._uniform = length
        return partition

    _uniform = None

    @property
    def dtype(self):
        return _I64

    @property
    def static_nrows(self):
        """The number of rows when known while tracing, else None."""
        n = self._row_splits.shape.dims[0]
        return None if n is None else n - 1

    @property
    def static_nvals(self):
        return None if self._uniform is None else self.static_nrows * self._uniform

    @property
    def static_uniform_row_length(self):
        return self._uniform

    def is_uniform(self):
        """Whether the partition was made with a uniform row length."""
        return self._uniform is not None

    def uniform_row_length(self):
        return None if self._uniform is None else convert_to_tensor(self._uniform, _I64)

    def value_rowids(self):
        lengths = self.row_lengths()
        return convert_to_tensor(np.repeat(np.arange(lengths.shape[0], dtype=np.int64),
                                           lengths.numpy()))

    def row_splits(self):
        return self._row_splits

    def row_lengths(self):
        return self._row_splits[1:] - self._row_splits[:-1]

    def nrows(self):
        return shape_of(self._row_splits, _I64)[0] - 1

    def nvals(self):
        return self._row_splits[-1]

    def __repr__(self):
        return f"tf.RowPartition(row_splits={self._row_splits})"


class DynamicRaggedShape:
    """See the module docstring."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False,
                 static_inner_shape=None):
        self._partitions = tuple(row_partitions)
        self._dtype = dtypes.as_dtype(dtype or _I64)
        self._inner = math_ops.cast(_tensor(inner_shape), self._dtype)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """From a list whose items are ints (uniform dimensions) or tuples of
        row lengths (ragged ones)."""
        lengths = list(lengths)
        partitions, k = [], 1
        while k < len(lengths) and isinstance(lengths[k], (tuple, list)):
            partitions.append(RowPartition.from_row_lengths(list(lengths[k])))
            k += 1
        inner = [sum(lengths[k - 1]) if k > 1 else lengths[0]] + list(lengths[k:])
        return cls(partitions, inner, dtype=dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """`t`'s shape, in int64 (its row splits') for a RaggedTensor, int32 for a tensor."""
        if isinstance(t, RaggedTensor):
            return cls([RowPartition(s, internal=True) for s in t.nested_row_splits],
                       shape_of(t.flat_values, _I64), dtype=dtype or _I64)
        return cls([], shape_of(_tensor(t), _I64), dtype=dtype or dtypes.int32)

    def static_lengths(self):
        """Each dimension: an int, or a tuple of row lengths (ragged); eager only."""
        return self._dims()

    @property
    def row_partitions(self):
        return self._partitions

    @property
    def inner_shape(self):
        return self._inner

    @property
    def num_row_partitions(self):
        return len(self._partitions)

    @property
    def rank(self):
        return len(self._partitions) + int(self._inner.shape.dims[0])

    @property
    def dtype(self):
        return self._dtype

    def __len__(self):
        return self.rank

    def _dims(self):
        """Each dimension: an int (uniform) or a tuple of row lengths (eager only)."""
        if not self._partitions:
            return [int(d) for d in self._inner.numpy()]
        dims = [int(self._partitions[0].nrows().numpy())]
        for p in self._partitions:
            dims.append(tuple(int(v) for v in p.row_lengths().numpy()))
        return dims + [int(d) for d in self._inner.numpy()[1:]]

    def __repr__(self):
        if not isinstance(self._inner, EagerTensor):
            return (f"<DynamicRaggedShape num_row_partitions={self.num_row_partitions} "
                    f"inner_shape={self._inner}>")
        text = ", ".join(str(d) if not isinstance(d, tuple) else
                         "(" + ", ".join(str(v) for v in d) + ")" for d in self._dims())
        return f"<DynamicRaggedShape lengths=[{text}] num_row_partitions={self.num_row_partitions}>"

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._slice(key)
        k = int(key) + self.rank if int(key) < 0 else int(key)
        if not 0 <= k < self.rank:
            raise ValueError(f"Index {key} is out of range for a shape of rank {self.rank}")
        if k == 0:
            n = self._partitions[0].nrows() if self._partitions else self._inner[0]
            return math_ops.cast(n, self._dtype)
        if k <= self.num_row_partitions:
            raise ValueError(f"Index {key} is not uniform")
        return math_ops.cast(self._inner[k - self.num_row_partitions], self._dtype)

    def _slice(self, key):
        if key.step not in (None, 1) or key.start not in (None, 0):
            raise ValueError("DynamicRaggedShape: only slices [:k] are supported")
        stop = self.rank if key.stop is None else (key.stop + self.rank if key.stop < 0
                                                   else key.stop)
        if stop > self.num_row_partitions:
            return DynamicRaggedShape(self._partitions, self._inner[:stop -
                                                                   self.num_row_partitions],
                                      dtype=self._dtype)
        if stop == 0:
            return DynamicRaggedShape([], convert_to_tensor(np.zeros([0], np.int64)),
                                      dtype=self._dtype)
        head = self._partitions[:stop - 1]
        nvals = head[-1].nvals() if head else self[0]
        return DynamicRaggedShape(head, reshape(math_ops.cast(nvals, _I64), [1]),
                                  dtype=self._dtype)

    def _wrap(self, flat):
        """flat values (shaped as the inner shape) in this shape's rows."""
        out = flat
        for p in reversed(self._partitions):
            out = RaggedTensor(out, p.row_splits(), internal=True)
        return out


@register_api(RaggedTensor, "shape")
def ragged_shape(rt, out_type=dtypes.int32):
    """`tf.shape(rt)`: a DynamicRaggedShape in `out_type`."""
    return DynamicRaggedShape.from_tensor(rt, dtype=out_type)


@register_api(DynamicRaggedShape, "zeros")
def _zeros(shape, dtype=dtypes.float32):
    return shape._wrap(zeros(shape.inner_shape, dtype))


@register_api(DynamicRaggedShape, "ones")
def _ones(shape, dtype=dtypes.float32):
    return shape._wrap(ones(shape.inner_shape, dtype))


@register_api(DynamicRaggedShape, "fill")
def _fill(shape, value):
    return shape._wrap(fill(shape.inner_shape, value))


@register_api(DynamicRaggedShape, "reshape")
def _reshape(tensor, shape):
    flat = tensor.flat_values if isinstance(tensor, RaggedTensor) else _tensor(tensor)
    return shape._wrap(reshape(flat, shape.inner_shape))
