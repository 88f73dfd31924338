"""`reverse_sequence`, `unravel_index`, `shape_n` and `parallel_stack`.

    reverse_sequence(x, [1, 3, 4], seq_axis=1, batch_axis=0)
        # row b has its first seq_lengths[b] entries along seq_axis reversed
    unravel_index([1, 5, 4], [3, 2])     # [[0, 2, 2], [1, 1, 0]]: the coordinates
    shape_n([a, b])                      # [shape(a), shape(b)]
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import shape
from runtime._src.ops.manipulation_ops import stack

__all__ = ["reverse_sequence", "unravel_index", "shape_n", "parallel_stack"]


# --- reverse_sequence --------------------------------------------------------------

def _infer_reverse_sequence(inputs, attrs):
    x, lengths = inputs
    if lengths.shape.rank not in (None, 1):
        raise ValueError(f"ReverseSequence: seq_lengths must be 1-D, got shape {lengths.shape}")
    rank = x.shape.rank
    for what in ("seq_axis", "batch_axis"):
        if rank is not None and not 0 <= attrs[what] < rank:
            raise ValueError(f"ReverseSequence: {what} {attrs[what]} is out of range for an "
                             f"input of rank {rank}")
    return [(x.dtype, x.shape)]


@define_op("ReverseSequence", infer=_infer_reverse_sequence)
def _reverse_sequence(x, lengths, *, seq_axis, batch_axis):
    n, limit = x.shape[batch_axis], x.shape[seq_axis]
    if lengths.shape != (n,):
        raise InvalidArgumentError(f"Length of seq_lengths != input.dims({batch_axis}), "
                                   f"({lengths.shape[0]} vs. {n})", "ReverseSequence")
    for b, length in enumerate(lengths):
        if not 0 <= length <= limit:
            raise InvalidArgumentError(f"seq_lens({b}) > input.dims({seq_axis})"
                                       if length > limit else f"seq_lens({b}) < 0",
                                       "ReverseSequence")
    positions = np.arange(limit)[None, :]
    ends = lengths.astype(np.int64)[:, None]
    source = np.where(positions < ends, ends - 1 - positions, positions)   # [batch, seq]
    shape_ = [1] * x.ndim
    shape_[batch_axis], shape_[seq_axis] = n, limit
    if batch_axis > seq_axis:
        source = source.T
    index = np.broadcast_to(source.reshape(shape_), x.shape)
    return np.take_along_axis(x, index, axis=seq_axis)


@define_grad("ReverseSequence")
def _reverse_sequence_grad(op, grad):
    lengths = op.inputs[1]
    return [apply("ReverseSequence", [grad, lengths], dict(op.attrs)), None]


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,
                     name=None):  # TensorFlow's names
    """`tf.reverse_sequence`: reverse the first `seq_lengths[b]` entries of each
    batch entry b along `seq_axis`; the rest stay in place."""
    if seq_axis is None:
        raise TypeError("Expected int for argument 'seq_dim' not None.")
    x = convert_to_tensor(unwrap_variable(input))
    lengths = convert_to_tensor(seq_lengths)
    if lengths.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"reverse_sequence: seq_lengths must be int32 or int64, got "
                        f"{lengths.dtype.name}")
    rank = x.shape.rank
    seq_axis, batch_axis = int(seq_axis), int(batch_axis or 0)
    if rank is not None:
        seq_axis, batch_axis = seq_axis % rank, batch_axis % rank
    return apply("ReverseSequence", [x, lengths],
                 {"seq_axis": seq_axis, "batch_axis": batch_axis})


# --- unravel_index -------------------------------------------------------------------

def _infer_unravel(inputs, attrs):
    indices, dims = inputs
    if indices.dtype is not dims.dtype:
        raise TypeError(f"unravel_index: indices and dims must have the same dtype, got "
                        f"{indices.dtype.name} and {dims.dtype.name}")
    n = dims.shape.dims[0] if dims.shape.rank == 1 else None
    if indices.shape.rank == 0:
        return [(indices.dtype, TensorShape([n]))]
    count = indices.shape.dims[0] if indices.shape.rank == 1 else None
    return [(indices.dtype, TensorShape([n, count]))]


@define_op("UnravelIndex", infer=_infer_unravel)
def _unravel_index(indices, dims):
    if (dims <= 0).any():
        raise InvalidArgumentError("Input dims must be > 0", "UnravelIndex")
    if ((indices < 0) | (indices >= np.prod(dims, dtype=np.int64))).any():
        raise InvalidArgumentError("index is out of bound as with dims", "UnravelIndex")
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(
        indices.dtype)


not_differentiable("UnravelIndex")


def unravel_index(indices, dims, name=None):
    """`tf.unravel_index`: the coordinates, in an array of shape `dims`, of
    each flat index (one row per dimension, as numpy's `unravel_index`)."""
    indices = convert_to_tensor(indices)
    dims = convert_to_tensor(dims, indices.dtype if not hasattr(dims, "dtype") else None)
    if indices.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"unravel_index: indices must be int32 or int64, got "
                        f"{indices.dtype.name}")
    return apply("UnravelIndex", [indices, dims])


# --- shape_n / parallel_stack ------------------------------------------------------------

def shape_n(input, out_type=dtypes.int32, name=None):  # TensorFlow's names
    """`tf.shape_n`: the shape of each tensor in `input`, as a list."""
    return [shape(t, out_type=out_type) for t in input]


def parallel_stack(values, name="parallel_stack"):
    """`tf.parallel_stack`: `stack(values)` for graphs; like TF, refused eagerly."""
    if current_graph() is None:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    values = [convert_to_tensor(unwrap_variable(v)) for v in values]
    for v in values[1:]:
        if not values[0].shape.is_compatible_with(v.shape):
            raise ValueError(f"parallel_stack: shapes {rules.dims_text(values[0].shape)} and "
                             f"{rules.dims_text(v.shape)} are not compatible")
    return stack(values)
