"""JAX rules of the TensorArray ops and of the loop accumulator (see lower.py).

A TensorArray flow lowers to an `ArrayValue`: its static size and dtype, and
one JAX buffer (size, *element_shape) once its element shape is known (from
the static element_shape, the first write, or an unstack). Each op returns a
new value (XLA updates the buffer in place):

    TensorArrayV3(n)         ->  ArrayValue(n), its buffer zeros when the
                                 element shape is static, else pending
    write(i, v) / read(i)    ->  lax.dynamic_update_index_in_dim / dynamic_index
    unstack(v) / stack()     ->  the buffer is v / the buffer

An `ArrayValue` is a JAX pytree (its buffer is the leaf), so it can be a
`lax.while_loop` carry; lower.py's While rule finds the element shape of a
pending one by tracing the body once (`jax.eval_shape`). The size must be
known when the function is compiled (XLA's static shapes): a TensorArray of
dynamic size is not lowered. As XLA's indexing, reads and writes past the
end are clamped, where the executor raises.

A loop's accumulator (the iterations kept for a tape's gradient of the
While, function/control_flow.py) lowers to `NoAccumulator`, an empty pytree:
a gradient that reads it back (LoopAccumulatorRead) has no rule, so such a
function runs on the executor; a loop whose gradient is its own (the Keras
LSTM's custom gradient) never reads it and compiles.
"""

import numpy as np

from runtime._src.jit import lower
from runtime._src.jit.lower import Unsupported, rule, static_ints


class ArrayValue:
    """A TensorArray flow while lowering: `size` elements of `dtype`, stored
    in `buffer` (None while the element shape is unknown)."""

    jit_opaque = True          # lower.py passes it through as is

    def __init__(self, size, dtype, buffer=None):
        self.size, self.dtype, self.buffer = size, np.dtype(dtype), buffer

    def with_buffer(self, buffer):
        return ArrayValue(self.size, self.dtype, buffer)

    def allocated(self, element_shape):
        """This value, its buffer zeros of `element_shape` if it had none."""
        if self.buffer is not None:
            return self
        return self.with_buffer(lower.jnp.zeros((self.size,) + tuple(element_shape),
                                                self.dtype))

    def elements(self, what, static_shape=None):
        """The buffer, zeros of `static_shape` when nothing was written."""
        if self.buffer is not None:
            return self.buffer
        dims = None if static_shape is None else static_shape.dims
        if dims is None or None in dims:
            raise Unsupported(f"TensorArray.{what} of an array never written whose element "
                              "shape is not fully defined")
        return self.allocated(dims).buffer


class NoAccumulator:
    """A loop accumulator nothing reads (see the module docstring)."""

    jit_opaque = True


def register_pytrees(jax):
    """Make `ArrayValue` and `NoAccumulator` JAX pytrees (once)."""
    from jax import tree_util
    try:
        tree_util.register_pytree_node(
            ArrayValue,
            lambda a: ((() if a.buffer is None else (a.buffer,)), (a.size, a.dtype.str)),
            lambda aux, leaves: ArrayValue(aux[0], aux[1], leaves[0] if leaves else None))
        tree_util.register_pytree_node(NoAccumulator, lambda a: ((), None),
                                       lambda aux, leaves: NoAccumulator())
    except ValueError:     # registered already
        pass


def _element_dims(node):
    dims = node.attrs["element_shape"].dims
    return None if dims is None or None in dims else tuple(dims)


@rule("TensorArrayV3")
def _create(node, ins):
    if node.attrs["dynamic_size"]:
        raise Unsupported("a TensorArray of dynamic size (XLA needs static shapes); give "
                          "it a size known when the function is traced")
    (size,) = static_ints(ins[0], "the size of a TensorArray")
    value = ArrayValue(size, node.attrs["dtype"].np_dtype)
    dims = _element_dims(node)
    return value if dims is None else value.allocated(dims)


def _index(i):
    return lower.jnp.asarray(i).reshape(()).astype(np.int32)


@rule("TensorArrayWriteV3")
def _write(node, ins):
    array, i, value = ins
    value = lower.jnp.asarray(value, array.dtype)
    array = array.allocated(np.shape(value))
    return array.with_buffer(lower.lax.dynamic_update_index_in_dim(
        array.buffer, value, _index(i), 0))


@rule("TensorArrayReadV3")
def _read(node, ins):
    array, i = ins
    buffer = array.elements("read", node.attrs["element_shape"])
    return lower.lax.dynamic_index_in_dim(buffer, _index(i), 0, keepdims=False)


@rule("TensorArrayStackV3")
def _stack(node, ins):
    return ins[0].elements("stack", node.attrs["element_shape"])


@rule("TensorArrayGatherV3")
def _gather(node, ins):
    array, indices = ins
    buffer = array.elements("gather", node.attrs["element_shape"])
    return lower.jnp.take(buffer, lower.jnp.reshape(indices, -1), axis=0)


@rule("TensorArrayUnstackV3")
def _unstack(node, ins):
    array, value = ins
    n = np.shape(value)[0] if np.ndim(value) else 0
    if n != array.size:
        raise Unsupported(f"TensorArray.unstack of {n} elements into an array of size "
                          f"{array.size}")
    return array.with_buffer(lower.jnp.asarray(value, array.dtype))


@rule("TensorArrayScatterV3")
def _scatter(node, ins):
    array, indices, value = ins
    value = lower.jnp.asarray(value, array.dtype)
    array = array.allocated(np.shape(value)[1:])
    return array.with_buffer(array.buffer.at[lower.jnp.reshape(indices, -1)].set(value))


@rule("TensorArraySizeV3")
def _size(node, ins):
    return np.int32(ins[0].size)


@rule("LoopAccumulator")
def _accumulator(node, ins):
    return NoAccumulator()


@rule("LoopAccumulatorPush")
def _accumulator_push(node, ins):
    return ins[0]


OPS = frozenset({"TensorArrayV3", "TensorArrayWriteV3", "TensorArrayReadV3",
                 "TensorArrayStackV3", "TensorArrayGatherV3", "TensorArrayUnstackV3",
                 "TensorArrayScatterV3", "TensorArraySizeV3", "LoopAccumulator",
                 "LoopAccumulatorPush"})
"""The ops this module lowers: their variant values (and those of While, If
and Identity carrying them) are `ArrayValue` / `NoAccumulator`."""


def _allocate_arrays(step, carry):
    """`carry` with the buffers of its TensorArrays whose element shape is
    not known yet allocated, their shapes found by tracing `step` once."""
    values = carry[0]
    pending = [i for i, v in enumerate(values)
               if v.__class__ is ArrayValue and v.buffer is None]
    if not pending:
        return carry
    import jax
    shapes = jax.eval_shape(step, carry)[0]
    values = list(values)
    for i in pending:
        if shapes[i].buffer is not None:
            values[i] = values[i].allocated(shapes[i].buffer.shape[1:])
    return (values,) + carry[1:]


lower.ON_LOAD.append(register_pytrees)
lower.CARRY_PREPARERS.append(_allocate_arrays)
