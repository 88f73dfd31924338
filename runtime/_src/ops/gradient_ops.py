"""Ops and helpers that gradient rules share: `stop_gradient`, and the two
internal ops that undo and redo broadcasting.

    SumLike(grad, x)            grad summed down to x's shape: over the
                                leading dims x lacks and where x has a 1
    BroadcastLike(grad, x, axes) grad, with length-1 dims inserted at `axes`
                                (a reduction's reduced axes), broadcast to
                                x's shape

Both take `x` only for its shape, so they work when shapes are known only at
run time; with static shapes, `unbroadcast` adds no node at all when nothing
was broadcast. The rules next to each op definition (`define_grad`) use them:

    @define_grad("AddV2")
    def _add_grad(op, grad):
        x, y = op.inputs
        return [unbroadcast(grad, x), unbroadcast(grad, y)]
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op

__all__ = ["stop_gradient", "unbroadcast", "broadcast_like", "reshape_like", "reduced_axes",
           "is_differentiable", "zeros_scalar", "broadcast_scalar"]


def is_differentiable(dtype):
    """True for the dtypes gradients flow through (floats)."""
    return dtype.is_floating


# --- StopGradient ---------------------------------------------------------------

def _same_as_first(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


@define_op("StopGradient", infer=_same_as_first)
def _stop_gradient(x):
    return x


@define_grad("StopGradient")
def _stop_gradient_grad(op, grad):
    return [None]


def stop_gradient(input, name=None):  # TensorFlow's argument name
    """`input` unchanged, but gradients do not flow back through it."""
    mapped = getattr(input, "_map_values_op", None)     # a SparseTensor: its values
    if mapped is not None:
        out = mapped("StopGradient", stop_gradient)
        if out is not NotImplemented:
            return out
    return apply("StopGradient", (convert_to_tensor(input),))


# --- SumLike / BroadcastLike -------------------------------------------------------

def _like_second(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("SumLike", infer=_like_second)
def _sum_like(grad, x):
    shape = np.shape(x)
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and grad.shape[lead + i] != 1)
    return np.sum(grad, axis=axes, dtype=grad.dtype).reshape(shape)


@define_op("BroadcastLike", infer=_like_second)
def _broadcast_like(grad, x, axes):
    if axes:
        rank = np.ndim(x)
        grad = np.expand_dims(grad, tuple(sorted(a % rank for a in axes)))
    return np.broadcast_to(grad, np.shape(x))


@define_grad("SumLike")
def _sum_like_grad(op, grad):
    return [broadcast_like(grad, op.inputs[0]), None]


@define_grad("BroadcastLike")
def _broadcast_like_grad(op, grad):
    g, _ = op.inputs
    axes = op.attrs["axes"]
    if axes:
        return [apply("Sum", (grad,), {"axis": tuple(axes), "keepdims": False}), None]
    return [unbroadcast(grad, g), None]


def unbroadcast(grad, x):
    """`grad` (of a broadcast result) summed down to `x`'s shape."""
    if grad is None:
        return None
    gs, xs = grad.shape, x.shape
    if gs.dims is not None and gs == xs and xs.is_fully_defined():
        return grad
    if gs.is_fully_defined() and xs.is_fully_defined():
        lead = len(gs.dims) - len(xs.dims)
        axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(xs.dims)
                                          if d == 1 and gs.dims[lead + i] != 1)
        if axes:
            grad = apply("Sum", (grad,), {"axis": axes, "keepdims": False})
        if grad.shape != xs:
            grad = apply("Reshape", (grad, convert_to_tensor(np.array(xs.dims, np.int32))))
        return grad
    return apply("SumLike", (grad, x))


def broadcast_like(grad, x, axes=None):
    """`grad` broadcast to `x`'s shape, after inserting length-1 dims at `axes`
    (a tuple of x's axes that a reduction removed), if given."""
    axes = tuple(axes) if axes else ()
    if not axes and grad.shape == x.shape and x.shape.is_fully_defined():
        return grad
    return apply("BroadcastLike", (grad, x), {"axes": axes})


def reshape_like(grad, x):
    """`grad` reshaped to `x`'s shape (static when known, else read at run time)."""
    if grad.shape == x.shape and x.shape.is_fully_defined():
        return grad
    if x.shape.is_fully_defined():
        shape = convert_to_tensor(np.array(x.shape.dims, np.int32))
    else:
        shape = apply("Shape", (x,), {"out_type": dtypes.int32})
    return apply("Reshape", (grad, shape))


def broadcast_scalar(grad):
    """The scalar that `grad` is a broadcast of (a graph's `BroadcastLike` of a
    scalar, as a mean's gradient is), else None: a rule that multiplies by
    grad can multiply by the scalar instead, without the full-size tensor."""
    node = getattr(grad, "node", None)
    if node is not None and node.op == "BroadcastLike" and not node.attrs["axes"] \
            and node.inputs[0].shape.rank == 0:
        return node.inputs[0]
    return None


def reduced_axes(axis, rank):
    """The axes a reduction with attr `axis` removed, as a tuple (all when None)."""
    if axis is None:
        return tuple(range(rank))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(a % rank for a in axes)


def zeros_scalar(dtype):
    return convert_to_tensor(np.zeros((), dtypes.as_dtype(dtype).np_dtype))
