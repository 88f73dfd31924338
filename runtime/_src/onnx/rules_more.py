"""ONNX rules of the remaining math, scan and shape ops, built from exact
pieces where ONNX has no operator:

    IsFinite(x)         ->  Not(IsNaN(x) or IsInf(x))
    Atan2(y, x)         ->  Atan(y / x) moved to the quadrant of (x, y), signed zeros,
                            infinities and NaN as numpy's arctan2
    Cumprod(x)          ->  log2(n) doubling steps: y *= y shifted by 1, 2, 4, ... (n static)
    EuclideanNorm(x)    ->  Sqrt(ReduceSum(x * x)); integers: floor of the float64 root
    LinSpace(a, b, n)   ->  a, a + k * (b - a) / (n - 1) ..., b   (as our kernel; n static)
    Roll(x, s, axis)    ->  Concat(x[n - s % n:], x[:n - s % n]) along each axis
    Repeat(x, r, axis)  ->  Gather(x, repeat(range(n), r))   (r constant, n static) or,
                            for one r, Expand of a new axis then Reshape
    BroadcastArgs(a, b) ->  right-aligned Where(a == 1, b, a)
    SparseSoftmaxCrossEntropyWithLogits -> (-LogSoftmax[label], Softmax - one_hot)
"""

import numpy as np

from runtime._src.onnx.builder import ExportError
from runtime._src.onnx.convert import rule
from runtime._src.onnx.rules_math import reduce
from runtime._src.onnx.select import is_inf

__all__ = []

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


def _scalar(ctx, value, tensor):
    return ctx.b.const(np.asarray(value, tensor.dtype.np_dtype))


@rule("IsFinite")
def _is_finite(ctx, node, ins):
    bad = ctx.b.add1("Or", [ctx.b.add1("IsNaN", ins), is_inf(ctx, ins[0], node.inputs[0].dtype)])
    return [ctx.b.add1("Not", [bad])]


@rule("Atan2")
def _atan2(ctx, node, ins):
    """atan(y / x), plus pi (with y's sign) where x is negative or -0; signed
    zeros and infinities as numpy's and TF's arctan2: y = +-0 gives +-0 or +-pi,
    y and x both infinite give +-pi/4 or +-3pi/4, a NaN gives NaN."""
    y, x = ins
    t = node.inputs[0]
    zero = _scalar(ctx, 0, t)

    def negative(v):             # v < 0 or v is -0 (1 / -0 = -inf)
        return ctx.b.add1("Or", [ctx.b.add1("Less", [v, zero]),
                                 ctx.b.add1("Less", [ctx.b.add1("Reciprocal", [v]), zero])])
    both_inf = ctx.b.add1("And", [is_inf(ctx, x, t), is_inf(ctx, y, t)])
    ratio = ctx.b.add1("Where", [both_inf, ctx.b.add1("Div", [ctx.b.add1("Sign", [y]),
                                                              ctx.b.add1("Sign", [x])]),
                                 ctx.b.add1("Div", [y, x])])
    # y = +-0: atan(y) = y. Values that may be -0 go in Where's last input:
    # ONNX Runtime 1.23's Where turns a -0 chosen from its middle input into +0.
    nonzero = ctx.b.add1("Not", [ctx.b.add1("Equal", [y, zero])])
    base = ctx.b.add1("Atan", [ctx.b.add1("Where", [nonzero, ratio, y])])
    half_turn = ctx.b.add1("Where", [negative(y), _scalar(ctx, -np.pi, t),
                                     _scalar(ctx, np.pi, t)])
    out = ctx.b.add1("Where", [negative(x), ctx.b.add1("Add", [base, half_turn]), base])
    nan = ctx.b.add1("Or", [ctx.b.add1("IsNaN", [x]), ctx.b.add1("IsNaN", [y])])
    return [ctx.b.add1("Where", [nan, _scalar(ctx, np.nan, t), out])]


def _axis_slice(ctx, x, start, end, axis, step=None):
    inputs = [x, ctx.b.ints([start]), ctx.b.ints([end]), ctx.b.ints([axis])]
    if step is not None:
        inputs.append(ctx.b.ints([step]))
    return ctx.b.add1("Slice", inputs)


def _reverse(ctx, x, axis):
    return _axis_slice(ctx, x, -1, INT64_MIN, axis, -1)


@rule("Cumprod")
def _cumprod(ctx, node, ins):
    x = node.inputs[0]
    rank = x.shape.rank
    if rank is None or rank == 0:
        raise ExportError("cumprod of a tensor of unknown rank or a scalar")
    axis = int(node.attrs["axis"]) % rank
    n = x.shape.dims[axis]
    if n is None:
        raise ExportError("cumprod along an axis of unknown length (ONNX has no CumProd; the "
                          "exported product needs the length): give it in the input_signature")
    y = ins[0]
    if node.attrs["reverse"]:
        y = _reverse(ctx, y, axis)
    ones = ctx.b.add1("Expand", [_scalar(ctx, 1, x), ctx.b.add1("Shape", [y])])
    if node.attrs["exclusive"] and n:
        y = ctx.b.add1("Concat", [_axis_slice(ctx, ones, 0, 1, axis),
                                  _axis_slice(ctx, y, 0, n - 1, axis)], axis=axis)
    step = 1
    while step < n:           # Hillis-Steele: y[i] *= y[i - step]
        shifted = ctx.b.add1("Concat", [_axis_slice(ctx, ones, 0, step, axis),
                                        _axis_slice(ctx, y, 0, n - step, axis)], axis=axis)
        y = ctx.b.add1("Mul", [y, shifted])
        step *= 2
    if node.attrs["reverse"]:
        y = _reverse(ctx, y, axis)
    return [y if y != ins[0] else ctx.b.add1("Identity", [y])]


@rule("EuclideanNorm")
def _euclidean_norm(ctx, node, ins):
    axis, keep = node.attrs["axis"], node.attrs["keepdims"]
    axes = None if axis is None else [int(a) for a in np.reshape(axis, -1)]
    x = ins[0]
    dtype = node.inputs[0].dtype
    if not dtype.is_floating:
        x = ctx.b.cast(x, "float64")
    total = reduce(ctx, "ReduceSum", ctx.b.add1("Mul", [x, x]), axes, keep)
    root = ctx.b.add1("Sqrt", [total])
    if dtype.is_floating:
        return [root]
    return [ctx.b.cast(ctx.b.add1("Floor", [root]), dtype)]


@rule("LinSpace")
def _linspace(ctx, node, ins):
    start, stop, num = ins
    n = ctx.constants.get(num)
    if n is None:
        raise ExportError("linspace with a computed number of points: pass num as a constant")
    n = int(n)
    t = node.inputs[0]
    rank = max(t.shape.rank or 0, node.inputs[1].shape.rank or 0)
    if t.shape.rank is None or node.inputs[1].shape.rank is None:
        raise ExportError("linspace of start/stop of unknown rank")
    axis = int(node.attrs["axis"])
    axis = axis + rank + 1 if axis < 0 else axis
    like = ctx.b.add1("Add", [start, ctx.b.add1("Mul", [stop, _scalar(ctx, 0, t)])])
    first = ctx.b.add1("Unsqueeze", [like, ctx.b.ints([axis])])
    last = ctx.b.add1("Unsqueeze", [ctx.b.add1("Add", [stop, ctx.b.add1(
        "Mul", [start, _scalar(ctx, 0, t)])]), ctx.b.ints([axis])])
    delta = ctx.b.add1("Div", [ctx.b.add1("Sub", [last, first]), _scalar(ctx, max(n - 1, 1), t)])
    shape = [1] * (rank + 1)
    shape[axis] = max(n - 2, 0)
    steps = np.arange(1, max(n - 1, 1), dtype=t.dtype.np_dtype).reshape(shape)
    middle = ctx.b.add1("Add", [first, ctx.b.add1("Mul", [ctx.b.const(steps), delta])])
    parts = ctx.b.add1("Concat", [first, middle, last], axis=axis)
    return [_axis_slice(ctx, parts, 0, n, axis)]


@rule("Roll")
def _roll(ctx, node, ins):
    x, shift, axis = ins
    axes = ctx.constants.get(axis)
    rank = node.inputs[0].shape.rank
    if axes is None or rank is None:
        raise ExportError("roll along computed axes or of a tensor of unknown rank")
    axes = [int(a) % rank for a in np.reshape(axes, -1)]
    shifts = ctx.b.add1("Reshape", [ctx.b.cast(shift, "int64"), ctx.b.ints([-1])])
    shape = ctx.b.add1("Shape", [x])
    y = x
    for k, a in enumerate(axes):
        n = ctx.b.add1("Gather", [shape, ctx.b.ints([a])])
        s = ctx.b.add1("Gather", [shifts, ctx.b.ints([k if len(axes) > 1 else 0])])
        split = ctx.b.add1("Sub", [n, ctx.b.add1("Mod", [s, ctx.b.add1(
            "Max", [n, ctx.b.ints([1])])], fmod=0)])
        tail = ctx.b.add1("Slice", [y, split, ctx.b.ints([INT64_MAX]), ctx.b.ints([a])])
        head = ctx.b.add1("Slice", [y, ctx.b.ints([0]), split, ctx.b.ints([a])])
        y = ctx.b.add1("Concat", [tail, head], axis=a)
    return [y if y != x else ctx.b.add1("Identity", [x])]


@rule("Repeat")
def _repeat(ctx, node, ins):
    x = node.inputs[0]
    rank = x.shape.rank
    repeats = ctx.constants.get(ins[1])
    if rank is None or repeats is None:
        raise ExportError("repeat by computed repeats or of a tensor of unknown rank: pass "
                          "repeats as a constant")
    axis = int(node.attrs["axis"]) % rank
    flat = np.reshape(repeats, -1).astype(np.int64)
    n = x.shape.dims[axis]
    if flat.size == 1 and n is None:
        grown = ctx.b.add1("Unsqueeze", [ins[0], ctx.b.ints([axis + 1])])
        shape = ctx.b.add1("Shape", [grown])
        times = np.ones(rank + 1, np.int64)
        times[axis + 1] = flat[0]
        tiled = ctx.b.add1("Tile", [grown, ctx.b.ints(times)])
        new_shape = ctx.b.add1("Concat", [
            ctx.b.add1("Slice", [shape, ctx.b.ints([0]), ctx.b.ints([axis])]),
            ctx.b.ints([-1]),
            ctx.b.add1("Slice", [shape, ctx.b.ints([axis + 2]), ctx.b.ints([INT64_MAX])])],
            axis=0)
        return [ctx.b.add1("Reshape", [tiled, new_shape])]
    if n is None:
        raise ExportError("repeat along an axis of unknown length by a list of repeats")
    index = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(flat, (n,)))
    return [ctx.b.add1("Gather", [ins[0], ctx.b.const(index, name="repeat_index")], axis=axis)]


@rule("BroadcastArgs")
def _broadcast_args(ctx, node, ins):
    lengths = [t.shape.dims[0] if t.shape.rank == 1 else None for t in node.inputs]
    if None in lengths:
        raise ExportError("broadcast_dynamic_shape of shapes of unknown length")
    longest = max(lengths)
    dtype = node.inputs[0].dtype.np_dtype
    padded = []
    for name, length in zip(ins, lengths):
        if length < longest:
            name = ctx.b.add1("Concat", [ctx.b.const(np.ones(longest - length, dtype)), name],
                              axis=0)
        padded.append(name)
    a, b = padded
    return [ctx.b.add1("Where", [ctx.b.add1("Equal", [a, ctx.b.const(np.asarray(1, dtype))]),
                                 b, a])]


@rule("SumLike")
def _sum_like(ctx, node, ins):
    """grad summed to x's shape: over grad's leading axes and the axes where
    x has size 1 (found from Shape(x) while running when not known)."""
    grad, x = node.inputs
    if grad.shape.rank is None or x.shape.rank is None:
        raise ExportError("a gradient sum to a shape of unknown rank")
    lead = grad.shape.rank - x.shape.rank
    if None not in grad.shape.dims and None not in x.shape.dims:
        axes = list(range(lead)) + [lead + i for i, d in enumerate(x.shape.dims)
                                    if d == 1 and grad.shape.dims[lead + i] != 1]
        total = reduce(ctx, "ReduceSum", ins[0], axes, True) if axes else ins[0]
    else:            # summing over an axis of size 1 in both changes nothing
        ones = ctx.b.add1("Equal", [ctx.b.add1("Shape", [ins[1]]), ctx.b.ints([1])])
        found = ctx.b.add1("Reshape", [ctx.b.add1("NonZero", [ones]), ctx.b.ints([-1])])
        axes = ctx.b.add1("Concat", [ctx.b.ints(list(range(lead))),
                                     ctx.b.add1("Add", [found, ctx.b.ints([lead])])], axis=0)
        total = ctx.b.add1("ReduceSum", [ins[0], axes], keepdims=1, noop_with_empty_axes=1)
    return [ctx.b.add1("Reshape", [total, ctx.b.add1("Shape", [ins[1]])])]


@rule("BroadcastLike")
def _broadcast_like(ctx, node, ins):
    axes = node.attrs["axes"]
    grad = ins[0]
    if axes:
        rank = node.inputs[1].shape.rank
        if rank is None:
            raise ExportError("a broadcast to a tensor of unknown rank")
        grad = ctx.b.add1("Unsqueeze", [grad, ctx.b.ints(sorted(a % rank for a in axes))])
    return [ctx.b.add1("Expand", [grad, ctx.b.add1("Shape", [ins[1]])])]


@rule("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(ctx, node, ins):
    logits, labels = ins
    labels = ctx.b.add1("Unsqueeze", [ctx.b.cast(labels, "int64"), ctx.b.ints([-1])])
    picked = ctx.b.add1("GatherElements", [ctx.b.add1("LogSoftmax", [logits], axis=-1), labels],
                        axis=-1)
    loss = ctx.b.add1("Neg", [ctx.b.add1("Squeeze", [picked, ctx.b.ints([-1])])])
    classes = ctx.b.add1("Gather", [ctx.b.add1("Shape", [logits]), ctx.b.const(np.int64(-1))])
    positions = ctx.b.add1("Range", [ctx.b.const(np.int64(0)), classes,
                                     ctx.b.const(np.int64(1))])
    one_hot = ctx.b.cast(ctx.b.add1("Equal", [labels, positions]), node.inputs[0].dtype)
    backprop = ctx.b.add1("Sub", [ctx.b.add1("Softmax", [logits], axis=-1), one_hot])
    return [loss, backprop]


def _in_nchw(ctx, node, x, op_type, **attrs):
    """ONNX's NCHW-only `op_type` on our NHWC (or NCHW) value."""
    if node.attrs["data_format"] == "NCHW":
        return ctx.b.add1(op_type, [x], **attrs)
    nchw = ctx.b.add1("Transpose", [x], perm=[0, 3, 1, 2])
    return ctx.b.add1("Transpose", [ctx.b.add1(op_type, [nchw], **attrs)], perm=[0, 2, 3, 1])


@rule("SpaceToDepth")
def _space_to_depth(ctx, node, ins):
    return [_in_nchw(ctx, node, ins[0], "SpaceToDepth", blocksize=node.attrs["block_size"])]


@rule("DepthToSpace")
def _depth_to_space(ctx, node, ins):
    # TF's channel order within a block is ONNX's "DCR" mode
    return [_in_nchw(ctx, node, ins[0], "DepthToSpace", blocksize=node.attrs["block_size"],
                     mode="DCR")]


@rule("ReverseSequence")
def _reverse_sequence(ctx, node, ins):
    batch, seq = node.attrs["batch_axis"], node.attrs["seq_axis"]
    if {batch, seq} != {0, 1}:
        raise ExportError("ONNX's ReverseSequence takes the batch and sequence axes as 0 and 1 "
                          f"only; this one has batch_axis={batch}, seq_axis={seq}")
    return [ctx.b.add1("ReverseSequence", [ins[0], ctx.b.cast(ins[1], "int64")],
                       batch_axis=batch, time_axis=seq)]


@rule("NoOp")
def _no_op(ctx, node, ins):
    return []
