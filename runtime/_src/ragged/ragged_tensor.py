"""`tf.RaggedTensor`: rows of different lengths, as `values` (a tensor, or a
RaggedTensor for several ragged dimensions) cut by `row_splits` (int64,
row i is values[row_splits[i]:row_splits[i + 1]]).

    rt = RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 2, 2, 4])
    rt.to_list()            # [[1, 2], [], [3, 4]]
    rt.shape                # TensorShape([3, None])
    rt[2]                   # tf.Tensor([3 4])
    rt * 10                 # <tf.RaggedTensor [[10, 20], [], [30, 40]]>
    rt.to_tensor()          # [[1, 2], [0, 0], [3, 4]]

Elementwise operators apply to `flat_values` (with a scalar, a tensor that
broadcasts against them, or a RaggedTensor with the same row splits).
`to_tensor` is an op with a gradient, so gradients flow from padded results
back to the flat values.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec, register_spec
from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape, TensorSpec
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import concat, shape as shape_of
from runtime._src.ops.array_ops import fill, reshape
from runtime._src.ops.reduction_ops import cumprod, cumsum, reduce_all, reduce_sum
from runtime._src.ops.scatter_ops import boolean_mask
from runtime._src.ops.shape_ops import reverse, sequence_mask
from runtime._src.ops.segment_ops import bincount

__all__ = ["RaggedTensor", "RaggedTensorSpec"]


@register_spec
class RaggedTensorSpec(CompositeSpec):
    """`tf.RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype)`: a
    composite spec (core/composite.py) whose components are the flat values
    and one row_splits vector per ragged dimension, so RaggedTensors go into
    and out of `tf.function`s."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64):
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        rank = self.shape.rank
        self.ragged_rank = ragged_rank if ragged_rank is not None else (
            rank - 1 if rank else 1)
        self.row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

    @property
    def value_type(self):
        return RaggedTensor

    def _serialize(self):
        return (self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    @property
    def _component_specs(self):
        dims = self.shape.dims
        inner = None if dims is None else [None] + list(dims[self.ragged_rank + 1:])
        nrows = None if dims is None else dims[0]
        splits = [TensorSpec([None if nrows is None else nrows + 1], self.row_splits_dtype)]
        splits += [TensorSpec([None], self.row_splits_dtype)
                   for _ in range(self.ragged_rank - 1)]
        return [TensorSpec(inner, self.dtype)] + splits

    def _to_components(self, value):
        """[flat_values, row_splits of each ragged dimension, outermost first]."""
        return [value.flat_values] + list(value.nested_row_splits)

    def _from_components(self, components):
        values = components[0]
        for splits in reversed(components[1:]):
            values = RaggedTensor(values, splits, internal=True)
        return values

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    def __repr__(self):
        return (f"RaggedTensorSpec({self.shape!r}, tf.{self.dtype.name}, {self.ragged_rank}, "
                f"tf.{self.row_splits_dtype.name})")


def _tensor(value, dtype=None):
    if hasattr(value, "_as_tensor") and not isinstance(value, Tensor):
        value = value._as_tensor()
    return convert_to_tensor(value, dtype)


class RaggedTensor:
    """See the module docstring. Build with the `from_*` class methods or
    `tf.ragged.constant`."""

    __array_priority__ = 200

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor: use RaggedTensor.from_row_splits (or another "
                             "from_* factory) or tf.ragged.constant to build one")
        self._values = values
        self._row_splits = row_splits

    # --- factories --------------------------------------------------------------------

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Row i is values[row_splits[i]:row_splits[i + 1]]."""
        if not isinstance(values, RaggedTensor):
            values = _tensor(values)
        splits = _tensor(row_splits)
        if not splits.dtype.is_integer:
            raise TypeError(f"row_splits must be int32 or int64, got {splits.dtype.name}")
        splits = math_ops.cast(splits, dtypes.int64) if splits.dtype != dtypes.int64 else splits
        if splits.shape.rank not in (None, 1):
            raise ValueError(f"row_splits must be a vector, got shape {splits.shape}")
        if validate and isinstance(splits, EagerTensor):
            _check_splits(splits.numpy(), _nvals(values))
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Row i has row_lengths[i] values."""
        lengths = math_ops.cast(_tensor(row_lengths), dtypes.int64)
        splits = concat([convert_to_tensor([0], dtypes.int64), cumsum(lengths)], 0)
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Value j belongs to row value_rowids[j] (sorted); `nrows` rows
        (default: the last id + 1)."""
        ids = math_ops.cast(_tensor(value_rowids), dtypes.int32)
        if isinstance(ids, EagerTensor) and ids.numpy().size > 1 and \
                np.any(np.diff(ids.numpy()) < 0):
            raise InvalidArgumentError("value_rowids must be sorted", "RaggedTensor")
        minlength = None if nrows is None else nrows
        lengths = bincount(ids, minlength=minlength, maxlength=nrows, dtype=dtypes.int64)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None):
        """The rows of a dense [nrows, ncols, ...] tensor: each cut to `lengths[i]`,
        or with its trailing `padding` values dropped, or whole."""
        t = _tensor(tensor)
        if ragged_rank != 1:
            raise NotImplementedError("RaggedTensor.from_tensor: only ragged_rank=1 is "
                                      "supported")
        if lengths is not None and padding is not None:
            raise ValueError("Specify at most one of lengths and padding")
        dims = shape_of(t, dtypes.int64)
        if padding is not None:
            is_pad = math_ops.equal(t, _tensor(padding, t.dtype))
            if t.shape.rank is not None and t.shape.rank > 2:
                is_pad = reduce_all(is_pad, axis=list(range(2, t.shape.rank)))
            trailing = reduce_sum(cumprod(math_ops.cast(reverse(is_pad, [1]), dtypes.int64),
                                          axis=1), axis=1)
            lengths = dims[1] - trailing
        if lengths is None:
            lengths = fill(dims[:1], dims[1])
        lengths = math_ops.cast(_tensor(lengths), dtypes.int64)
        mask = sequence_mask(lengths, dims[1])
        return cls.from_row_lengths(boolean_mask(t, mask), lengths, validate=False)

    # --- structure --------------------------------------------------------------------

    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self):
        out, v = [self._row_splits], self._values
        while isinstance(v, RaggedTensor):
            out.append(v._row_splits)
            v = v._values
        return tuple(out)

    @property
    def ragged_rank(self):
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return dtypes.int64

    @property
    def shape(self):
        """[nrows, None, ...the values' inner dimensions]."""
        n = self._row_splits.shape.dims[0] if self._row_splits.shape.rank == 1 else None
        inner = self._values.shape
        rest = list(inner.dims[1:]) if inner.rank is not None else None
        if rest is None:
            return TensorShape(None)
        return TensorShape([None if n is None else n - 1, None] + rest)

    def get_shape(self):
        return self.shape

    @property
    def _type_spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank)

    def row_lengths(self, axis=1, name=None):
        """The length of each row (axis 1), as int64."""
        if axis != 1:
            if not isinstance(self._values, RaggedTensor):
                raise ValueError(f"row_lengths: axis {axis} is not a ragged dimension")
            return self.with_values(self._values.row_lengths(axis - 1))
        return self._row_splits[1:] - self._row_splits[:-1]

    def nrows(self, out_type=dtypes.int64, name=None):
        return math_ops.cast(shape_of(self._row_splits, out_type)[0] - 1, out_type)

    def value_rowids(self, name=None):
        """The row of each value (int64)."""
        return apply("RaggedValueRowIds", [self._row_splits])

    def with_values(self, new_values):
        return RaggedTensor(new_values, self._row_splits, internal=True)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(_tensor(new_values))

    # --- conversion ---------------------------------------------------------------------

    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense tensor padded with `default_value` (0, False or b'')."""
        flat = self.flat_values
        default = _tensor(_zero(flat.dtype) if default_value is None else default_value,
                          flat.dtype)
        return apply("RaggedToDense", [flat, default] + list(self.nested_row_splits),
                     {"shape": None if shape is None else tuple(shape)})

    def to_list(self):
        """The rows as nested Python lists (eagerly only)."""
        if current_graph() is not None:
            raise ValueError("RaggedTensor.to_list() is only available eagerly; inside a "
                             "tf.function use to_tensor() or the components")
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) \
            else self._values.numpy().tolist()
        splits = self._row_splits.numpy()
        return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def numpy(self):
        rows = self.to_list()
        out = np.empty(len(rows), object)
        for i, r in enumerate(rows):
            out[i] = np.array(r, dtype=self.dtype.np_dtype)
        return out

    def __repr__(self):
        if isinstance(self.flat_values, EagerTensor):
            return f"<tf.RaggedTensor {self.to_list()!r}>"
        return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"

    __str__ = __repr__

    def __len__(self):
        n = self.shape.dims
        if n is None or n[0] is None:
            raise TypeError("len() of a RaggedTensor whose number of rows is unknown")
        return n[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # --- indexing ----------------------------------------------------------------------

    def __getitem__(self, key):
        if isinstance(key, tuple):
            if not key:
                return self
            row = self[key[0]]
            rest = key[1:]
            if not rest:
                return row
            if isinstance(key[0], slice):
                raise NotImplementedError("RaggedTensor: indexing inner dimensions of a "
                                          "slice of rows is not supported; index one row")
            return row[rest if len(rest) > 1 else rest[0]]
        if isinstance(key, slice):
            return self._slice_rows(key)
        if isinstance(key, int) and key < 0:
            key = key - 1                    # row -1 starts at splits[-2]
        return _slice_values(self._values, self._row_splits[key], self._row_splits[key + 1])

    def _slice_rows(self, key):
        """Rows key.start:key.stop: splits has one entry more than rows, so a
        non-negative stop b keeps splits[:b + 1], a negative one splits[:b]."""
        if key.step not in (None, 1):
            raise NotImplementedError("RaggedTensor: slicing rows with a step is not supported")
        a, b = key.start or 0, key.stop
        a = a if a >= 0 else a - 1
        b = None if b is None else (b + 1 if b >= 0 else b)
        splits = self._row_splits[a:b]
        values = _slice_values(self._values, splits[0], splits[-1])
        return RaggedTensor(values, splits - splits[0], internal=True)

    # --- reductions (tf.reduce_sum(rt, axis=1) and friends call this) -------------------

    def _ragged_reduce(self, op_name, axis, keepdims):
        """Reduce each row (axis 1 or -1 of a ragged_rank-1 tensor of rank 2), or all
        values (axis None); empty rows give what TF's give: 0, the dtype's lowest
        (max) or highest (min) value, NaN (mean)."""
        from runtime._src.ops import reduction_ops, segment_ops
        flat = self.flat_values
        whole = {"Sum": reduction_ops.reduce_sum, "Max": reduction_ops.reduce_max,
                 "Min": reduction_ops.reduce_min, "Mean": reduction_ops.reduce_mean}
        if op_name not in whole:
            raise NotImplementedError(f"{op_name} of a RaggedTensor is not supported")
        if axis is None:
            return whole[op_name](flat, keepdims=keepdims)
        rank = self.shape.rank
        if self.ragged_rank != 1 or rank != 2 or axis not in (1, -1):
            raise NotImplementedError(f"{op_name} of a RaggedTensor: only axis=None, or "
                                      f"axis 1 of a 2-D RaggedTensor, is supported (got axis "
                                      f"{axis}, shape {self.shape})")
        ids, n = self.value_rowids(), self.nrows()
        if op_name == "Sum":
            out = segment_ops.unsorted_segment_sum(flat, ids, n)
        elif op_name == "Max":
            out = segment_ops.unsorted_segment_max(flat, ids, n)
        elif op_name == "Min":
            out = -segment_ops.unsorted_segment_max(-flat, ids, n)
        else:
            total = segment_ops.unsorted_segment_sum(flat, ids, n)
            count = math_ops.cast(self.row_lengths(), total.dtype if total.dtype.is_floating
                                  else dtypes.float64)
            out = math_ops.truediv(math_ops.cast(total, count.dtype), count)
        return reshape(out, [-1, 1]) if keepdims else out

    # --- elementwise operators -----------------------------------------------------------

    def _binary(self, other, op, reverse=False):
        if isinstance(other, RaggedTensor):
            other = other.flat_values
        elif hasattr(other, "shape") and getattr(other.shape, "rank", 0):
            raise ValueError("RaggedTensor: an elementwise op with a dense tensor of rank > 0 "
                             "is not supported; use a scalar or a RaggedTensor")
        a, b = (other, self.flat_values) if reverse else (self.flat_values, other)
        return self.with_flat_values(op(a, b))

    def __add__(self, o): return self._binary(o, math_ops.add)
    def __radd__(self, o): return self._binary(o, math_ops.add, True)
    def __sub__(self, o): return self._binary(o, math_ops.subtract)
    def __rsub__(self, o): return self._binary(o, math_ops.subtract, True)
    def __mul__(self, o): return self._binary(o, math_ops.multiply)
    def __rmul__(self, o): return self._binary(o, math_ops.multiply, True)
    def __truediv__(self, o): return self._binary(o, math_ops.truediv)
    def __rtruediv__(self, o): return self._binary(o, math_ops.truediv, True)
    def __floordiv__(self, o): return self._binary(o, math_ops.floordiv)
    def __mod__(self, o): return self._binary(o, math_ops.floormod)
    def __pow__(self, o): return self._binary(o, math_ops.pow)
    def __lt__(self, o): return self._binary(o, math_ops.less)
    def __le__(self, o): return self._binary(o, math_ops.less_equal)
    def __gt__(self, o): return self._binary(o, math_ops.greater)
    def __ge__(self, o): return self._binary(o, math_ops.greater_equal)
    def __neg__(self): return self.with_flat_values(math_ops.negative(self.flat_values))
    def __abs__(self): return self.with_flat_values(math_ops.abs(self.flat_values))


def _nvals(values):
    if isinstance(values, RaggedTensor):
        n = values.shape.dims
        return None if n is None else n[0]
    dims = values.shape.dims
    return None if dims is None or not dims else dims[0]


def _check_splits(splits, nvals):
    if splits.size == 0 or splits[0] != 0:
        raise InvalidArgumentError("Arguments to from_row_splits do not form a valid "
                                   "RaggedTensor: row_splits must start with 0", "RaggedTensor")
    if np.any(np.diff(splits) < 0):
        raise InvalidArgumentError("Arguments to from_row_splits do not form a valid "
                                   "RaggedTensor: row_splits must be sorted", "RaggedTensor")
    if nvals is not None and splits[-1] != nvals:
        raise InvalidArgumentError(f"Arguments to from_row_splits do not form a valid "
                                   f"RaggedTensor: the last row split ({splits[-1]}) must be "
                                   f"the number of values ({nvals})", "RaggedTensor")


def _slice_values(values, start, stop):
    if isinstance(values, RaggedTensor):
        splits = values.row_splits[start:stop + 1]
        inner = _slice_values(values.values, splits[0], splits[-1])
        return RaggedTensor(inner, splits - splits[0], internal=True)
    return values[start:stop]


def _zero(dtype):
    if dtype == dtypes.string:
        return b""
    if dtype == dtypes.bool:
        return False
    return 0


# --- ops ------------------------------------------------------------------------------

def _infer_to_dense(inputs, attrs):
    flat, splits = inputs[0], inputs[2:]
    if attrs["shape"] is not None:
        return [(flat.dtype, TensorShape(list(attrs["shape"])))]
    outer = splits[0].shape.dims[0] if splits[0].shape.rank == 1 else None
    inner = list(flat.shape.dims[1:]) if flat.shape.rank is not None else None
    if inner is None:
        return [(flat.dtype, TensorShape(None))]
    return [(flat.dtype, TensorShape([None if outer is None else outer - 1]
                                     + [None] * len(splits) + inner))]


def _dense_positions(splits):
    """(dense shape of the ragged dims, index tuple of each flat value)."""
    dims = [len(splits[0]) - 1]
    coords = [np.arange(len(splits[0]) - 1)]          # the dense coordinates of each row
    for s in splits:
        lengths = np.diff(s)
        width = int(lengths.max()) if lengths.size else 0
        dims.append(width)
        owner = np.repeat(np.arange(len(lengths)), lengths)
        pos = np.arange(s[-1] if len(s) else 0) - np.repeat(s[:-1], lengths)
        coords = [c[owner] for c in coords] + [pos]
    return dims, tuple(coords)


@define_op("RaggedToDense", infer=_infer_to_dense)
def _ragged_to_dense(flat, default, *splits, shape):
    dims, coords = _dense_positions([np.asarray(s) for s in splits])
    out = np.empty(dims + list(np.shape(flat)[1:]), dtype=flat.dtype)
    out[...] = default
    out[coords] = flat
    if shape is not None:
        target = [d if d is not None and d >= 0 else out.shape[i] for i, d in enumerate(shape)]
        fixed = np.empty(target, out.dtype)
        fixed[...] = default
        common = tuple(slice(0, min(a, b)) for a, b in zip(out.shape, target))
        fixed[common] = out[common]
        out = fixed
    return out


@define_op("RaggedGatherFlat", infer=lambda inputs, attrs: [
    (inputs[0].dtype, TensorShape([None] + list(inputs[0].shape.dims[1 + len(inputs) - 1:])
                                  if inputs[0].shape.rank is not None else None))])
def _ragged_gather_flat(dense, *splits):
    _, coords = _dense_positions([np.asarray(s) for s in splits])
    return dense[coords]


@define_grad("RaggedToDense")
def _ragged_to_dense_grad(op, grad):
    splits = list(op.inputs[2:])
    if op.attrs["shape"] is not None:
        return [None] * len(op.inputs)
    return [apply("RaggedGatherFlat", [grad] + splits), None] + [None] * len(splits)


@define_op("RaggedValueRowIds", infer=lambda inputs, attrs: [(dtypes.int64, TensorShape([None]))])
def _value_rowids(splits):
    return np.repeat(np.arange(len(splits) - 1, dtype=np.int64), np.diff(splits))


not_differentiable("RaggedGatherFlat", "RaggedValueRowIds")
