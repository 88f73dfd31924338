"""Shape-changing ops: `broadcast_to`, `broadcast_static_shape`,
`broadcast_dynamic_shape`, `pad` (CONSTANT / REFLECT / SYMMETRIC),
`reverse`, `roll` and `repeat`; `split` and `slice` are defined in
split_slice_ops and importable from here; `meshgrid`, `linspace` and
`sequence_mask` are in meshgrid_ops.

    >>> pad(constant([1, 2, 3]), [[2, 1]], mode="reflect")
    <tf.Tensor: shape=(6,), dtype=int32, numpy=array([3, 2, 1, 2, 3, 2], dtype=int32)>

Arguments TF takes as tensors (shapes, paddings, shifts, sizes, begin) may be
tensors known only when the graph runs; the shape rules keep whatever of the
output shape is known while tracing. Bad arguments raise what TF raises:
`InvalidArgumentError` from an op run eagerly, `ValueError` while tracing.
"""

import builtins

import numpy as np

from runtime._src.core.composite import dispatch_api

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad, not_differentiable  # gradients
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import _shape_tensor, reshape
from runtime._src.ops.math_ops import cast
from runtime._src.ops.shape_args import _dims, int_tensor, kernel_error, op_error
from runtime._src.ops.split_slice_ops import slice, split

__all__ = ["broadcast_to", "broadcast_static_shape", "broadcast_dynamic_shape", "pad",
           "reverse", "roll", "repeat", "split", "slice", "op_error", "kernel_error",
           "int_tensor"]


# --- broadcast_to / broadcast_static_shape / broadcast_dynamic_shape -----------------

def _infer_broadcast_to(inputs, attrs):
    x, shape = inputs
    target = rules.shape_from_tensor(shape)
    if target.dims is None or x.shape.dims is None:
        return [(x.dtype, TensorShape(None) if target.dims is None
                 else TensorShape([None if d is None or d < 0 else d for d in target.dims]))]
    xd, td = list(x.shape.dims), list(target.dims)
    if len(xd) > len(td):
        raise ValueError(f"Rank of input ({len(xd)}) must be no greater than rank of output "
                         f"shape ({len(td)}).")
    xd = [1] * (len(td) - len(xd)) + xd
    out = []
    for a, t in zip(xd, td):
        if t is None or t < 0:
            out.append(a if a not in (None, 1) else None)
        elif a is not None and a != 1 and a != t:
            raise ValueError(f"Incompatible shapes: {rules.dims_text(x.shape)} vs. "
                             f"{rules.dims_text(target)}")
        else:
            out.append(t)
    return [(x.dtype, TensorShape(out))]


@define_op("BroadcastTo", infer=_infer_broadcast_to)
def _broadcast_to(x, shape):
    target = tuple(int(d) for d in np.reshape(shape, -1))
    if np.ndim(x) > len(target):
        raise InvalidArgumentError(f"BroadcastTo: Rank of input ({np.ndim(x)}) must be no "
                                   f"greater than rank of output shape ({len(target)}).")
    try:
        return np.broadcast_to(x, target).copy()
    except ValueError:
        raise InvalidArgumentError(
            f"BroadcastTo: Incompatible shapes: [{','.join(map(str, np.shape(x)))}] vs. "
            f"[{','.join(map(str, target))}]", "BroadcastTo") from None


@define_grad("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return [unbroadcast(grad, op.inputs[0]), None]


def broadcast_to(input, shape, name=None):  # TensorFlow's name
    """`input` broadcast to `shape` by numpy's rules (size-1 and missing dims repeat)."""
    return apply("BroadcastTo", (convert_to_tensor(input),
                                 _shape_tensor(shape, "BroadcastTo")))


def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two `TensorShape`s (unknown dims stay unknown)."""
    shape_x, shape_y = TensorShape(shape_x), TensorShape(shape_y)
    try:
        return rules.broadcast_shapes(shape_x, shape_y)
    except ValueError:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if "
                         "for each dimension pair they are either equal or one of them is 1. "
                         f"Received: {_paren(shape_x)} and {_paren(shape_y)}.") from None


def _paren(shape):
    return str(tuple(shape.dims)) if shape.dims is not None else "<unknown>"


def _infer_broadcast_args(inputs, attrs):
    a, b = inputs
    rules.check_same_dtype(a, b)
    sa, sb = rules.shape_from_tensor(a), rules.shape_from_tensor(b)
    n = None if sa.rank is None or sb.rank is None else builtins.max(sa.rank, sb.rank)
    return [(a.dtype, TensorShape([n]))]


@define_op("BroadcastArgs", infer=_infer_broadcast_args)
def _broadcast_args(a, b):
    try:
        return np.array(np.broadcast_shapes(tuple(a.tolist()), tuple(b.tolist())), a.dtype)
    except ValueError:
        raise InvalidArgumentError(f"BroadcastArgs: Incompatible shapes: [{','.join(map(str, a))}]"
                                   f" vs. [{','.join(map(str, b))}]", "BroadcastArgs") from None


not_differentiable("BroadcastArgs")


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two 1-D shape tensors, as a shape tensor."""
    x = _shape_tensor(shape_x, "BroadcastArgs", "shape_x")
    y = _shape_tensor(shape_y, "BroadcastArgs", "shape_y")
    if x.dtype != y.dtype:
        x, y = cast(x, dtypes.int64), cast(y, dtypes.int64)
    return apply("BroadcastArgs", (x, y))


# --- pad -----------------------------------------------------------------------------

_PAD_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def _check_paddings(pads, dims, mode, error):
    """TF's checks of a [rank, 2] paddings value against a (partial) input shape."""
    if pads.ndim != 2 or pads.shape[1] != 2 or (dims is not None and pads.shape[0] != len(dims)):
        raise error(f"The first dimension of paddings must be the rank of inputs"
                    f"[{','.join(map(str, pads.shape))}] "
                    f"[{'?' if dims is None else ','.join(str(d) for d in dims)}]")
    for (before, after), d in zip(pads.tolist(), dims or [None] * len(pads)):
        if before < 0 or after < 0:
            word = "Paddings" if mode == "CONSTANT" else "paddings"
            raise error(f"{word} must be non-negative: {before} {after}")
        if d is None or mode == "CONSTANT":
            continue
        if mode == "REFLECT" and (before >= d or after >= d):
            raise error(f"paddings must be less than the dimension size: {before}, {after} "
                        f"not less than {d}")
        if mode == "SYMMETRIC" and (before > d or after > d):
            raise error(f"paddings must be no greater than the dimension size: {before}, "
                        f"{after} greater than {d}")


def _infer_pad(inputs, attrs):
    x, paddings = inputs[0], inputs[1]
    mode = attrs.get("mode", "CONSTANT")
    if len(inputs) == 3:
        rules.check_same_dtype(x, inputs[2])
        if inputs[2].shape.rank not in (0, None):
            raise ValueError(f"constant_values must be a scalar, got shape "
                             f"{rules.dims_text(inputs[2].shape)}")
    pads = rules.constant_value(paddings)
    dims = _dims(x.shape)
    if pads is None:
        rank = paddings.shape.dims[0] if paddings.shape.rank == 2 else None
        rank = len(dims) if dims is not None else rank
        return [(x.dtype, TensorShape(None if rank is None else [None] * rank))]
    pads = np.asarray(pads)
    # As TF, a mirror padding wider than its dimension fails only when the graph runs.
    _check_paddings(pads, dims if mode == "CONSTANT" else None, mode, ValueError)
    if mode != "CONSTANT" and dims is not None and pads.shape[0] != len(dims):
        _check_paddings(pads, dims, "CONSTANT", ValueError)
    if dims is None:
        return [(x.dtype, TensorShape([None] * pads.shape[0]))]
    return [(x.dtype, TensorShape([None if d is None else d + int(b) + int(a)
                                   for d, (b, a) in zip(dims, pads.tolist())]))]


@define_op("PadV2", infer=_infer_pad)
def _pad_v2(x, paddings, constant_values):
    _check_paddings(np.asarray(paddings), list(np.shape(x)), "CONSTANT", kernel_error("PadV2"))
    if np.ndim(x) == 0:
        return x.copy()
    return np.pad(x, paddings.tolist(), mode="constant", constant_values=constant_values)


@define_grad("PadV2")
def _pad_grad(op, grad):
    x, paddings = op.inputs[0], op.inputs[1]
    return [apply("PadGrad", (grad, x, paddings)), None, None]


def _infer_pad_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("PadGrad", infer=_infer_pad_grad)
def _pad_grad_kernel(grad, x, paddings):
    """The part of a padded tensor's gradient that lies over the unpadded input."""
    key = tuple(builtins.slice(int(b), int(b) + d) for (b, _), d in zip(paddings, np.shape(x)))
    return grad[key]


@define_grad("PadGrad")
def _pad_grad_grad(op, grad):
    return [apply("PadV2", (grad, op.inputs[2], convert_to_tensor(np.zeros((), grad.dtype.np_dtype)))),
            None, None]


@define_op("MirrorPad", infer=_infer_pad)
def _mirror_pad(x, paddings, mode):
    _check_paddings(np.asarray(paddings), list(np.shape(x)), mode, kernel_error("MirrorPad"))
    if np.ndim(x) == 0:
        return x.copy()
    return np.pad(x, paddings.tolist(), mode=mode.lower())


@define_grad("MirrorPad")
def _mirror_pad_grad(op, grad):
    x, paddings = op.inputs
    return [apply("MirrorPadGrad", (grad, x, paddings), dict(op.attrs)), None]


@define_op("MirrorPadGrad", infer=_infer_pad_grad)
def _mirror_pad_grad_kernel(grad, x, paddings, mode):
    """The gradient of the unpadded input: the middle of grad, plus each mirrored
    border added back onto the elements it copies."""
    shift = 1 if mode == "REFLECT" else 0
    for axis, ((before, after), n) in enumerate(zip(paddings.tolist(), np.shape(x))):
        moved = np.moveaxis(grad, axis, 0)
        out = moved[before:before + n].copy()
        np.add.at(out, before - np.arange(before) - 1 + shift, moved[:before])
        np.add.at(out, n - 1 - shift - np.arange(after), moved[before + n:])
        grad = np.moveaxis(out, 0, axis)
    return grad


@define_grad("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    # MirrorPadGrad is the transpose of the (linear) mirror pad, so its gradient pads again.
    return [apply("MirrorPad", (grad, op.inputs[2]), dict(op.attrs)), None, None]


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tensor` padded by `paddings[i] = [before, after]` along each dimension i.

    `mode` (any case): CONSTANT fills with `constant_values`; REFLECT mirrors
    without repeating the edge (pads < dimension size); SYMMETRIC mirrors with
    it (pads <= dimension size).
    """
    tensor = convert_to_tensor(tensor)
    upper = mode.upper() if isinstance(mode, str) else mode
    if upper not in _PAD_MODES:
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", '
                         f'"REFLECT", or "SYMMETRIC". Received `mode` = {upper}')
    paddings = int_tensor(paddings, "Pad", "paddings")
    if paddings.shape.rank not in (None, 2):
        raise op_error("Pad", f"paddings must be a matrix with 2 columns, got shape "
                              f"{rules.dims_text(paddings.shape)}")
    if upper != "CONSTANT":
        return apply("MirrorPad", (tensor, paddings), {"mode": upper})
    if isinstance(constant_values, Tensor):
        if constant_values.dtype != tensor.dtype:
            raise op_error("PadV2", f"constant_values must have the dtype of the tensor "
                                    f"({tensor.dtype.name}), got {constant_values.dtype.name}")
        value = constant_values
    elif tensor.dtype.is_string and isinstance(constant_values, int) and constant_values == 0:
        value = convert_to_tensor(b"", dtypes.string)
    else:
        value = convert_to_tensor(constant_values, tensor.dtype)
    if value.shape.rank not in (None, 0):
        raise ValueError(f"PadV2: constant_values must be a scalar, got shape "
                         f"{rules.dims_text(value.shape)}")
    return apply("PadV2", (tensor, paddings, value))


# --- reverse / roll --------------------------------------------------------------------

def _infer_reverse(inputs, attrs):
    x = inputs[0]
    if x.shape.rank is not None:
        _reverse_axes(attrs["axis"], x.shape.rank, ValueError)
    return [(x.dtype, x.shape)]


def _reverse_axes(axis, rank, error):
    seen = set()
    for i, a in enumerate(axis):
        if not -rank <= a < rank:
            raise error(f"'axis'[{i}] = {a} is out of valid range [0, {rank - 1}")
        a = a + rank if a < 0 else a
        if a in seen:
            raise error(f"axis {a} specified more than once.")
        seen.add(a)
    return tuple(sorted(seen))


@define_op("ReverseV2", infer=_infer_reverse)
def _reverse(x, axis):
    axes = _reverse_axes(axis, np.ndim(x), kernel_error("ReverseV2"))
    return np.flip(x, axes) if axes else x.copy()


@define_grad("ReverseV2")
def _reverse_grad(op, grad):
    return [apply("ReverseV2", (grad,), dict(op.attrs))]


def reverse(tensor, axis, name=None):
    """`tensor` with the dimensions in `axis` (a list; negative from the end) reversed."""
    out = dispatch_api("reverse", (tensor,), tensor, axis)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    tensor = convert_to_tensor(tensor)
    axis = unwrap_variable(axis)
    if isinstance(axis, (int, np.integer)) or (isinstance(axis, Tensor) and axis.shape.rank == 0):
        raise op_error("ReverseV2", "'dims' must be 1-dimension, not 0")
    axis = rules.static_ints(axis, "ReverseV2", "axis") if not (
        isinstance(axis, (list, tuple)) and not axis) else ()
    return apply("ReverseV2", (tensor,), {"axis": axis})


def _infer_roll(inputs, attrs):
    x, shift, axis = inputs
    if x.shape.rank == 0:
        raise ValueError("input must be 1-D or higher")
    for t, what in ((shift, "shift"), (axis, "axis")):
        if t.shape.rank not in (None, 0, 1):
            raise ValueError(f"{what} must be a scalar or a 1-D vector, got shape "
                             f"{rules.dims_text(t.shape)}")
    s, a = rules.constant_value(shift), rules.constant_value(axis)
    if s is not None and a is not None and np.size(s) != np.size(a):
        raise ValueError("shift and axis must have the same size")
    if a is not None and x.shape.rank is not None:
        for v in np.reshape(a, -1):
            if not -x.shape.rank <= v < x.shape.rank:
                raise ValueError(f"axis {v} is out of range")
    return [(x.dtype, x.shape)]


@define_op("Roll", infer=_infer_roll)
def _roll(x, shift, axis):
    shift, axis = np.reshape(shift, -1), np.reshape(axis, -1)
    if np.ndim(x) == 0:
        raise InvalidArgumentError("Roll: input must be 1-D or higher", "Roll")
    if shift.size != axis.size:
        raise InvalidArgumentError("Roll: shift and axis must have the same size", "Roll")
    for a in axis:
        if not -np.ndim(x) <= a < np.ndim(x):
            raise InvalidArgumentError(f"Roll: axis {a} is out of range", "Roll")
    return np.roll(x, tuple(int(s) for s in shift), tuple(int(a) for a in axis))


@define_grad("Roll")
def _roll_grad(op, grad):
    _, shift, axis = op.inputs
    return [apply("Roll", (grad, apply("Neg", (shift,)), axis)), None, None]


def roll(input, shift, axis, name=None):  # TensorFlow's name
    """Elements of `input` shifted by `shift[i]` along `axis[i]`, wrapping around.

    A repeated axis shifts by the sum of its shifts.
    """
    return apply("Roll", (convert_to_tensor(input), int_tensor(shift, "Roll", "shift"),
                          int_tensor(axis, "Roll", "axis")))


# --- repeat --------------------------------------------------------------------------

def _infer_repeat(inputs, attrs):
    x, repeats = inputs
    axis = attrs["axis"]
    if repeats.shape.rank is not None and repeats.shape.rank > 1:
        raise ValueError(f"Shape {_paren(repeats.shape)} must have rank at most 1")
    dims = _dims(x.shape)
    if dims is None:
        return [(x.dtype, TensorShape(None))]
    axis = _repeat_axis(axis, len(dims), ValueError)
    n = dims[axis]
    r = rules.constant_value(repeats)
    rn = repeats.shape.dims[0] if repeats.shape.rank == 1 else None
    if rn is not None and n is not None and rn not in (1, n):
        raise ValueError(f"Dimensions {n} and {rn} are not compatible")
    if r is None or n is None:
        out = None
    elif np.ndim(r) == 0 or np.size(r) == 1:
        out = n * int(np.reshape(r, -1)[0])
    else:
        out = int(np.sum(r))
    dims[axis] = out
    return [(x.dtype, TensorShape(dims))]


def _repeat_axis(axis, rank, error):
    if not -rank <= axis < rank:
        raise error(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    return axis + rank if axis < 0 else axis


@define_op("Repeat", infer=_infer_repeat)
def _repeat(x, repeats, axis):
    axis = _repeat_axis(axis, np.ndim(x), kernel_error("Repeat"))
    flat = np.reshape(repeats, -1)
    if np.any(flat < 0):
        raise InvalidArgumentError(f"Repeat: repeats must be >= 0, got {flat.tolist()}", "Repeat")
    if flat.size not in (1, np.shape(x)[axis]):
        raise InvalidArgumentError(f"Repeat: Dimensions {np.shape(x)[axis]} and {flat.size} "
                                   "are not compatible", "Repeat")
    return np.repeat(x, flat if flat.size != 1 else int(flat[0]), axis=axis)


@define_grad("Repeat")
def _repeat_grad(op, grad):
    x, repeats = op.inputs
    return [apply("RepeatGrad", (grad, x, repeats), dict(op.attrs)), None]


def _infer_repeat_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("RepeatGrad", infer=_infer_repeat_grad)
def _repeat_grad_kernel(grad, x, repeats, axis):
    """The gradient of each element of x: the sum over its repeated copies."""
    if axis is None:
        flat = np.reshape(grad, -1)
        counts = np.broadcast_to(np.reshape(repeats, -1), (np.size(x),))
        return _sum_runs(flat, counts, 0).reshape(np.shape(x))
    axis = axis % np.ndim(x)
    counts = np.broadcast_to(np.reshape(repeats, -1), (np.shape(x)[axis],))
    return _sum_runs(grad, counts, axis)


@define_grad("RepeatGrad")
def _repeat_grad_grad(op, grad):
    # RepeatGrad sums runs of copies, so its own gradient repeats again.
    return [apply("Repeat", (grad, op.inputs[2]), dict(op.attrs)), None, None]


def _sum_runs(g, counts, axis):
    """Sums of consecutive runs of `counts[i]` slices of g along `axis` (zero for empty runs)."""
    shape = list(np.shape(g))
    shape[axis] = len(counts)
    out = np.zeros(shape, g.dtype)
    ends = np.cumsum(counts)
    starts = ends - counts
    for i, (s, e) in enumerate(zip(starts, ends)):
        if e > s:
            index = [builtins.slice(None)] * len(shape)
            index[axis] = i
            out[tuple(index)] = np.sum(np.take(g, np.arange(s, e), axis=axis), axis=axis)
    return out


def repeat(input, repeats, axis=None, name=None):  # TensorFlow's name
    """Each element (slice along `axis`) of `input` repeated `repeats` times.

    `repeats` is an int or one int per slice; `axis=None` repeats the flattened input.
    """
    input = convert_to_tensor(input)
    repeats = unwrap_variable(repeats)
    if isinstance(repeats, Tensor) and not repeats.dtype.is_integer or (
            not isinstance(repeats, Tensor) and np.asarray(repeats).dtype.kind not in "iu"):
        raise TypeError(f"Repeat: repeats must be of type integer, got {repeats!r}")
    repeats = int_tensor(repeats, "Repeat", "repeats")
    if repeats.shape.rank is not None and repeats.shape.rank > 1:
        raise ValueError(f"Shape {_paren(repeats.shape)} must have rank at most 1")
    if axis is None:
        input, axis = reshape(input, [-1]), 0
    return apply("Repeat", (input, repeats), {"axis": rules.static_int(axis, "Repeat", "axis")})


