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

Semantics follow TensorFlow 2's graph mode: reading an index never clears it
(`clear_after_read` is accepted and ignored), reading an unwritten index or
one out of range raises `InvalidArgumentError`, and all elements must have
one shape.
"""

import numpy as np

from runtime._src.core import dtypes as _dtypes
from runtime._src.graph.graph import current_graph, kernel_error, leaked_tensor_error
from runtime._src.graph.op_registry import apply, define_grad, define_op, get_op, not_differentiable
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape, as_shape

__all__ = ["TensorArray"]


class _Storage:
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
        if len(known) != len(shape) or any(k is not None and k != d
                                           for k, d in zip(known, shape)):
            raise ValueError(f"TensorArray.{what}: value of shape {shape} does not match "
                             f"the element shape {_dims_text(known)} of the elements "
                             "already written; all elements must have one shape")
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


def _written(storage, what):
    for i, v in enumerate(storage.items):
        if v is None:
            raise ValueError(f"TensorArray.{what}: element {i} of {len(storage.items)} "
                             "was never written")
    return storage.items


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
    _check_element_shape(storage, np.shape(value), "write")
    storage.items[i] = value
    return storage


@define_op("TensorArrayReadV3", infer=_infer_element, stateful=True)
def _read(storage, index, *, dtype, element_shape):
    i = _index(storage, index, "read")
    value = storage.items[i]
    if value is None:
        raise ValueError(f"TensorArray.read: element {i} was never written "
                         f"(the TensorArray has size {len(storage.items)})")
    return value


@define_op("TensorArrayStackV3", infer=_infer_stacked, stateful=True)
def _stack(storage, *, dtype, element_shape):
    items = _written(storage, "stack")
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
    items = _written(storage, "concat")
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


@define_op("TensorArraySizeV3", infer=_infer_size, stateful=True)
def _size(storage):
    return np.int32(len(storage.items))


# --- gradients ---------------------------------------------------------------------
#
# The gradient of a flow is a flow too: a `_Gradients` dict from index to the
# gradient of that element (missing: zero). Stack, unstack, read and write
# move gradients between flows and element tensors; the backward pass adds
# two flow gradients with `TensorArrayGradAdd` (see runtime/_src/autodiff).

class _Gradients(dict):
    """The run-time value of a TensorArray flow's gradient: index -> gradient."""


def _infer_grad_element(inputs, attrs):
    value = inputs[-1]
    return [(value.dtype, value.shape)]


@define_op("TensorArrayGradEmpty", infer=_infer_flow, stateful=True)
def _grad_empty():
    return _Gradients()


@define_op("TensorArrayGradAdd", infer=_infer_flow)
def _grad_add(*flows):
    out = _Gradients(flows[0])
    for f in flows[1:]:
        for i, g in f.items():
            out[i] = g if i not in out else out[i] + g
    return out


@define_op("TensorArrayGradRead", infer=_infer_grad_element)
def _grad_read(grads, index, like):
    """The gradient at `index`, or zeros shaped like the element `like`."""
    g = grads.get(int(index))
    return np.zeros_like(like) if g is None else g


@define_op("TensorArrayGradSet", infer=_infer_flow)
def _grad_set(index, grad):
    return _Gradients({int(index): grad})


@define_op("TensorArrayGradFromStack", infer=_infer_flow)
def _grad_from_stack(grad):
    return _Gradients(enumerate(grad))


@define_op("TensorArrayGradFromConcat", infer=_infer_flow)
def _grad_from_concat(grad, storage):
    """The gradient of concat split back into the elements, each as long as
    the element written (`storage`: the concatenated array)."""
    out, start = _Gradients(), 0
    for i, value in enumerate(storage.items):
        if start >= len(grad):
            break
        length = len(value)
        out[i] = grad[start:start + length]
        start += length
    return out


@define_op("TensorArrayGradConcat", infer=_infer_grad_element)
def _grad_concat(grads, storage, like):
    """The gradients of the elements concatenated as concat concatenated them
    (`like`: the concatenated value), zeros where none: TensorArrayGradFromConcat's
    adjoint."""
    out = np.zeros_like(like)
    start = 0
    for i, value in enumerate(storage.items):
        if start >= len(like):
            break
        if i in grads:
            out[start:start + len(value)] = grads[i]
        start += len(value)
    return out


@define_op("TensorArrayGradStack", infer=_infer_grad_element)
def _grad_stack(grads, like):
    """The gradients of all elements stacked, zeros where none (`like`: the stacked value)."""
    return np.stack([grads[i] if i in grads else np.zeros_like(like[i])
                     for i in range(len(like))]) if len(like) else np.zeros_like(like)


@define_grad("TensorArrayStackV3")
def _stack_grad(op, grad):
    return [apply("TensorArrayGradFromStack", [grad], {})]


@define_grad("TensorArrayConcatV3")
def _concat_grad(op, grad):
    return [apply("TensorArrayGradFromConcat", [grad, op.inputs[0]], {})]


@define_grad("TensorArrayReadV3")
def _read_grad(op, grad):
    return [apply("TensorArrayGradSet", [op.inputs[1], grad], {}), None]


@define_grad("TensorArrayWriteV3")
def _write_grad(op, grad):
    flow, index, value = op.inputs
    return [grad, None, apply("TensorArrayGradRead", [grad, index, value], {})]


@define_grad("TensorArrayUnstackV3")
def _unstack_grad(op, grad):
    return [grad, apply("TensorArrayGradStack", [grad, op.inputs[1]], {})]


not_differentiable("TensorArrayV3", "TensorArraySizeV3")


# The gradient ops are linear in their gradients, so gradients of gradients
# (nested tapes) move between flows and elements the same way, reversed.

@define_grad("TensorArrayGradSet")
def _grad_set_grad(op, grad):
    index, value = op.inputs
    return [None, apply("TensorArrayGradRead", [grad, index, value], {})]


@define_grad("TensorArrayGradRead")
def _grad_read_grad(op, grad):
    return [apply("TensorArrayGradSet", [op.inputs[1], grad], {}), None, None]


@define_grad("TensorArrayGradFromStack")
def _grad_from_stack_grad(op, grad):
    return [apply("TensorArrayGradStack", [grad, op.inputs[0]], {})]


@define_grad("TensorArrayGradStack")
def _grad_stack_grad(op, grad):
    return [apply("TensorArrayGradFromStack", [grad], {}), None]


@define_grad("TensorArrayGradFromConcat")
def _grad_from_concat_grad(op, grad):
    concatenated, flow = op.inputs
    return [apply("TensorArrayGradConcat", [grad, flow, concatenated], {}), None]


@define_grad("TensorArrayGradConcat")
def _grad_concat_grad(op, grad):
    return [apply("TensorArrayGradFromConcat", [grad, op.inputs[1]], {}), None, None]


@define_grad("TensorArrayGradAdd")
def _grad_add_grad(op, grad):
    return [grad] * len(op.inputs)


not_differentiable("TensorArrayGradEmpty")


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
    except Exception as e:  # noqa: BLE001 - re-raised naming the op
        raise kernel_error(op_name, inputs, e) from e
    if dtype is not _dtypes.variant:
        out = np.asarray(out, dtype.np_dtype)
    return EagerTensor(out, dtype)


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


def _integer_tensor(value, what):
    if isinstance(value, Tensor):
        if not value.dtype.is_integer:
            raise TypeError(f"TensorArray: {what} must be an integer, got a "
                            f"{value.dtype.name} tensor")
        if value.shape.rank not in (0, None):
            raise ValueError(f"TensorArray: {what} must be a scalar, got shape {value.shape}")
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"TensorArray: {what} must be an integer, got {value!r}")
    return convert_to_tensor(int(value), _dtypes.int32)
