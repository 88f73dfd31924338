"""Sliced assignment and scatter updates of a `Variable`:

    v[0].assign(x)          # row 0 of v becomes x (broadcast to the slice)
    v[1:3, 1].assign(x)
    v.scatter_nd_update([[0, 0]], [1.0]); v.scatter_nd_add(...); v.scatter_nd_sub(...)
    v.scatter_add(tf.IndexedSlices(values, indices)); v.scatter_update(...)

`Variable` takes these from `SliceAssignMixin`. `v[key]` is the value of
the slice, a tensor with an `assign` method (eagerly `SlicedEagerTensor`,
while tracing `SlicedSymbolicTensor`, subclasses of the usual tensors). The
slice's positions are computed while tracing from the variable's static
shape and a static key; the write is a `tensor_scatter_nd_update` of the
whole value, assigned back (so it is an ordinary, ordered variable write).
"""

import numpy as np

from runtime._src.core.context import current_graph, state as _state
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import EagerTensor, SymbolicTensor, Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.function.indexed_slices import IndexedSlices
from runtime._src.graph.op_registry import get_op, record_eager
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import reshape
from runtime._src.ops.math_ops import identity
from runtime._src.ops.scatter_ops import (tensor_scatter_nd_add, tensor_scatter_nd_sub,
                                          tensor_scatter_nd_update)
from runtime._src.ops.shape_ops import broadcast_to

__all__ = ["SliceAssignMixin", "IndexedSlices"]


def _static_key(key):
    """`key` with tensors replaced by their values known while tracing."""
    if isinstance(key, tuple):
        return tuple(_static_key(k) for k in key)
    if isinstance(key, slice):
        return slice(_static_key(key.start), _static_key(key.stop), _static_key(key.step))
    if isinstance(key, Tensor) or reads_as_tensor(key):
        t = key._as_tensor() if reads_as_tensor(key) else key
        value = rules.constant_value(t)
        if value is None:
            raise TypeError("Variable slice assignment: the index must be known while "
                            f"tracing (a Python int or slice), got {t!r}")
        return value.item() if np.ndim(value) == 0 else value
    return key


def assign_slice(variable, key, value):
    """Write `value` into `variable[key]`; returns the variable's new value."""
    shape = variable.shape
    if not shape.is_fully_defined():
        raise ValueError(f"Variable slice assignment needs a variable of known shape, "
                         f"{variable.name!r} has shape {shape}")
    positions = np.arange(int(np.prod(shape.dims)), dtype=np.int64).reshape(shape.dims)
    try:
        picked = np.asarray(positions[_static_key(key)])
    except IndexError as e:
        raise ValueError(f"Variable slice assignment: index {key!r} is out of range for "
                         f"shape {shape}: {e}") from None
    value = convert_to_tensor(value._as_tensor() if reads_as_tensor(value) else value,
                              variable.dtype)
    if not value.shape.is_compatible_with(picked.shape):
        try:
            np.broadcast_shapes(tuple(value.shape.dims), picked.shape)
        except (ValueError, TypeError):
            error = ValueError if current_graph() is not None else InvalidArgumentError
            raise error(f"Cannot broadcast input shape {list(value.shape.dims)} into final "
                        f"shape {list(picked.shape)}") from None
    updates = reshape(broadcast_to(value, list(picked.shape)), [-1])
    flat = reshape(variable._as_tensor(), [-1])
    new = tensor_scatter_nd_update(flat, picked.reshape(-1, 1), updates)
    return variable.assign(reshape(new, list(shape.dims)))


class SlicedEagerTensor(EagerTensor):
    """The value of `variable[key]` (eager), with `assign`."""

    __slots__ = ("_variable", "_key")

    def assign(self, value, use_locking=False, name=None, read_value=True):
        out = assign_slice(self._variable, self._key, value)
        return out if read_value else None


class SlicedSymbolicTensor(SymbolicTensor):
    """The value of `variable[key]` (while tracing), with `assign`."""

    __slots__ = ("_variable", "_key")

    def assign(self, value, use_locking=False, name=None, read_value=True):
        out = assign_slice(self._variable, self._key, value)
        return out if read_value else None


def sliced(variable, key):
    """`variable[key]`: the slice's value, assignable."""
    t = variable._as_tensor()[key]
    if isinstance(t, EagerTensor):
        out = SlicedEagerTensor(t._value, t.dtype)
        out._variable, out._key = variable, key
        if getattr(_state, "tapes", None):     # gradients flow through v[key] (an Identity)
            record_eager(get_op("Identity"), [t], {}, [out])
        return out
    t = identity(t)            # a node of its own, whose output nobody else holds yet
    out = SlicedSymbolicTensor(t.node, t.index, t.dtype, t.shape)
    out._variable, out._key = variable, key
    if t.node.outputs[t.index] is t:      # it stands for the node's output from now on
        outs = list(t.node.outputs)
        outs[t.index] = out
        t.node.outputs = tuple(outs)
    return out


def _scatter(variable, op, indices, updates):
    indices = convert_to_tensor(indices)
    updates = convert_to_tensor(updates, variable.dtype)
    return variable.assign(op(variable._as_tensor(), indices, updates))


def _rows(sparse_delta):
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"sparse_delta must be a tf.IndexedSlices, got "
                        f"{type(sparse_delta).__name__}")
    indices = convert_to_tensor(sparse_delta.indices)
    return reshape(indices, [-1, 1]), sparse_delta.values


class SliceAssignMixin:
    """Variable methods: `v[key]` (assignable), and the scatter updates."""

    __slots__ = ()

    def __getitem__(self, key):
        return sliced(self, key)

    def scatter_nd_update(self, indices, updates, name=None):
        return _scatter(self, tensor_scatter_nd_update, indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return _scatter(self, tensor_scatter_nd_add, indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return _scatter(self, tensor_scatter_nd_sub, indices, updates)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return _scatter(self, tensor_scatter_nd_update, *_rows(sparse_delta))

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return _scatter(self, tensor_scatter_nd_add, *_rows(sparse_delta))

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return _scatter(self, tensor_scatter_nd_sub, *_rows(sparse_delta))
