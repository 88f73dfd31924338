"""The TensorArray ops (`TensorArrayV3`, `...WriteV3`, `...ReadV3`, stack,
concat, unstack, gather, scatter, split, size) over a `_Storage` value: the
run-time value of a TensorArray's flow tensor, of the internal `variant`
dtype. `tf.TensorArray`, the object users hold, is in
runtime/_src/function/tensor_array.py; the ops' gradients in
tensor_array_grad_ops.py.

The storage is a Python list of numpy arrays (`None` where nothing was
written); `write` stores in place and returns the same storage as a new flow,
so data dependencies order the ops. An element never written reads (and
stacks, gathers, concatenates) as zeros of the element shape (the static one,
or that of the elements written; `InvalidArgumentError` when neither is fully
known); an index out of range raises `InvalidArgumentError`; all elements
must have one shape, as TensorFlow 2's TensorArray.
"""

import numpy as np

from runtime._src.core import dtypes as _dtypes
from runtime._src.core.tensor import VariantValue
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import define_op


class _Storage(VariantValue):
    """The run-time value of a TensorArray flow: the elements written so far."""

    __slots__ = ("items", "dynamic_size", "element_shape")

    def __init__(self, size, dynamic_size, element_shape):
        self.items = [None] * size
        self.dynamic_size = dynamic_size
        self.element_shape = element_shape  # tuple (dims may be None) or None

    def __repr__(self):
        written = sum(v is not None for v in self.items)
        return f"<TensorArray storage: size={len(self.items)}, written={written}>"


# --- helpers shared by the kernels ----------------------------------------------

def _index(storage, index, what):
    i = int(index)
    if i < 0 or i >= len(storage.items):
        raise ValueError(f"TensorArray.{what}: index {i} is out of range for a "
                         f"TensorArray of size {len(storage.items)}")
    return i


def _check_element_shape(storage, shape, what):
    known = storage.element_shape
    if known is not None:
        if len(known) != len(shape) or any(k is not None and d is not None and k != d
                                           for k, d in zip(known, shape)):
            raise ValueError(f"TensorArray.{what}: value of shape {shape} does not match "
                             f"the element shape {_dims_text(known)} of the elements "
                             "already written; all elements must have one shape")
        if None in shape:                  # split into pieces of several lengths
            shape = tuple(k if d is None else d for k, d in zip(known, shape))
    storage.element_shape = tuple(shape)


def _dims_text(dims):
    return str(TensorShape(dims))


def _grow(storage, size, what):
    if size <= len(storage.items):
        return
    if not storage.dynamic_size:
        raise ValueError(f"TensorArray.{what}: index {size - 1} is out of range for a "
                         f"TensorArray of size {len(storage.items)}; create it with "
                         "dynamic_size=True to let it grow")
    storage.items.extend([None] * (size - len(storage.items)))


def _unwritten(storage, dtype, what):
    """The value of an element never written: zeros of the element shape,
    as in TensorFlow (its shape: the static element shape, or the shape of
    the elements written; an error when neither is fully known)."""
    dims = storage.element_shape
    if dims is None or None in dims:
        raise ValueError(f"TensorArray.{what}: tried to {what} uninitialized elements, and "
                         f"the element shape {_dims_text(dims)} is not fully defined (no "
                         "element was written and no element_shape given)")
    if dtype == _dtypes.string:
        return np.full(dims, b"", dtype=object)
    return np.zeros(dims, dtype.np_dtype)


def _elements(storage, dtype, what):
    """All elements, the ones never written as zeros (see _unwritten)."""
    items = storage.items
    if any(v is None for v in items):
        zeros = _unwritten(storage, dtype, what)
        items = [zeros if v is None else v for v in items]
    return items


# --- ops ----------------------------------------------------------------------

def _infer_flow(inputs, attrs):
    return [(_dtypes.variant, TensorShape([]))]


def _infer_element(inputs, attrs):
    return [(attrs["dtype"], attrs["element_shape"])]


def _infer_stacked(inputs, attrs):
    shape = attrs["element_shape"]
    dims = None if shape.dims is None else (None,) + shape.dims
    return [(attrs["dtype"], TensorShape(dims))]


def _infer_concat(inputs, attrs):
    shape = attrs["element_shape"]
    dims = None if shape.dims is None or not shape.dims else (None,) + shape.dims[1:]
    return [(attrs["dtype"], TensorShape(dims))]


def _infer_size(inputs, attrs):
    return [(_dtypes.int32, TensorShape([]))]


@define_op("TensorArrayV3", infer=_infer_flow, stateful=True)
def _create(size, *, dtype, dynamic_size, element_shape):
    dims = element_shape.dims
    return _Storage(int(size), dynamic_size, None if dims is None else tuple(dims))


@define_op("TensorArrayWriteV3", infer=_infer_flow, stateful=True)
def _write(storage, index, value):
    i = int(index)
    if i < 0:
        raise ValueError(f"TensorArray.write: index {i} is negative")
    _grow(storage, i + 1, "write")
    shape = np.shape(value)
    if shape != storage.element_shape:     # the same shape as before needs no check
        _check_element_shape(storage, shape, "write")
    storage.items[i] = value
    return storage


@define_op("TensorArrayReadV3", infer=_infer_element, stateful=True)
def _read(storage, index, *, dtype, element_shape):
    i = _index(storage, index, "read")
    value = storage.items[i]
    return _unwritten(storage, dtype, "read") if value is None else value


@define_op("TensorArrayStackV3", infer=_infer_stacked, stateful=True)
def _stack(storage, *, dtype, element_shape):
    items = _elements(storage, dtype, "stack")
    if items:
        return np.stack(items)
    dims = storage.element_shape
    if dims is None:                       # nothing written: the static element shape
        dims = element_shape.dims
    if dims is None or None in dims:
        dims = ()
    return np.zeros((0,) + tuple(dims), dtype.np_dtype)


@define_op("TensorArrayConcatV3", infer=_infer_concat, stateful=True)
def _concat(storage, *, dtype, element_shape):
    items = _elements(storage, dtype, "concat")
    if not items:
        return np.zeros((0,), dtype.np_dtype)
    if np.ndim(items[0]) == 0:
        raise ValueError("TensorArray.concat: elements are scalars; use stack() instead")
    return np.concatenate(items)


@define_op("TensorArrayUnstackV3", infer=_infer_flow, stateful=True)
def _unstack(storage, value):
    if np.ndim(value) == 0:
        raise ValueError("TensorArray.unstack: value must have at least one dimension, "
                         "got a scalar")
    n = len(value)
    _grow(storage, n, "unstack")
    _check_element_shape(storage, np.shape(value)[1:], "unstack")
    for i in range(n):
        storage.items[i] = value[i]
    return storage


@define_op("TensorArrayGatherV3", infer=_infer_stacked, stateful=True)
def _gather(storage, indices, *, dtype, element_shape):
    items = [_read(storage, i, dtype=dtype, element_shape=element_shape)
             for i in np.reshape(indices, -1)]
    if items:
        return np.stack(items)
    dims = storage.element_shape or element_shape.dims or ()
    return np.zeros((0,) + tuple(0 if d is None else d for d in dims), dtype.np_dtype)


@define_op("TensorArrayScatterV3", infer=_infer_flow, stateful=True)
def _scatter(storage, indices, value):
    indices = np.reshape(indices, -1)
    if np.ndim(value) == 0 or len(value) != len(indices):
        raise ValueError(f"TensorArray.scatter: value must have one row per index "
                         f"({len(indices)}), got shape {np.shape(value)}")
    for k, i in enumerate(indices):
        _write(storage, i, value[k])
    return storage


@define_op("TensorArraySplitV3", infer=_infer_flow, stateful=True)
def _split(storage, value, lengths):
    if np.ndim(value) == 0:
        raise ValueError("TensorArray.split: value must have at least one dimension, "
                         "got a scalar")
    lengths = [int(n) for n in np.reshape(lengths, -1)]
    if any(n < 0 for n in lengths) or sum(lengths) != len(value):
        raise ValueError(f"TensorArray.split: the lengths {lengths} must be non-negative "
                         f"and add up to the value's first dimension {len(value)}")
    _grow(storage, len(lengths), "split")
    rest = tuple(np.shape(value)[1:])
    first = lengths[0] if lengths and len(set(lengths)) == 1 else None
    _check_element_shape(storage, (first,) + rest, "split")
    start = 0
    for i, n in enumerate(lengths):
        storage.items[i] = value[start:start + n]
        start += n
    return storage


@define_op("TensorArraySizeV3", infer=_infer_size, stateful=True)
def _size(storage):
    return np.int32(len(storage.items))
