"""`tf.IndexedSlices` and its spec, `tf.IndexedSlicesSpec`: the rows `values`
at `indices` of a tensor of shape `dense_shape`, a composite value.

    s = tf.IndexedSlices(values, indices, dense_shape)
    s._type_spec             # IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int32, tf.int32, TensorShape([2]))
    tf.convert_to_tensor(s)  # the dense tensor: rows of one index summed

Its components are values, indices and (when there is one) dense_shape, so a
`tf.function` takes and returns it, `nest` expands it, and a SavedModel keeps
its spec. Ops read it as its dense tensor, which needs `dense_shape`.
"""

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec, register_spec
from runtime._src.core.tensor import TensorSpec, convert_to_tensor
from runtime._src.core.tensor_conversion import register_tensor_conversion_function
from runtime._src.core.tensor_shape import TensorShape, as_shape
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.math_ops import negative
from runtime._src.ops.segment_ops import unsorted_segment_sum

__all__ = ["IndexedSlices", "IndexedSlicesSpec"]


class IndexedSlices:
    """`tf.IndexedSlices(values, indices, dense_shape=None)`."""

    def __init__(self, values, indices, dense_shape=None):
        self.values, self.indices, self.dense_shape = values, indices, dense_shape

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def device(self):
        return self.values.device

    @property
    def shape(self):
        """The dense shape as far as it is known (unknown without `dense_shape`)."""
        if self.dense_shape is None:
            return TensorShape(None)
        return _shape_value(self.dense_shape)

    @property
    def _type_spec(self):
        values_shape = as_shape(self.values.shape)
        dense = TensorShape([None] + list(values_shape.dims[1:])) \
            if values_shape.dims is not None else TensorShape(None)
        dense_shape_dtype = None
        if self.dense_shape is not None:
            dense_shape_dtype = self.dense_shape.dtype
            dense = _merge(dense, _shape_value(self.dense_shape))
        indices_shape = as_shape(self.indices.shape)
        if values_shape.dims:
            indices_shape = _merge(indices_shape, TensorShape(values_shape.dims[:1]))
        return IndexedSlicesSpec(dense, self.dtype, self.indices.dtype, dense_shape_dtype,
                                 indices_shape)

    def __neg__(self):
        return IndexedSlices(negative(self.values), self.indices, self.dense_shape)

    def __repr__(self):
        text = f"IndexedSlices(indices={str(self.indices)}, values={str(self.values)}"
        if self.dense_shape is not None:
            text += f", dense_shape={str(self.dense_shape)}"
        return text + ")"

    __str__ = __repr__


def _shape_value(dense_shape):
    """The static shape a dense_shape tensor names: its known value, or a
    shape of its length with every dimension unknown."""
    t = convert_to_tensor(dense_shape)
    value = rules.constant_value(t)
    if value is not None:
        return TensorShape([int(d) for d in value])
    rank = t.shape.dims[0] if t.shape.dims else None
    return TensorShape(None if rank is None else [None] * rank)


def _merge(a, b):
    """The shape both `a` and `b` describe (each dimension known in either);
    `a` when they disagree."""
    if a.dims is None:
        return b
    if b.dims is None or len(a.dims) != len(b.dims):
        return a
    return TensorShape([x if x is not None else y for x, y in zip(a.dims, b.dims)])


@register_spec
class IndexedSlicesSpec(CompositeSpec):
    """`tf.IndexedSlicesSpec(shape, dtype, indices_dtype, dense_shape_dtype,
    indices_shape)`: the spec of an IndexedSlices."""

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype",
                 "_indices_shape")
    value_type = IndexedSlices

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = as_shape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None \
            else dtypes.as_dtype(dense_shape_dtype)
        indices_shape = as_shape(indices_shape)
        self._indices_shape = TensorShape([None]) if indices_shape.dims is None \
            else indices_shape

    def _serialize(self):
        return (self._shape, self._values_dtype, self._indices_dtype,
                self._dense_shape_dtype, self._indices_shape)

    @property
    def _component_specs(self):
        rows = self._indices_shape.dims[:1]
        values_shape = TensorShape(None) if self._shape.dims is None \
            else TensorShape(list(rows) + list(self._shape.dims[1:]))
        specs = (TensorSpec(values_shape, self._values_dtype),
                 TensorSpec(self._indices_shape, self._indices_dtype))
        if self._dense_shape_dtype is None:
            return specs
        rank = None if self._shape.dims is None else len(self._shape.dims)
        return specs + (TensorSpec([rank], self._dense_shape_dtype),)

    def _to_components(self, value):
        parts = [value.values, value.indices]
        return parts if value.dense_shape is None else parts + [value.dense_shape]

    def _from_components(self, components):
        return IndexedSlices(*components)

    def __repr__(self):
        return (f"IndexedSlicesSpec({self._shape!r}, {self._values_dtype!r}, "
                f"{self._indices_dtype!r}, {self._dense_shape_dtype!r}, "
                f"{self._indices_shape!r})")


def _to_dense(value, dtype=None, name=None, as_ref=False):
    """The dense tensor of an IndexedSlices (rows of one index summed)."""
    if value.dense_shape is None:
        raise ValueError(f"Tensor conversion requested for IndexedSlices for argument "
                         f"`value` without dense_shape: {value!r}")
    if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
        raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} "
                         f"for IndexedSlices with dtype {value.dtype.name}")
    dense_shape = convert_to_tensor(value.dense_shape)
    return unsorted_segment_sum(value.values, value.indices, dense_shape[0])


register_tensor_conversion_function(IndexedSlices, _to_dense)
