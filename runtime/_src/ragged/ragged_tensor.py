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
from runtime._src.core.composite import CompositeSpec, register_spec, registered_spec
from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import concat, shape as shape_of
from runtime._src.ops.array_ops import fill, reshape
from runtime._src.ops.reduction_ops import cumprod, cumsum, reduce_all, reduce_max, reduce_sum
from runtime._src.ops.scatter_ops import boolean_mask
from runtime._src.ops.meshgrid_ops import sequence_mask
from runtime._src.ops.shape_ops import reverse
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
        if self.ragged_rank == 0:              # TF's spec of a row of a 2-D RaggedTensor
            return [TensorSpec(self.shape, self.dtype)]
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
        dims = self.shape.dims
        for level, splits in reversed(list(enumerate(components[1:]))):
            uniform = None if dims is None else dims[level + 1]
            values = RaggedTensor(values, splits, internal=True, uniform_row_length=uniform)
        return values

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    def __repr__(self):
        return (f"RaggedTensorSpec({self.shape!r}, tf.{self.dtype.name}, {self.ragged_rank}, "
                f"tf.{self.row_splits_dtype.name})")


def _tensor(value, dtype=None):
    if reads_as_tensor(value) and not isinstance(value, Tensor):
        value = value._as_tensor()
    return convert_to_tensor(value, dtype)


class RaggedTensor:
    """See the module docstring. Build with the `from_*` class methods or
    `tf.ragged.constant`."""

    __array_priority__ = 200

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor: use RaggedTensor.from_row_splits (or another "
                             "from_* factory) or tf.ragged.constant to build one")
        self._values = values
        self._row_splits = row_splits
        self._uniform = uniform_row_length     # a static row length (shape shows it), or None

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
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """Row i starts at row_starts[i] and ends where row i + 1 starts."""
        starts = math_ops.cast(_tensor(row_starts), dtypes.int64)
        if not isinstance(values, RaggedTensor):
            values = _tensor(values)
        n = reshape(values.nrows() if isinstance(values, RaggedTensor) else
                    shape_of(values, dtypes.int64)[0], [1])
        return cls.from_row_splits(values, concat([starts, n], 0), validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """Row i ends at row_limits[i] and starts where row i - 1 ends."""
        limits = math_ops.cast(_tensor(row_limits), dtypes.int64)
        return cls.from_row_splits(values, concat([convert_to_tensor([0], dtypes.int64),
                                                   limits], 0), validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """One ragged dimension per row_splits vector, outermost first."""
        values = flat_values
        for splits in reversed(list(nested_row_splits)):
            values = cls.from_row_splits(values, splits, validate=validate)
        return values

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        """One ragged dimension per row_lengths vector, outermost first."""
        values = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            values = cls.from_row_lengths(values, lengths, validate=validate)
        return values

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        """One ragged dimension per value_rowids vector, outermost first."""
        ids = list(nested_value_rowids)
        nrows = [None] * len(ids) if nested_nrows is None else list(nested_nrows)
        values = flat_values
        for rowids, n in reversed(list(zip(ids, nrows))):
            values = cls.from_value_rowids(values, rowids, n, validate=validate)
        return values

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of `uniform_row_length` values each (kept as row splits here)."""
        length = int(_static(uniform_row_length))
        total = _nvals(values)
        if total is None:
            raise ValueError("from_uniform_row_length: the number of values must be known")
        n = (total // length if length else 0) if nrows is None else int(_static(nrows))
        out = cls.from_row_splits(values, np.arange(n + 1, dtype=np.int64) * length,
                                  validate=validate)
        out._uniform = length
        return out

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a 2-D SparseTensor whose values are left-aligned in each row."""
        if st_input.indices.shape.rank is not None and st_input.dense_shape.shape.dims[0] != 2:
            raise ValueError("RaggedTensor.from_sparse: the SparseTensor must have rank 2")
        nrows = st_input.dense_shape[0]
        rowids = st_input.indices[:, 0]
        return cls.from_value_rowids(st_input.values, rowids, nrows, validate=False)

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
        return TensorShape([None if n is None else n - 1, self._uniform] + rest)

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

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def nested_row_lengths(self, name=None):
        return tuple(s[1:] - s[:-1] for s in self.nested_row_splits)

    def nested_value_rowids(self, name=None):
        out, v = [], self
        while isinstance(v, RaggedTensor):
            out.append(v.value_rowids())
            v = v._values
        return tuple(out)

    def bounding_shape(self, axis=None, name=None, out_type=dtypes.int64):
        """The smallest dense shape that holds this tensor (int64 vector)."""
        dims, v = [self.nrows(out_type)], self
        while isinstance(v, RaggedTensor):
            lengths = v.row_lengths()
            dims.append(math_ops.cast(math_ops.maximum(
                reduce_max(lengths), convert_to_tensor(0, dtypes.int64)), out_type))
            v = v._values
        inner = shape_of(v, out_type)[1:]
        shape = concat([reshape(d, [1]) for d in dims] + [inner], 0)
        return shape if axis is None else shape[axis]

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions outer_axis..inner_axis merged into one."""
        rank = self.shape.rank
        outer = outer_axis + rank if outer_axis < 0 else outer_axis
        inner = inner_axis + rank if inner_axis < 0 else inner_axis
        if not 0 <= outer <= inner < rank:
            raise ValueError(f"merge_dims: expected 0 <= outer_axis <= inner_axis < {rank}, got "
                             f"{outer_axis}, {inner_axis}")
        if outer == inner:
            return self
        if outer == 0:
            return _merge_outer(self, inner)
        if outer == 1:
            return RaggedTensor(_merge_outer(self._values, inner - 1),
                                _map_splits(self._values, self._row_splits, inner - 1),
                                internal=True)
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.merge_dims(outer - 1, inner - 1))
        return self.with_values(_dense_merge(self._values, outer - 1, inner - 1))

    def nrows(self, out_type=dtypes.int64, name=None):
        return math_ops.cast(shape_of(self._row_splits, out_type)[0] - 1, out_type)

    def value_rowids(self, name=None):
        """The row of each value (int64)."""
        return apply("RaggedValueRowIds", [self._row_splits])

    def with_values(self, new_values):
        if not isinstance(new_values, RaggedTensor):
            new_values = _tensor(new_values)
        return RaggedTensor(new_values, self._row_splits, internal=True,
                            uniform_row_length=self._uniform)

    def with_row_splits_dtype(self, dtype):
        """This tensor; row splits are int64 here (docs/tf_differences.md)."""
        if dtypes.as_dtype(dtype) != dtypes.int64:
            raise ValueError(f"with_row_splits_dtype: row splits are always int64 in this "
                             f"runtime, got {dtypes.as_dtype(dtype).name}")
        return self

    @property
    def uniform_row_length(self):
        """The length of every row when it is fixed (from_uniform_row_length,
        expand_dims), as an int64 scalar; else None."""
        return None if self._uniform is None else convert_to_tensor(self._uniform,
                                                                    dtypes.int64)

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

    def to_sparse(self, name=None):
        """A SparseTensor with a value at each of this tensor's positions."""
        from runtime._src.ops.array_ops import range as range_, stack
        from runtime._src.ops.manipulation_ops import gather
        flat, cols = self.flat_values, []
        index = range_(shape_of(flat, dtypes.int64)[0], dtype=dtypes.int64)
        for splits in reversed(self.nested_row_splits):
            rows = gather(apply("RaggedValueRowIds", [splits]), index)
            cols.insert(0, index - gather(splits, rows))
            index = rows
        cols.insert(0, index)
        if flat.shape.rank and flat.shape.rank > 1:
            raise ValueError("RaggedTensor.to_sparse: only flat values of rank 1 are "
                             "supported")
        spec = registered_spec("SparseTensorSpec")(TensorShape([None] * self.shape.rank),
                                                   self.dtype)
        return spec._from_components([stack(cols, axis=1), flat, self.bounding_shape()])

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
        """Rows as numpy arrays: one array when the rows have one length, else
        a 1-D object array of rows (as TensorFlow)."""
        if current_graph() is not None:
            raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + np.shape(values)[1:], dtype=self.dtype.np_dtype)
        variable = any(len(r) != len(rows[0]) for r in rows)
        return np.array(rows, dtype=object if variable else None)

    def __repr__(self):
        if isinstance(self.flat_values, EagerTensor):
            with np.printoptions(formatter={"all": _element_text}):
                return f"<tf.RaggedTensor {_element_text(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

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
        """Rows (`rt[1]`, `rt[1:3]`, `rt[::2]`) and inner dimensions (`rt[:, 1:]`,
        `rt[1, 2]`, `rt[:, :, 0]`), as TensorFlow."""
        key = key if isinstance(key, tuple) else (key,)
        if not key:
            return self
        if any(k is Ellipsis or k is None for k in key):
            raise ValueError("RaggedTensor: indexing with Ellipsis or tf.newaxis is not "
                             "supported")
        first, rest = key[0], key[1:]
        if isinstance(first, slice):
            rows = self._slice_rows(first)
            return rows._index_inner(rest) if rest else rows
        row = self._row(first)
        if not rest:
            return row
        return row[rest] if isinstance(row, RaggedTensor) else row.__getitem__(
            rest if len(rest) > 1 else rest[0])

    def _row(self, i):
        i = _static(i) if not isinstance(i, Tensor) or isinstance(i, EagerTensor) else i
        if isinstance(i, (int, np.integer)) and i < 0:
            i = i - 1                    # row -1 starts at splits[-2]
            return _slice_values(self._values, self._row_splits[i], self._row_splits[i + 1])
        return _slice_values(self._values, self._row_splits[i], self._row_splits[i + 1])

    def _index_inner(self, rest):
        """rest applied inside every row (rows sliced already)."""
        k, more = rest[0], rest[1:]
        values = self._values
        if isinstance(k, slice):
            if k == slice(None):
                inner = values
                if more:
                    inner = (values._index_inner(more) if isinstance(values, RaggedTensor)
                             else values.__getitem__((slice(None),) + more))
                return self.with_values(inner)
            return _slice_each_row(self, k, more)
        if isinstance(values, RaggedTensor) or not isinstance(k, (int, np.integer)):
            raise ValueError("Cannot index into an inner ragged dimension.")
        raise ValueError("Cannot index into an inner ragged dimension.")

    def _slice_rows(self, key):
        """Rows key.start:key.stop: splits has one entry more than rows, so a
        non-negative stop b keeps splits[:b + 1], a negative one splits[:b]."""
        if key.step not in (None, 1):
            from runtime._src.ops.array_ops import range as range_
            from runtime._src.ops.manipulation_ops import gather
            return _gather_rows(self, range_(self.nrows())[key])
        a, b = key.start or 0, key.stop
        a = a if a >= 0 else a - 1
        b = None if b is None else (b + 1 if b >= 0 else b)
        splits = self._row_splits[a:b]
        values = _slice_values(self._values, splits[0], splits[-1])
        return RaggedTensor(values, splits - splits[0], internal=True)

    # --- TensorFlow's dispatch: unary ops (ragged_dispatch registers the rest) ----------

    def _map_values_op(self, op_name, fn):
        """A unary elementwise op (or cast) on the flat values, rows kept."""
        return self.with_flat_values(fn(self.flat_values))

    # --- elementwise operators: the math ops, which dispatch on RaggedTensors ------------

    def __add__(self, o): return math_ops.add(self, o)
    def __radd__(self, o): return math_ops.add(o, self)
    def __sub__(self, o): return math_ops.subtract(self, o)
    def __rsub__(self, o): return math_ops.subtract(o, self)
    def __mul__(self, o): return math_ops.multiply(self, o)
    def __rmul__(self, o): return math_ops.multiply(o, self)
    def __truediv__(self, o): return math_ops.truediv(self, o)
    def __rtruediv__(self, o): return math_ops.truediv(o, self)
    def __floordiv__(self, o): return math_ops.floordiv(self, o)
    def __rfloordiv__(self, o): return math_ops.floordiv(o, self)
    def __mod__(self, o): return math_ops.floormod(self, o)
    def __rmod__(self, o): return math_ops.floormod(o, self)
    def __pow__(self, o): return math_ops.pow(self, o)
    def __rpow__(self, o): return math_ops.pow(o, self)
    def __lt__(self, o): return math_ops.less(self, o)
    def __le__(self, o): return math_ops.less_equal(self, o)
    def __gt__(self, o): return math_ops.greater(self, o)
    def __ge__(self, o): return math_ops.greater_equal(self, o)
    def __eq__(self, o): return math_ops.equal(self, o)
    def __ne__(self, o): return math_ops.not_equal(self, o)
    def __and__(self, o): return math_ops.logical_and(self, o)
    def __rand__(self, o): return math_ops.logical_and(o, self)
    def __or__(self, o): return math_ops.logical_or(self, o)
    def __ror__(self, o): return math_ops.logical_or(o, self)
    def __xor__(self, o): return _logical_xor(self, o)
    def __invert__(self): return self.with_flat_values(math_ops.logical_not(self.flat_values))
    def __neg__(self): return self.with_flat_values(math_ops.negative(self.flat_values))
    def __abs__(self): return self.with_flat_values(math_ops.abs(self.flat_values))

    __hash__ = object.__hash__


def _ragged_range(starts, limits, deltas=1):
    """(row splits, values) of the rows range(starts[i], limits[i], deltas[i])."""
    return apply("RaggedRange", [starts, limits, deltas])


def _slice_each_row(rt, key, more):
    """rt[:, key, *more]: python slicing of every row (step 1)."""
    from runtime._src.ops.manipulation_ops import gather
    if key.step not in (None, 1):
        raise ValueError("RaggedTensor: slicing a ragged dimension with a step is not "
                         "supported")
    starts, lengths = rt.row_starts(), rt.row_lengths()
    zero = convert_to_tensor(0, dtypes.int64)

    def bound(b, default):
        if b is None:
            return default
        b = convert_to_tensor(b, dtypes.int64) if not isinstance(b, Tensor) else \
            math_ops.cast(b, dtypes.int64)
        if isinstance(b, EagerTensor) and b.numpy() >= 0:
            return math_ops.minimum(b, lengths)
        return math_ops.where(b < 0, math_ops.maximum(lengths + b, zero),
                                 math_ops.minimum(b, lengths))
    lo, hi = bound(key.start, zero * lengths), bound(key.stop, lengths)
    hi = math_ops.maximum(hi, lo)
    splits, index = _ragged_range(starts + lo, starts + hi, convert_to_tensor(1, dtypes.int64))
    values = _gather_values(rt._values, index)
    out = RaggedTensor(values, splits, internal=True)
    return out._index_inner(more) if more else out


def _gather_values(values, index):
    from runtime._src.ops.manipulation_ops import gather
    if isinstance(values, RaggedTensor):
        return _gather_rows(values, index)
    return gather(values, index)


def _gather_rows(rt, index):
    """The rows of rt at a 1-D int index, as a RaggedTensor."""
    from runtime._src.ops.manipulation_ops import gather
    index = math_ops.cast(_tensor(index), dtypes.int64)
    splits, positions = _ragged_range(gather(rt.row_starts(), index),
                                      gather(rt.row_limits(), index),
                                      convert_to_tensor(1, dtypes.int64))
    return RaggedTensor(_gather_values(rt._values, positions), splits, internal=True)


def _element_text(x):
    """numpy's text of x with comma separators (an empty array as its list)."""
    if isinstance(x, np.ndarray):
        if x.size:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


def _static(value):
    if isinstance(value, EagerTensor):
        return value.numpy()
    if isinstance(value, Tensor):
        raise ValueError("expected a value known when the function is traced, got a tensor")
    return value


def _merge_outer(x, k):
    """Dimensions 0..k of x (ragged or dense) merged into one."""
    if k == 0:
        return x
    if isinstance(x, RaggedTensor):
        return _merge_outer(x._values, k - 1)
    return _dense_merge(x, 0, k)


def _dense_merge(x, outer, inner):
    shape = shape_of(x, dtypes.int64)
    return reshape(x, concat([shape[:outer], convert_to_tensor([-1], dtypes.int64),
                              shape[inner + 1:]], 0))


def _map_splits(x, splits, k):
    """Row boundaries into x's dimension 0, as boundaries into x's dims 0..k merged."""
    from runtime._src.ops.manipulation_ops import gather
    from runtime._src.ops.reduction_ops import reduce_prod
    if k == 0:
        return splits
    if isinstance(x, RaggedTensor):
        return _map_splits(x._values, gather(x._row_splits, splits), k - 1)
    return splits * reduce_prod(shape_of(x, dtypes.int64)[1:k + 1])


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
    """The entry of `dense` at each flat value's position (0 where `dense`, a
    to_tensor(shape=...) result, cropped that position away)."""
    _, coords = _dense_positions([np.asarray(s) for s in splits])
    inside = np.ones(len(coords[0]), bool)
    for c, d in zip(coords, dense.shape):
        inside &= c < d
    out = np.zeros((len(inside),) + dense.shape[len(coords):], dense.dtype)
    out[inside] = dense[tuple(c[inside] for c in coords)]
    return out


@define_grad("RaggedToDense")
def _ragged_to_dense_grad(op, grad):
    splits = list(op.inputs[2:])
    return [apply("RaggedGatherFlat", [grad] + splits), None] + [None] * len(splits)


@define_op("RaggedValueRowIds", infer=lambda inputs, attrs: [(dtypes.int64, TensorShape([None]))])
def _value_rowids(splits):
    return np.repeat(np.arange(len(splits) - 1, dtype=np.int64), np.diff(splits))


def _infer_range(inputs, attrs):
    return [(dtypes.int64, TensorShape([None])), (inputs[0].dtype, TensorShape([None]))]


@define_op("RaggedRange", infer=_infer_range, num_outputs=2)
def _ragged_range_op(starts, limits, deltas):
    starts, limits, deltas = np.broadcast_arrays(starts, limits, deltas)
    starts, limits, deltas = (np.atleast_1d(a) for a in (starts, limits, deltas))
    if np.any(deltas == 0):
        raise InvalidArgumentError("Requires delta != 0", "RaggedRange")
    lengths = np.maximum(np.ceil((limits - starts) / deltas), 0).astype(np.int64)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    owner = np.repeat(np.arange(len(lengths)), lengths)
    step = np.arange(splits[-1]) - np.repeat(splits[:-1], lengths)
    values = (starts[owner] + step * deltas[owner]).astype(starts.dtype)
    return splits, values


not_differentiable("RaggedGatherFlat", "RaggedValueRowIds", "RaggedRange")


def _logical_xor(x, y):
    from runtime._src.ops.bitwise_ops import logical_xor
    return logical_xor(x, y)
