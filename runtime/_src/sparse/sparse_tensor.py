"""`tf.SparseTensor` and `tf.SparseTensorSpec`: a tensor of mostly zeros held
as the coordinates of its other values.

    sp = SparseTensor(indices=[[0, 1], [2, 3]], values=[1.0, 2.0], dense_shape=[3, 4])
    sp.indices        # int64 [nnz, rank]: the coordinates, one row per value
    sp.values         # [nnz]: the values
    sp.dense_shape    # int64 [rank]: the shape of the dense tensor
    sp.shape          # TensorShape([3, 4]): dense_shape when known statically
    sp * 2.0          # values scaled (a dense operand broadcasts to sp's shape)

A SparseTensor is a composite value (runtime/_src/core/composite.py): its
`SparseTensorSpec` (shape, dtype) keys `tf.function` traces, its components
are [indices, values, dense_shape], so it goes into and out of traced
functions and `input_signature`s. The ops on it are in sparse_ops.py.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec, register_spec
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape, as_shape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops.shape_rules import constant_value
from runtime._src.sparse.sparse_cwise import cwise_with_dense

__all__ = ["SparseTensor", "SparseTensorSpec", "is_sparse"]


@register_spec
class SparseTensorSpec(CompositeSpec):
    """`tf.SparseTensorSpec(shape=None, dtype=tf.float32)`: the type of SparseTensors
    of a (partly known) dense shape and a dtype."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def value_type(self):
        return SparseTensor

    def _serialize(self):
        return (self._shape, self._dtype)

    @property
    def _component_specs(self):
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _to_components(self, value):
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components):
        indices, values, dense_shape = components
        out = SparseTensor._make(indices, values, dense_shape)
        if isinstance(dense_shape, EagerTensor):
            return out
        out._shape_default = self._shape          # the spec's static shape, while tracing
        return out

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype)

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, tf.{self._dtype.name})"


def is_sparse(value):
    return isinstance(value, SparseTensor)


def _to_tensor(value, dtype=None):
    if reads_as_tensor(value) and not isinstance(value, Tensor):
        value = value._as_tensor()
    return convert_to_tensor(value, dtype)


def _int64(value, what):
    """`value` as an int64 tensor. A tensor of another dtype is refused with
    TF's ValueError (Python lists convert)."""
    if isinstance(value, Tensor) or reads_as_tensor(value):
        t = _to_tensor(value)
        if t.dtype != dtypes.int64:
            raise ValueError(f"{what}: Tensor conversion requested dtype int64 for Tensor with "
                             f"dtype {t.dtype.name}: {t!r}")
        return t
    try:
        return _to_tensor(value, dtypes.int64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"SparseTensor: {what} must be integers: {e}") from None


def _require_rank(shape, rank, what):
    if shape.rank is not None and shape.rank != rank:
        raise ValueError(f"Shape {shape} must have rank {rank} (SparseTensor {what})")


def _same_dim(a, b, what):
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions {a} and {b} are not compatible ({what})")


class SparseTensor:
    """`tf.SparseTensor(indices, values, dense_shape)`: see the module docstring."""

    __array_priority__ = 200
    _shape_default = None        # a spec's static shape (set when rebuilt from components)

    def __init__(self, indices, values, dense_shape):
        indices = _int64(indices, "indices")
        values = _to_tensor(values)
        dense_shape = _int64(dense_shape, "dense_shape")
        _require_rank(indices.shape, 2, "indices")
        _require_rank(values.shape, 1, "values")
        _require_rank(dense_shape.shape, 1, "dense_shape")
        _same_dim(_dim(indices, 0), _dim(values, 0), "indices rows and values")
        _same_dim(_dim(indices, 1), _dim(dense_shape, 0), "indices columns and dense_shape")
        self._indices, self._values, self._dense_shape = indices, values, dense_shape

    @classmethod
    def _make(cls, indices, values, dense_shape):
        """A SparseTensor of component tensors already checked (ops' results)."""
        out = cls.__new__(cls)
        out._indices, out._values, out._dense_shape = indices, values, dense_shape
        return out

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A SparseTensor of a SparseTensor (itself) or of anything with
        indices, values and dense_shape."""
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        v = sparse_tensor_value
        return cls(v.indices, v.values, v.dense_shape)

    # --- structure ----------------------------------------------------------------------

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        """The dense shape as far as it is known without running the graph."""
        known = constant_value(self._dense_shape)
        if known is not None:
            return TensorShape([int(d) for d in np.asarray(known).reshape(-1)])
        if self._shape_default is not None:
            return self._shape_default
        rank = _dim(self._dense_shape, 0)
        if rank is None:
            rank = _dim(self._indices, 1)
        return TensorShape(None if rank is None else [None] * rank)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """Refine the static shape (TF's SparseTensor.set_shape)."""
        shape = as_shape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Dimensions of {self.shape} and {shape} are not compatible")
        self._shape_default = self.shape.merge_with(shape)

    @property
    def _type_spec(self):
        return SparseTensorSpec(self.shape, self.dtype)

    def with_values(self, new_values):
        """The same indices and dense_shape with `new_values` (of any dtype)."""
        new_values = _to_tensor(new_values)
        _require_rank(new_values.shape, 1, "values")
        _same_dim(_dim(self._indices, 0), _dim(new_values, 0), "indices rows and values")
        out = SparseTensor._make(self._indices, new_values, self._dense_shape)
        out._shape_default = self._shape_default
        return out

    @property
    def op(self):
        """The op that made `indices` (while tracing; eagerly an AttributeError, as TF)."""
        return self._indices.op

    @property
    def graph(self):
        """The graph the components belong to (while tracing)."""
        return self._indices.graph

    def consumers(self):
        """The ops that use this value's tensors: none are tracked here (TF
        lists graph consumers; eagerly it is [])."""
        return []

    # --- printing -----------------------------------------------------------------------

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __str__ = __repr__

    # --- TensorFlow's dispatch of elementwise ops -------------------------------------------

    def _map_values_op(self, op_name, fn):
        """`fn(values)` as a SparseTensor for the ops TF dispatches on sparse
        values (unary ops with f(0) == 0, cast, identity); NotImplemented else."""
        if op_name not in _DISPATCHED_UNARY:
            return NotImplemented
        return self.with_values(fn(self._values))

    def __mul__(self, other):
        return cwise_with_dense(self, other, "Mul")

    def __truediv__(self, other):
        return cwise_with_dense(self, other, "Div")

    __div__ = __truediv__


# The ops TF 2.21 runs on a SparseTensor's values (tf.abs(sp) is a SparseTensor;
# tf.cos(sp) raises, since cos(0) != 0).
_DISPATCHED_UNARY = frozenset((
    "Abs", "ComplexAbs", "Asin", "Asinh", "Atan", "Atanh", "BesselI0e", "BesselI1e", "Erf",
    "Neg", "Sign", "Sin", "Sqrt", "Square", "Tan", "Tanh", "Cast", "Identity",
    "StopGradient"))


def _dim(t, i):
    dims = t.shape.dims
    return None if dims is None or len(dims) <= i else dims[i]
