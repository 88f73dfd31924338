"""`TensorArray`: a growable list of same-dtype tensors that works eagerly,
in graphs, and as a `while_loop` loop variable.

    ta = TensorArray(int32, size=0, dynamic_size=True)
    ta = ta.write(0, 10)          # write returns the TensorArray to use next
    ta = ta.write(1, 20)
    ta.stack()                    # -> [10 20]
    ta.read(1)                    # -> 20

Representation: a `TensorArray` is a small Python object holding a "flow"
tensor of the internal `variant` dtype plus static facts (dtype, element
shape). The flow's run-time value is a `_Storage` object (a Python list of
numpy arrays, `None` where nothing was written). Each op takes a flow and the
ops that change the array return a new flow, so data dependencies order them;
`write` stores in place (no copy per write), so always use the TensorArray
that `write` returns, as TensorFlow asks. The creation op is stateful: every
run of a graph starts from a fresh, empty array.

Semantics follow TensorFlow 2's: reading an index never clears it
(`clear_after_read` is accepted and ignored), an element never written reads
(and stacks, gathers, concatenates) as zeros of the element shape (the
static one, or that of the elements written; `InvalidArgumentError` when
neither is fully known), reading an index out of range raises
`InvalidArgumentError`, and all elements must have one shape.
"""

import numpy as np

from runtime._src.core import dtypes as _dtypes
from runtime._src.graph.graph import current_graph, kernel_error, leaked_tensor_error
from runtime._src.graph.op_registry import (apply, define_grad, define_op, get_op,
                                            not_differentiable, record_eager)
from runtime._src.core.context import state as _state
from runtime._src.core.tensor import EagerTensor, Tensor, VariantValue, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape, as_shape

__all__ = ["TensorArray", "gradient_map"]


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


# --- gradients ---------------------------------------------------------------------
#
# The gradient of a flow is a flow too: a `_Gradients` map from index to the
# gradient of that element (missing: zero). Each op that reads elements gives
# its flow a map of their gradients; each op that writes elements takes the
# gradients of the elements it wrote out of the map (an overwritten element
# gets none) and passes the rest on. The backward pass adds two flow
# gradients with `TensorArrayGradAdd` (see runtime/_src/autodiff).

_MISSING = object()


class _GradData:
    """The storage behind the versions of one gradient map: the newest map and,
    per index, the values it had before each in-place change."""

    __slots__ = ("current", "history", "version")

    def __init__(self, items):
        self.current = dict(items)
        self.history = {}        # index -> [(version changed at, value before | _MISSING)]
        self.version = 0


class _Gradients(VariantValue):
    """The run-time value of a TensorArray flow's gradient: index -> gradient.

    Immutable to its users, but cheap to change: `changed` updates the
    storage in place when this is its newest version and logs the old values,
    so older versions still read what they held (a loop of n writes or reads
    takes O(n) in all, not O(n^2) copies)."""

    __slots__ = ("_data", "_version")

    def __init__(self, items=()):
        self._data = _GradData(items)
        self._version = 0

    def get(self, index, default=None):
        data = self._data
        if self._version != data.version:
            for version, old in data.history.get(index, ()):
                if version >= self._version:
                    return default if old is _MISSING else old
        return data.current.get(index, default)

    def items(self):
        data = self._data
        if self._version == data.version:
            return list(data.current.items())
        keys = set(data.current) | set(data.history)
        found = ((i, self.get(i, _MISSING)) for i in sorted(keys))
        return [(i, g) for i, g in found if g is not _MISSING]

    def changed(self, updates):
        """A map like this one with `updates` (index -> gradient, or _MISSING to
        remove it) applied."""
        data = self._data
        if self._version != data.version:          # an older version: copy it
            fresh = _Gradients(self.items())
            return fresh.changed(updates)
        current, history = data.current, data.history
        for index, value in updates:
            old = current.get(index, _MISSING)
            if old is _MISSING and value is _MISSING:
                continue
            history.setdefault(index, []).append((data.version, old))
            if value is _MISSING:
                del current[index]
            else:
                current[index] = value
        data.version += 1
        out = _Gradients.__new__(_Gradients)
        out._data, out._version = data, data.version
        return out

    def __repr__(self):
        return f"<TensorArray gradients at {sorted(i for i, _ in self.items())}>"


def gradient_map(items):
    """A gradient map (the gradient of a variant flow) holding `items`: index -> gradient;
    the loop accumulators' gradients use it too (runtime/_src/autodiff)."""
    return _Gradients(items)


def _infer_grad_element(inputs, attrs):
    value = inputs[-1]
    return [(value.dtype, value.shape)]


def _indices(indices):
    if np.ndim(indices) == 0:
        return [int(indices)]
    return [int(i) for i in np.reshape(indices, -1)]


@define_op("TensorArrayGradEmpty", infer=_infer_flow, stateful=True)
def _grad_empty():
    return _Gradients()


@define_op("TensorArrayGradAdd", infer=_infer_flow)
def _grad_add(*flows):
    first = max(flows, key=lambda f: len(f._data.current))   # the others are added into it
    out = first
    for f in flows:
        if f is not first:
            updates = []
            for i, g in f.items():
                old = out.get(i)
                updates.append((i, g if old is None else old + g))
            out = out.changed(updates)
    return out


@define_op("TensorArrayGradRead", infer=_infer_grad_element)
def _grad_read(grads, index, like):
    """The gradient at `index`, or zeros shaped like the element `like`."""
    g = grads.get(int(index))
    return np.zeros_like(like) if g is None else g


@define_op("TensorArrayGradSet", infer=_infer_flow)
def _grad_set(index, grad):
    return _Gradients({int(index): grad})


@define_op("TensorArrayGradDrop", infer=_infer_flow)
def _grad_drop(grads, indices):
    """The map without `indices` (a scalar, a vector, or all rows of `like`
    when `indices` is a count)."""
    return grads.changed([(i, _MISSING) for i in _indices(indices)])


@define_op("TensorArrayGradDropFirst", infer=_infer_flow)
def _grad_drop_first(grads, like):
    """The map without indices 0 .. len(like) - 1 (the rows unstack or split wrote)."""
    return grads.changed([(i, _MISSING) for i in range(len(like))])


@define_op("TensorArrayGradFromStack", infer=_infer_flow)
def _grad_from_stack(grad):
    return _Gradients(enumerate(grad))


@define_op("TensorArrayGradScatter", infer=_infer_flow)
def _grad_scatter(indices, grad, *, last_only=False):
    """The gradient of a gather: row k of `grad` to index indices[k] (summed;
    with `last_only`, only the last row for each index counts)."""
    indices = _indices(indices)
    last = {i: k for k, i in enumerate(indices)}
    out = {}
    for k, i in enumerate(indices):
        if not last_only or last[i] == k:
            out[i] = grad[k] if i not in out else out[i] + grad[k]
    return _Gradients(out)


@define_op("TensorArrayGradStack", infer=_infer_grad_element)
def _grad_stack(grads, like):
    """The gradients of all elements stacked, zeros where none (`like`: the stacked value)."""
    return np.stack([_grad_or_zeros(grads, i, like[i]) for i in range(len(like))]) \
        if len(like) else np.zeros_like(like)


@define_op("TensorArrayGradGather", infer=_infer_grad_element)
def _grad_gather(grads, indices, like, *, last_only=True):
    """The gradient of a scatter's value: the gradients at `indices` stacked; with
    `last_only`, a row whose index the scatter wrote again later gets zeros (it
    was overwritten)."""
    indices = _indices(indices)
    last = {i: k for k, i in enumerate(indices)}
    return np.stack([_grad_or_zeros(grads, i, like[k]) if not last_only or last[i] == k
                     else np.zeros_like(like[k])
                     for k, i in enumerate(indices)]) if indices else np.zeros_like(like)


def _lengths(lengths):
    """The elements' first dimensions: given, or those of a TensorArray's storage."""
    if isinstance(lengths, _Storage):
        return [len(item) for item in lengths.items]
    return _indices(lengths)


@define_op("TensorArrayGradConcat", infer=_infer_grad_element)
def _grad_concat(grads, lengths, like):
    """The gradient of a split's value: the element gradients concatenated
    (`lengths`: the pieces' lengths, or the storage holding the pieces)."""
    parts, start = [], 0
    for i, n in enumerate(_lengths(lengths)):
        parts.append(_grad_or_zeros(grads, i, like[start:start + n]))
        start += n
    return np.concatenate(parts) if parts else np.zeros_like(like)


@define_op("TensorArrayGradSplit", infer=_infer_flow)
def _grad_split(grad, lengths):
    """The gradient of a concat: `grad` cut into the elements' lengths (given,
    or those of the storage)."""
    out, start = {}, 0
    for i, n in enumerate(_lengths(lengths)):
        out[i] = grad[start:start + n]
        start += n
    return _Gradients(out)


def _grad_or_zeros(grads, index, like):
    g = grads.get(index)
    return np.zeros_like(like) if g is None else g


@define_grad("TensorArrayStackV3")
def _stack_grad(op, grad):
    return [apply("TensorArrayGradFromStack", [grad], {})]


@define_grad("TensorArrayGatherV3")
def _gather_grad(op, grad):
    return [apply("TensorArrayGradScatter", [op.inputs[1], grad], {}), None]


@define_grad("TensorArrayConcatV3")
def _concat_grad(op, grad):
    return [apply("TensorArrayGradSplit", [grad, op.inputs[0]], {})]


@define_grad("TensorArrayReadV3")
def _read_grad(op, grad):
    return [apply("TensorArrayGradSet", [op.inputs[1], grad], {}), None]


@define_grad("TensorArrayWriteV3")
def _write_grad(op, grad):
    flow, index, value = op.inputs
    return [apply("TensorArrayGradDrop", [grad, index], {}), None,
            apply("TensorArrayGradRead", [grad, index, value], {})]


@define_grad("TensorArrayScatterV3")
def _scatter_grad(op, grad):
    flow, indices, value = op.inputs
    return [apply("TensorArrayGradDrop", [grad, indices], {}), None,
            apply("TensorArrayGradGather", [grad, indices, value], {})]


@define_grad("TensorArrayUnstackV3")
def _unstack_grad(op, grad):
    value = op.inputs[1]
    return [apply("TensorArrayGradDropFirst", [grad, value], {}),
            apply("TensorArrayGradStack", [grad, value], {})]


@define_grad("TensorArraySplitV3")
def _split_grad(op, grad):
    flow, value, lengths = op.inputs
    return [apply("TensorArrayGradDropFirst", [grad, lengths], {}),
            apply("TensorArrayGradConcat", [grad, lengths, value], {}), None]


not_differentiable("TensorArrayV3", "TensorArraySizeV3", "TensorArrayGradEmpty")


# The gradient ops are linear; their gradients (for gradients of gradients)
# are their adjoints: Read <-> Set, Stack <-> FromStack, Gather <-> Scatter,
# Concat <-> Split, and Add and Drop pass a map on.

@define_grad("TensorArrayGradAdd")
def _grad_add_grad(op, grad):
    return [grad] * len(op.inputs)


@define_grad("TensorArrayGradRead")
def _grad_read_grad(op, grad):
    return [apply("TensorArrayGradSet", [op.inputs[1], grad], {}), None, None]


@define_grad("TensorArrayGradSet")
def _grad_set_grad(op, grad):
    index, value = op.inputs
    return [None, apply("TensorArrayGradRead", [grad, index, value], {})]


@define_grad("TensorArrayGradDrop")
def _grad_drop_grad(op, grad):
    return [apply("TensorArrayGradDrop", [grad, op.inputs[1]], {}), None]


@define_grad("TensorArrayGradDropFirst")
def _grad_drop_first_grad(op, grad):
    return [apply("TensorArrayGradDropFirst", [grad, op.inputs[1]], {}), None]


@define_grad("TensorArrayGradFromStack")
def _grad_from_stack_grad(op, grad):
    return [apply("TensorArrayGradStack", [grad, op.inputs[0]], {})]


@define_grad("TensorArrayGradStack")
def _grad_stack_grad(op, grad):
    return [apply("TensorArrayGradFromStack", [grad], {}), None]


@define_grad("TensorArrayGradScatter")
def _grad_scatter_grad(op, grad):
    indices, value = op.inputs
    return [None, apply("TensorArrayGradGather", [grad, indices, value],
                        {"last_only": op.attrs.get("last_only", False)})]


@define_grad("TensorArrayGradGather")
def _grad_gather_grad(op, grad):
    return [apply("TensorArrayGradScatter", [op.inputs[1], grad],
                  {"last_only": op.attrs.get("last_only", True)}), None, None]


@define_grad("TensorArrayGradSplit")
def _grad_split_grad(op, grad):
    value, lengths = op.inputs
    return [apply("TensorArrayGradConcat", [grad, lengths, value], {}), None]


@define_grad("TensorArrayGradConcat")
def _grad_concat_grad(op, grad):
    return [apply("TensorArrayGradSplit", [grad, op.inputs[1]], {}), None, None]


def _call(op_name, inputs, attrs):
    """Stage the op while tracing; eagerly, run its kernel keeping its dtype."""
    if current_graph() is not None:
        return apply(op_name, inputs, attrs)
    for t in inputs:
        if not isinstance(t, EagerTensor):
            raise leaked_tensor_error(t, f"TensorArray ({op_name})")
    opdef = get_op(op_name)
    ((dtype, _),) = opdef.infer(inputs, attrs)
    try:
        out = opdef.kernel(*[t._value for t in inputs], **attrs)
    except Exception as e:  # re-raised naming the op
        raise kernel_error(op_name, inputs, e) from e
    if dtype is not _dtypes.variant:
        out = np.asarray(out, dtype.np_dtype)
    out = EagerTensor(out, dtype)
    if _state.tapes:                 # an eager GradientTape records it (runtime/_src/autodiff)
        record_eager(opdef, inputs, attrs, (out,))
    return out


# --- the user-facing object -------------------------------------------------------

class TensorArray:
    """`tf.TensorArray`: see the module docstring.

    `write` and `unstack` return the TensorArray to use from then on.
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dtype = _dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._element_shape = as_shape(element_shape)
        if flow is not None:
            self._flow = flow
            return
        if size is None:
            if not self._dynamic_size:
                raise ValueError("TensorArray: size must be given unless dynamic_size=True")
            size = 0
        size = _integer_tensor(size, "size")
        self._flow = _call("TensorArrayV3", [size], {
            "dtype": self._dtype, "dynamic_size": self._dynamic_size,
            "element_shape": self._element_shape})

    # --- static facts --------------------------------------------------------

    @property
    def dtype(self):
        return self._dtype

    @property
    def flow(self):
        """The variant tensor that carries this array through graphs and loops."""
        return self._flow

    handle = flow

    @property
    def element_shape(self):
        return self._element_shape

    @property
    def dynamic_size(self):
        return self._dynamic_size

    def _with_flow(self, flow, element_shape=None):
        """A TensorArray like this one whose value is `flow`."""
        shape = self._element_shape if element_shape is None else element_shape
        return type(self)(self._dtype, dynamic_size=self._dynamic_size,
                          element_shape=shape, flow=flow)

    def _attrs(self):
        return {"dtype": self._dtype, "element_shape": self._element_shape}

    # --- ops -------------------------------------------------------------------

    def write(self, index, value, name=None):
        """Store `value` at `index`; returns the TensorArray to use next."""
        value = self._convert(value, "write")
        shape = self._merged_shape(value.shape, "write")
        index = _integer_tensor(index, "index")
        flow = _call("TensorArrayWriteV3", [self._flow, index, value], {})
        return self._with_flow(flow, shape)

    def read(self, index, name=None):
        """The element at `index` (InvalidArgumentError if never written)."""
        index = _integer_tensor(index, "index")
        return _call("TensorArrayReadV3", [self._flow, index], self._attrs())

    def stack(self, name=None):
        """All elements stacked along a new first axis."""
        return _call("TensorArrayStackV3", [self._flow], self._attrs())

    def concat(self, name=None):
        """All elements concatenated along their first axis."""
        return _call("TensorArrayConcatV3", [self._flow], self._attrs())

    def gather(self, indices, name=None):
        """The elements at `indices` stacked along a new first axis."""
        indices = _integer_tensor(indices, "indices", rank=1)
        return _call("TensorArrayGatherV3", [self._flow, indices], self._attrs())

    def scatter(self, indices, value, name=None):
        """Write `value[k]` at `indices[k]` for each k; returns the TensorArray."""
        indices = _integer_tensor(indices, "indices", rank=1)
        value = self._convert(value, "scatter")
        if value.shape.rank == 0:
            raise ValueError("TensorArray.scatter: value must have at least one "
                             "dimension, got a scalar")
        shape = self._merged_shape(value.shape[1:], "scatter")
        flow = _call("TensorArrayScatterV3", [self._flow, indices, value], {})
        return self._with_flow(flow, shape)

    def split(self, value, lengths, name=None):
        """Write `value`'s first-axis pieces of `lengths` rows, piece i at
        index i; returns the TensorArray."""
        value = self._convert(value, "split")
        if value.shape.rank == 0:
            raise ValueError("TensorArray.split: value must have at least one "
                             "dimension, got a scalar")
        lengths = _integer_tensor(lengths, "lengths", rank=1)
        rest = value.shape[1:]
        shape = self._merged_shape(TensorShape(None if rest.dims is None else (None,) + rest.dims),
                                   "split")
        flow = _call("TensorArraySplitV3", [self._flow, value, lengths], {})
        return self._with_flow(flow, shape)

    def unstack(self, value, name=None):
        """Write `value[i]` at index i for each row; returns the TensorArray."""
        value = self._convert(value, "unstack")
        if value.shape.rank == 0:
            raise ValueError("TensorArray.unstack: value must have at least one "
                             "dimension, got a scalar")
        shape = self._merged_shape(value.shape[1:], "unstack")
        flow = _call("TensorArrayUnstackV3", [self._flow, value], {})
        return self._with_flow(flow, shape)

    def size(self, name=None):
        """The number of elements, as an int32 scalar tensor."""
        return _call("TensorArraySizeV3", [self._flow], {})

    def identity(self):
        return self

    def mark_used(self):
        pass

    def close(self, name=None):
        pass

    def _convert(self, value, what):
        if isinstance(value, Tensor):
            if value.dtype != self._dtype:
                raise TypeError(f"TensorArray.{what}: value has dtype {value.dtype.name} "
                                f"but the TensorArray holds {self._dtype.name}; use tf.cast")
            return value
        try:
            return convert_to_tensor(value, self._dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f"TensorArray.{what}: cannot convert {value!r} to "
                            f"{self._dtype.name}: {e}") from None

    def _merged_shape(self, shape, what):
        if not self._element_shape.is_compatible_with(shape):
            raise ValueError(f"TensorArray.{what}: value of shape {shape} does not match "
                             f"the element shape {self._element_shape}; all elements "
                             "must have one shape")
        return self._element_shape.merge_with(shape)

    def __repr__(self):
        return (f"<TensorArray dtype={self._dtype.name} "
                f"element_shape={self._element_shape} flow={self._flow!r}>")


def _integer_tensor(value, what, rank=0):
    """`value` as an int tensor of `rank` 0 (an index, a size) or 1 (indices, lengths)."""
    kind = "an integer" if rank == 0 else "a vector of integers"
    if not isinstance(value, Tensor):
        if rank == 0 and (isinstance(value, (bool, np.bool_))
                          or not isinstance(value, (int, np.integer))):
            raise TypeError(f"TensorArray: {what} must be an integer, got {value!r}")
        try:
            value = convert_to_tensor(value if rank else int(value), None if rank else _dtypes.int32)
        except (TypeError, ValueError):
            raise TypeError(f"TensorArray: {what} must be {kind}, got {value!r}") from None
        if rank and not value.dtype.is_integer and value.shape.dims == (0,):
            value = convert_to_tensor(np.zeros(0, np.int32))     # [] is no indices
    if not value.dtype.is_integer:
        raise TypeError(f"TensorArray: {what} must be {kind}, got a {value.dtype.name} tensor")
    if value.shape.rank not in (rank, None):
        expected = "a scalar" if rank == 0 else "a vector"
        raise ValueError(f"TensorArray: {what} must be {expected}, got shape {value.shape}")
    return value
