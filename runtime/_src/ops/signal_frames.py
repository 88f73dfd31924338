"""Framing: `tf.signal.frame` and `tf.signal.overlap_and_add`, as three ops
that are each other's gradients.

    >>> frame(constant([1, 2, 3, 4, 5]), frame_length=3, frame_step=2)
    <tf.Tensor: shape=(2, 3), dtype=int32, numpy=
    array([[1, 2, 3],
           [3, 4, 5]], dtype=int32)>
    >>> overlap_and_add(constant([[1, 1, 1], [1, 1, 1]]), frame_step=2)
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([1, 1, 2, 1, 1], dtype=int32)>

    Frame(signal, pad_value)     frames of `frame_length` samples every `frame_step`
                                 along `axis` ([..., L, ...] -> [..., F, frame_length, ...]);
                                 with pad_end the end is padded with pad_value so
                                 that F = ceil(L / frame_step), else F = 1 + (L -
                                 frame_length) // frame_step (0 when negative)
    FrameGrad(frames, signal)    the adjoint: each frame added back where it came
                                 from, cropped to the signal's length
    OverlapAndAdd(frames)        [..., F, frame_length] -> [..., (F - 1) * frame_step
                                 + frame_length]: frames added at their offsets

Frame's gradient is FrameGrad, FrameGrad's is Frame, OverlapAndAdd's is Frame.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import shape_rules as rules

__all__ = ["frame", "overlap_and_add"]


def _num_frames(length, frame_length, frame_step, pad_end):
    if length is None:
        return None
    if pad_end:
        return -(-length // frame_step)
    return max(0, 1 + (length - frame_length) // frame_step)


def _infer_frame(inputs, attrs):
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axis, dims = attrs["axis"], list(x.shape.dims)
    count = _num_frames(dims[axis], attrs["frame_length"], attrs["frame_step"], attrs["pad_end"])
    return [(x.dtype, TensorShape(dims[:axis] + [count, attrs["frame_length"]] + dims[axis + 1:]))]


def _frame_index(count, frame_length, frame_step):
    return np.arange(count)[:, None] * frame_step + np.arange(frame_length)[None, :]


@define_op("Frame", infer=_infer_frame)
def _frame(x, pad_value, frame_length, frame_step, axis, pad_end):
    length = x.shape[axis]
    count = _num_frames(length, frame_length, frame_step, pad_end)
    needed = (count - 1) * frame_step + frame_length if count else 0
    if pad_end and needed > length:
        pads = [(0, 0)] * x.ndim
        pads[axis] = (0, needed - length)
        x = np.pad(x, pads, constant_values=pad_value)
    return np.take(x, _frame_index(count, frame_length, frame_step), axis=axis)


def _add_frames(frames, length, frame_step):
    """frames [..., F, frame_length] added at offsets k * frame_step into [..., length]."""
    count, frame_length = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + (max(length, (count - 1) * frame_step + frame_length),),
                   frames.dtype)
    if count <= frame_length:          # loop over the shorter of frames and samples
        for k in range(count):
            out[..., k * frame_step:k * frame_step + frame_length] += frames[..., k, :]
    else:
        starts = np.arange(count) * frame_step
        for j in range(frame_length):  # one sample of every frame at a time: no collisions
            out[..., starts + j] += frames[..., :, j]
    return out[..., :length]


def _infer_frame_grad(inputs, attrs):
    frames, x = inputs
    return [(frames.dtype, x.shape)]


@define_op("FrameGrad", infer=_infer_frame_grad)
def _frame_grad_kernel(frames, x, frame_length, frame_step, axis, pad_end):
    moved = np.moveaxis(frames, (axis, axis + 1), (-2, -1))
    return np.moveaxis(_add_frames(moved, x.shape[axis], frame_step), -1, axis)


@define_grad("Frame")
def _frame_grad(op, grad):
    return [apply("FrameGrad", (grad, op.inputs[0]), op.attrs), None]


@define_grad("FrameGrad")
def _frame_grad_grad(op, grad):
    zero = convert_to_tensor(np.zeros((), grad.dtype.np_dtype))
    return [apply("Frame", (grad, zero), op.attrs), None]


def _ola_length(count, frame_length, frame_step):
    if count is None or frame_length is None:
        return None
    return max(0, (count - 1) * frame_step + frame_length)


def _infer_overlap_and_add(inputs, attrs):
    (frames,) = inputs
    if frames.shape.rank is None:
        return [(frames.dtype, TensorShape(None))]
    if frames.shape.rank < 2:
        raise ValueError(f"Shape {frames.shape} must have rank at least 2")
    *outer, count, frame_length = frames.shape.dims
    return [(frames.dtype,
             TensorShape(outer + [_ola_length(count, frame_length, attrs["frame_step"])]))]


@define_op("OverlapAndAdd", infer=_infer_overlap_and_add)
def _overlap_and_add(frames, frame_step):
    count, frame_length = frames.shape[-2:]
    return _add_frames(frames, _ola_length(count, frame_length, frame_step), frame_step)


@define_grad("OverlapAndAdd")
def _overlap_and_add_grad(op, grad):
    frames = op.inputs[0]
    attrs = {"frame_length": frames.shape.dims[-1], "frame_step": op.attrs["frame_step"],
             "axis": frames.shape.rank - 2, "pad_end": False}
    zero = convert_to_tensor(np.zeros((), grad.dtype.np_dtype))
    return [apply("Frame", (grad, zero), attrs)]


# --- public functions ------------------------------------------------------------

def _positive(value, what, op_name, allow_zero=False):
    n = rules.static_int(value, op_name, what)
    if n < 0 or (n == 0 and not allow_zero):
        raise ValueError(f"{op_name}: {what} must be {'non-negative' if allow_zero else 'positive'}"
                         f", got {n}")
    return n


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """`tf.signal.frame`: the frames of `frame_length` samples every
    `frame_step` samples along `axis` ([..., samples, ...] -> [..., frames,
    frame_length, ...]). With `pad_end` the end is padded with `pad_value` to
    make ceil(samples / frame_step) frames; else only the whole frames are kept."""
    signal = convert_to_tensor(signal)
    rank = signal.shape.rank
    if rank is None:
        raise ValueError("frame: the signal's rank must be known")
    if rank < 1:
        raise ValueError(f"Shape {signal.shape} must have rank at least 1")
    axis = rules.static_int(axis, "frame", "axis")
    if not -rank <= axis < rank:
        raise ValueError(f"frame: axis {axis} is out of range for a signal of rank {rank}")
    attrs = {"frame_length": _positive(frame_length, "frame_length", "frame", allow_zero=True),
             "frame_step": _positive(frame_step, "frame_step", "frame"),
             "axis": axis % rank, "pad_end": rules.static_bool(pad_end, "frame", "pad_end")}
    pad_value = convert_to_tensor(pad_value, signal.dtype)
    if pad_value.shape.rank not in (None, 0):
        raise ValueError(f"frame: pad_value must be a scalar, got shape "
                         f"{rules.dims_text(pad_value.shape)}")
    return apply("Frame", (signal, pad_value), attrs)


def overlap_and_add(signal, frame_step, name=None):
    """`tf.signal.overlap_and_add`: frames [..., frames, frame_length] added
    at offsets of `frame_step` into [..., (frames - 1) * frame_step + frame_length]."""
    signal = convert_to_tensor(signal)
    if signal.shape.rank is not None and signal.shape.rank < 2:
        raise ValueError(f"Shape {signal.shape} must have rank at least 2")
    if signal.dtype.is_string or signal.dtype is dtypes.bool:
        raise TypeError(f"overlap_and_add: expected a numeric signal, got {signal.dtype.name}")
    step = _positive(frame_step, "frame_step", "overlap_and_add")
    return apply("OverlapAndAdd", (signal,), {"frame_step": step})
