"""Shape-changing ops: `broadcast_to`, `broadcast_static_shape`,
`broadcast_dynamic_shape`, `pad` (CONSTANT / REFLECT / SYMMETRIC),
`reverse`, `roll`, `repeat`, `split`, `slice`, `meshgrid`, `linspace` and
`sequence_mask`.

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
from runtime._src.core import tensor as _tensor

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad, not_differentiable  # gradients
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import _shape_tensor, range as _range, reshape, size
from runtime._src.ops.manipulation_ops import convert_all, expand_dims, stack
from runtime._src.ops.math_ops import cast, less, maximum
from runtime._src.ops.reduction_ops import reduce_max, reduce_sum

__all__ = ["broadcast_to", "broadcast_static_shape", "broadcast_dynamic_shape", "pad",
           "reverse", "roll", "repeat", "split", "slice", "meshgrid", "linspace",
           "sequence_mask", "op_error", "kernel_error", "int_tensor"]


def op_error(op_name, message):
    """A bad argument found before the op runs: InvalidArgumentError eagerly (TF's
    kernels raise it), ValueError while tracing (TF's shape functions do)."""
    if current_graph() is None:
        return InvalidArgumentError(f"{op_name}: {message}", op_name)
    return ValueError(f"{op_name}: {message}")


def kernel_error(op_name):
    """A function making the InvalidArgumentError a kernel of `op_name` raises."""
    return lambda message: InvalidArgumentError(f"{op_name}: {message}", op_name)


def int_tensor(value, op_name, what, dtype=dtypes.int32):
    """An index-like argument as an int32/int64 tensor (TypeError for other dtypes)."""
    value = unwrap_variable(value)
    if isinstance(value, Tensor):
        if value.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"{op_name}: {what} must be an int32 or int64 tensor, got "
                            f"{value.dtype.name}")
        return value
    if isinstance(value, (list, tuple)) and any(_tensor.is_tensor_like(v)
                                                for v in _tensor.flatten_lists(value)):
        return int_tensor(convert_to_tensor(value), op_name, what, dtype)   # packed, as TF
    array = np.asarray(value)
    if array.dtype.kind not in "iu" and not (array.size == 0 and array.dtype.kind == "f"):
        raise TypeError(f"{op_name}: {what} must hold integers (int32 or int64), got {value!r}")
    return convert_to_tensor(array.astype(dtype.np_dtype), dtype)


def _dims(shape):
    return list(shape.dims) if shape.dims is not None else None


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


# --- split ----------------------------------------------------------------------------

def _split_axis(axis, rank, error):
    if not -rank <= axis < rank:
        raise error(f"-input rank(-{rank}) <= split_dim < input rank ({rank}), but got {axis}")
    return axis + rank if axis < 0 else axis


def _infer_split(inputs, attrs):
    x, num = inputs[0], attrs["num_split"]
    dims = _dims(x.shape)
    if dims is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = _split_axis(attrs["axis"], len(dims), ValueError)
    n = dims[axis]
    if n is not None and n % num:
        raise ValueError(f"Number of ways to split should evenly divide the split dimension, "
                         f"but got split_dim {axis} (size = {n}) and num_split {num}")
    dims[axis] = None if n is None else n // num
    return [(x.dtype, TensorShape(dims))] * num


@define_op("Split", infer=_infer_split, num_outputs=None)
def _split(x, axis, num_split):
    axis = _split_axis(axis, np.ndim(x), kernel_error("Split"))
    n = np.shape(x)[axis]
    if n % num_split:
        raise InvalidArgumentError(
            f"Split: Number of ways to split should evenly divide the split dimension, but got "
            f"split_dim {axis} (size = {n}) and num_split {num_split}", "Split")
    size, lead = n // num_split, (np.s_[:],) * axis   # views, as np.split's, without its cost
    return tuple(x[lead + (np.s_[k * size:(k + 1) * size],)] for k in range(num_split))


@define_grad("Split")
def _split_grad(op, *grads):
    return [apply("ConcatV2", grads, {"axis": op.attrs["axis"]})]


def _split_sizes(sizes, n, error):
    """The sizes with the -1 filled in; TF's errors for bad ones."""
    sizes = [int(s) for s in sizes]
    if sizes.count(-1) > 1:
        raise error("There can only be one -1 in the input.")
    known = sum(s for s in sizes if s != -1)
    if n is None:
        return [None if s == -1 else s for s in sizes]
    if (-1 in sizes and known > n) or (-1 not in sizes and known != n) or any(
            s < -1 for s in sizes):
        raise error("Determined shape must either match input shape along split_dim exactly "
                    "if fully specified, or be less than the size of the input along split_dim "
                    f"if not fully specified.  Got: {known}")
    return [n - known if s == -1 else s for s in sizes]


def _infer_split_v(inputs, attrs):
    x, sizes = inputs
    num = attrs["num_split"]
    dims = _dims(x.shape)
    if dims is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = _split_axis(attrs["axis"], len(dims), ValueError)
    known = rules.constant_value(sizes)
    parts = [None] * num if known is None else _split_sizes(np.reshape(known, -1), dims[axis],
                                                            ValueError)
    return [(x.dtype, TensorShape(dims[:axis] + [p] + dims[axis + 1:])) for p in parts]


@define_op("SplitV", infer=_infer_split_v, num_outputs=None)
def _split_v(x, sizes, axis, num_split):
    axis = _split_axis(axis, np.ndim(x), kernel_error("SplitV"))
    if np.size(sizes) != num_split:
        raise InvalidArgumentError(f"SplitV: expected {num_split} sizes, got {np.size(sizes)}",
                                   "SplitV")
    parts = _split_sizes(np.reshape(sizes, -1), np.shape(x)[axis], kernel_error("SplitV"))
    return tuple(np.split(x, np.cumsum(parts)[:-1], axis=axis))


@define_grad("SplitV")
def _split_v_grad(op, *grads):
    return [apply("ConcatV2", grads, {"axis": op.attrs["axis"]}), None]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`value` cut along `axis` into `num_or_size_splits` equal parts (an int), or
    into parts of the given sizes (a list or 1-D tensor; one size may be -1)."""
    value = convert_to_tensor(value)
    axis = rules.static_int(axis, "Split", "axis")
    sizes = unwrap_variable(num_or_size_splits)
    if isinstance(sizes, (int, np.integer)) and not isinstance(sizes, (bool, np.bool_)):
        if sizes < 1:
            raise op_error("Split", f"num_split {sizes} must be at least minimum 1")
        return list(apply("Split", (value,), {"axis": axis, "num_split": int(sizes)}))
    if isinstance(sizes, Tensor) and sizes.shape.rank == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument "
                         f"to split. Argument provided: {sizes!r}")
    sizes = int_tensor(sizes, "SplitV", "num_or_size_splits")
    if sizes.shape.rank != 1:
        raise ValueError(f"SplitV: num_or_size_splits must be a 1-D list of sizes, got shape "
                         f"{rules.dims_text(sizes.shape)}")
    count = sizes.shape.dims[0]
    if count is None:
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes.shape}")
        count = rules.static_int(num, "SplitV", "num")
    return list(apply("SplitV", (value, sizes), {"axis": axis, "num_split": count}))


# --- slice ------------------------------------------------------------------------------

def _infer_slice(inputs, attrs):
    x, begin, sizes = inputs
    rules.check_same_dtype(begin, sizes)
    dims = _dims(x.shape)
    for t in (begin, sizes):
        if t.shape.rank not in (None, 1) or (dims is not None and t.shape.rank == 1
                                               and t.shape.dims[0] not in (None, len(dims))):
            raise ValueError(f"Expected begin and size arguments to be 1-D tensors of size "
                             f"{'?' if dims is None else len(dims)}, but got shapes "
                             f"{rules.dims_text(begin.shape)} and {rules.dims_text(sizes.shape)} "
                             "instead.")
    b, s = rules.constant_value(begin), rules.constant_value(sizes)
    if dims is None:
        n = next((t.shape.dims[0] for t in (begin, sizes) if t.shape.rank == 1), None)
        return [(x.dtype, TensorShape(None if n is None else [None] * n))]
    b = [None] * len(dims) if b is None else [int(v) for v in b]
    s = [None] * len(dims) if s is None else [int(v) for v in s]
    out = []
    for i, (d, bi, si) in enumerate(zip(dims, b, s)):
        if d is not None and bi is not None and bi > d:
            raise ValueError(f"Expected begin[{i}] in [0, {d}], but got {bi}")
        # Other bad begin/size values fail only when the graph runs, as in TF.
        if si is not None and si != -1:
            out.append(si if si >= 0 else None)
        else:
            out.append(None if si is None or d is None or bi is None else d - bi)
    return [(x.dtype, TensorShape(out))]


def _check_slice_dim(i, d, b, s, error):
    if b is not None and not 0 <= b <= d:
        raise error(f"Expected begin[{i}] in [0, {d}], but got {b}")
    if s is not None and b is not None and s != -1 and not 0 <= s <= d - b:
        raise error(f"Expected size[{i}] in [0, {d - b}], but got {s}")
    if s is not None and s < -1:
        raise error(f"Expected size[{i}] in [0, {d if b is None else d - b}], but got {s}")


@define_op("Slice", infer=_infer_slice)
def _slice(x, begin, sizes):
    if np.shape(begin) != (np.ndim(x),) or np.shape(sizes) != (np.ndim(x),):
        raise InvalidArgumentError(
            f"Slice: Expected begin and size arguments to be 1-D tensors of size {np.ndim(x)}, "
            f"but got shapes {list(np.shape(begin))} and {list(np.shape(sizes))} instead.",
            "Slice")
    key = []
    for i, (d, b, s) in enumerate(zip(np.shape(x), begin.tolist(), sizes.tolist())):
        _check_slice_dim(i, d, b, s, kernel_error("Slice"))
        key.append(builtins.slice(b, d if s == -1 else b + s))
    return x[tuple(key)].copy()


@define_grad("Slice")
def _slice_grad(op, grad):
    x, begin, _ = op.inputs
    return [apply("SliceGrad", (grad, x, begin)), None, None]


def _infer_slice_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("SliceGrad", infer=_infer_slice_grad)
def _slice_grad_kernel(grad, x, begin):
    """Zeros like x with the slice's gradient placed at `begin`."""
    out = np.zeros(np.shape(x), grad.dtype)
    out[tuple(builtins.slice(int(b), int(b) + d) for b, d in zip(begin, grad.shape))] = grad
    return out


@define_grad("SliceGrad")
def _slice_grad_grad(op, grad):
    # SliceGrad places a block into zeros; its gradient cuts the same block out.
    block, _, begin = op.inputs
    size = apply("Shape", (block,), {"out_type": begin.dtype})
    return [apply("Slice", (grad, begin, size)), None, None]


def slice(input_, begin, size, name=None):  # TensorFlow's name
    """The block of `input_` starting at `begin` with extent `size` (-1: to the end)."""
    input_ = convert_to_tensor(input_)
    begin = unwrap_variable(begin)
    size = unwrap_variable(size)
    dtype = next((t.dtype for t in (begin, size) if isinstance(t, Tensor)), dtypes.int32)
    begin = int_tensor(begin, "Slice", "begin", dtype)
    size = int_tensor(size, "Slice", "size", dtype)
    if begin.dtype != size.dtype:
        raise TypeError(f"Slice: begin and size must have the same dtype, got "
                        f"{begin.dtype.name} and {size.dtype.name}")
    return apply("Slice", (input_, begin, size))


# --- meshgrid / linspace / sequence_mask ---------------------------------------------------

def meshgrid(*args, **kwargs):
    """N-D coordinate grids from 1-D coordinate vectors (flattened first).

    `indexing="xy"` (default, Cartesian) makes outputs of shape (len(y), len(x), ...);
    `"ij"` (matrix) makes (len(x), len(y), ...).
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    if not args:
        return []
    tensors = [convert_to_tensor(a) for a in args]
    tensors = [reshape(t, [-1]) for t in convert_all(tensors, "Meshgrid")]
    sizes = [size(t) for t in tensors]
    if indexing == "xy" and len(tensors) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    full = stack(sizes)
    outputs = []
    for i, t in enumerate(tensors):
        position = i
        if indexing == "xy" and len(tensors) > 1 and i < 2:
            position = 1 - i
        shape = [1] * len(tensors)
        shape[position] = -1
        outputs.append(broadcast_to(reshape(t, shape), full))
    return outputs


def _infer_linspace(inputs, attrs):
    start, stop, num = inputs
    rules.check_same_dtype(start, stop)
    if not start.dtype.is_floating:
        raise TypeError(f"start and stop must be floating-point, got {start.dtype.name}")
    if num.shape.rank not in (None, 0):
        raise ValueError(f"num must be a scalar, got shape {rules.dims_text(num.shape)}")
    shape = rules.broadcast_shapes(start.shape, stop.shape)
    n = rules.constant_value(num)
    n = None if n is None else int(n)
    if n is not None and n < 0:
        raise ValueError(f"Requires num >= 0, got {n}")
    if shape.dims is None:
        return [(start.dtype, TensorShape(None))]
    dims = list(shape.dims)
    axis = rules.normalize_axis(attrs["axis"], len(dims) + 1)
    return [(start.dtype, TensorShape(dims[:axis] + [n] + dims[axis:]))]


@define_op("LinSpace", infer=_infer_linspace)
def _linspace(start, stop, num, axis):
    n = int(num)
    if n < 0:
        raise InvalidArgumentError(f"LinSpace: Requires num >= 0, got {n}", "LinSpace")
    start, stop = np.broadcast_arrays(start, stop)
    dtype = start.dtype
    axis = axis + start.ndim + 1 if axis < 0 else axis
    first, last = np.expand_dims(start, axis), np.expand_dims(stop, axis)
    delta = ((last - first) / dtype.type(builtins.max(n - 1, 1))).astype(dtype)
    shape = [1] * (start.ndim + 1)
    shape[axis] = builtins.max(n - 2, 0)
    steps = np.arange(1, builtins.max(n - 1, 1), dtype=dtype).reshape(shape)
    parts = [first, (first + steps * delta).astype(dtype), last]
    return np.concatenate(parts, axis=axis).take(np.arange(n), axis=axis)


@define_grad("LinSpace")
def _linspace_grad(op, grad):
    # out[..., i, ...] = start + w[i] * (stop - start), w[i] = i / max(num - 1, 1)
    # (so out[0] = start, out[-1] = stop): stop's gradient is the w-weighted sum
    # of grad along the axis, start's the rest; both summed down to their shapes.
    start, stop, num = op.inputs
    axis, rank = op.attrs["axis"], grad.shape.rank
    if axis >= 0 and rank is None:
        raise LookupError("No gradient defined for operation 'LinSpace' with an output of "
                          "unknown rank and a non-negative axis")
    after = -axis - 1 if axis < 0 else rank - axis - 1
    one = convert_to_tensor(1, num.dtype)
    steps = cast(maximum(num - one, one), grad.dtype)
    weights = reshape(cast(_range(0, num, 1, dtype=num.dtype), grad.dtype) / steps,
                      [-1] + [1] * after)
    to_stop = reduce_sum(grad * weights, axis)
    return [unbroadcast(reduce_sum(grad, axis) - to_stop, start), unbroadcast(to_stop, stop),
            None]


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (both included) along `axis`.

    Integer start/stop give float64; `start` and `stop` may be tensors (broadcast together).
    """
    start = convert_to_tensor(start)
    if start.dtype.is_integer:
        start = cast(start, dtypes.float64)
    try:
        stop = unwrap_variable(stop)
        if isinstance(stop, Tensor) and stop.dtype.is_integer and start.dtype is dtypes.float64:
            stop = cast(stop, dtypes.float64)
        stop = convert_to_tensor(stop, start.dtype)
    except ValueError as e:
        raise ValueError(f"stop: {e}") from None
    num = unwrap_variable(num)
    kind = num.dtype if isinstance(num, Tensor) else dtypes.dtype_of_python(num)
    if kind is None or not kind.is_integer:
        raise TypeError(f"LinSpace: num must be of type integer, got {num!r}")
    num = convert_to_tensor(num)
    if num.shape.rank not in (None, 0):
        raise ValueError(f"LinSpace: num must be a scalar, got shape {rules.dims_text(num.shape)}")
    return apply("LinSpace", (start, stop, num), {"axis": rules.static_int(axis, "LinSpace",
                                                                              "axis")})


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...], of shape lengths.shape + [maxlen] (bool).

    `maxlen` defaults to the largest length.
    """
    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = maximum(reduce_max(lengths), convert_to_tensor(0, lengths.dtype))
    else:
        maxlen = convert_to_tensor(maxlen)
        if maxlen.shape.rank not in (None, 0):
            raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received "
                             f"`maxlen` = {maxlen!r} with shape '{_paren(maxlen.shape)}' instead")
    if not maxlen.dtype.is_integer:
        maxlen = cast(maxlen, dtypes.int32)
    row = _range(0, maxlen, 1, dtype=maxlen.dtype)
    mask = less(row, cast(expand_dims(lengths, -1), maxlen.dtype))
    dtype = dtypes.as_dtype(dtype)
    return mask if dtype is dtypes.bool else cast(mask, dtype)
