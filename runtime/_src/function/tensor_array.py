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
numpy arrays, `None` where nothing was written). The ops and their gradients
are in the ops layer (runtime/_src/ops/tensor_array_ops.py and
tensor_array_grad_ops.py). Each op takes a flow and the
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
from runtime._src.graph.op_registry import apply, get_op, record_eager
from runtime._src.core.context import state as _state
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape, as_shape

from runtime._src.ops import tensor_array_grad_ops, tensor_array_ops  # noqa: F401 - its ops

__all__ = ["TensorArray"]


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
