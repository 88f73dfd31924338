"""ONNX rules of constants, Variables, shapes, joins, gathers and indexing.

ONNX takes shapes, axes and indices as int64 tensors where we (and
TensorFlow) use int32: the rules cast. Indexing (`x[1:, ::-1, None, i]`, our
`StridedSlice` with a spec) becomes one `Slice` over every sliced or indexed
axis, a `Squeeze` of the indexed ones and an `Unsqueeze` for the new ones.
"""

import numpy as np

from runtime._src.onnx.builder import ExportError, _onnx, onnx_type
from runtime._src.onnx.convert import rule
from runtime._src.onnx.select import select

__all__ = []

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


def int64(ctx, name, tensor):
    """`name` as int64 (shapes, indices)."""
    return name if tensor.dtype.name == "int64" else ctx.b.cast(name, "int64")


@rule("Const")
def _const(ctx, node, ins):
    return [ctx.b.const(node.attrs["value"], name=node.name)]


@rule("ReadVariableOp")
def _read_variable(ctx, node, ins):
    variable = node.attrs["variable"]
    found = ctx.variables.get(id(variable))
    if found is None:
        name = getattr(variable, "path", None) or variable.name.split(":")[0]
        found = ctx.variables[id(variable)] = ctx.b.root_initializer(variable.numpy(), name)
    return [found]


@rule("Reshape")
def _reshape(ctx, node, ins):
    shape = int64(ctx, ins[1], node.inputs[1])
    if ctx.b.opset >= 14:          # allowzero: a 0 in the shape means 0, as TF
        return [ctx.b.add1("Reshape", [ins[0], shape], allowzero=1)]
    known = ctx.constants.get(ins[1])
    if known is not None and 0 not in np.asarray(known).tolist():
        return [ctx.b.add1("Reshape", [ins[0], shape])]
    return [_reshape_opset13(ctx, node, ins[0], shape)]


def _reshape_opset13(ctx, node, x, shape):
    """Opset 13's Reshape copies the input's dimension for a 0 in the shape:
    a shape holding a 0 gives an empty tensor, made by ConstantOfShape."""
    dtype = node.inputs[0].dtype
    if dtype.is_string:
        raise ExportError("reshape of strings to a computed shape needs opset 14 or later "
                          "(Reshape's allowzero)")
    helper = _onnx().helper
    has_zero = ctx.b.add1("Equal", [ctx.b.add1("ReduceMin", [ctx.b.add1("Abs", [shape])],
                                               keepdims=0), ctx.b.const(np.int64(0))])
    branches = {}
    for key in ("then_branch", "else_branch"):
        inner = ctx.nested()
        if key == "then_branch":
            zero = _onnx().numpy_helper.from_array(np.zeros((1,), dtype.np_dtype))
            out = inner.b.add1("ConstantOfShape", [shape], value=zero)
        else:
            out = inner.b.add1("Reshape", [x, shape])
        info = helper.make_tensor_value_info(out, onnx_type(dtype), None)
        branches[key] = helper.make_graph(inner.b.nodes, ctx.b.names.fresh(key), [], [info])
    return ctx.b.add1("If", [has_zero], **branches)


@rule("ExpandDims")
def _expand_dims(ctx, node, ins):
    return [ctx.b.add1("Unsqueeze", [ins[0], ctx.b.ints([node.attrs["axis"]], "axes")])]


@rule("Squeeze")
def _squeeze(ctx, node, ins):
    axis = node.attrs["axis"]
    if axis is None or len(axis) == 0:
        return [ctx.b.add1("Squeeze", ins)]
    return [ctx.b.add1("Squeeze", [ins[0], ctx.b.ints(list(axis), "axes")])]


@rule("Transpose")
def _transpose(ctx, node, ins):
    perm = node.attrs["perm"]
    if perm is None:
        return [ctx.b.add1("Transpose", ins)]
    return [ctx.b.add1("Transpose", ins, perm=[int(p) for p in perm])]


@rule("ConcatV2")
def _concat(ctx, node, ins):
    return [ctx.b.add1("Concat", ins, axis=int(node.attrs["axis"]))]


@rule("Pack")
def _pack(ctx, node, ins):
    axis = int(node.attrs["axis"])
    axes = ctx.b.ints([axis], "axes")
    parts = [ctx.b.add1("Unsqueeze", [x, axes]) for x in ins]
    return [ctx.b.add1("Concat", parts, axis=axis)]


@rule("Unpack")
def _unpack(ctx, node, ins):
    num, axis = int(node.attrs["num"]), int(node.attrs["axis"])
    parts = split(ctx, ins[0], axis, num)
    axes = ctx.b.ints([axis], "axes")
    return [ctx.b.add1("Squeeze", [p, axes]) for p in parts]


def split(ctx, x, axis, num, sizes=None):
    """Split `x` along `axis` into `num` parts (equal, or of `sizes`)."""
    if num == 1 and sizes is None:
        return [ctx.b.add1("Identity", [x])]
    inputs = [x] if sizes is None else [x, sizes]
    outs = ctx.b.add("Split", inputs, num, axis=axis)
    if ctx.b.opset >= 18 and sizes is None:     # an attribute Builder.add cannot name
        ctx.b.nodes[-1].attribute.append(_onnx().helper.make_attribute("num_outputs", num))
    return outs


@rule("Split")
def _split(ctx, node, ins):
    return split(ctx, ins[0], int(node.attrs["axis"]), int(node.attrs["num_split"]))


@rule("SplitV")
def _split_v(ctx, node, ins):
    axis = int(node.attrs["axis"])
    known = ctx.constants.get(ins[1])
    sizes = int64(ctx, ins[1], node.inputs[1])
    if known is None or -1 in np.asarray(known).tolist():
        # one size may be -1: what the others leave of the axis
        dim = ctx.b.add1("Gather", [ctx.b.add1("Shape", [ins[0]]), ctx.b.ints([axis])])
        rest = ctx.b.add1("Sub", [dim, ctx.b.add1("Add", [reduce_sum(ctx, sizes),
                                                          ctx.b.ints([1])])])
        minus_one = ctx.b.add1("Equal", [sizes, ctx.b.ints([-1])])
        sizes = ctx.b.add1("Where", [minus_one, rest, sizes])
    return split(ctx, ins[0], axis, int(node.attrs["num_split"]), sizes)


def reduce_sum(ctx, x):
    """The sum of every element of `x`, as a 1-element vector."""
    return ctx.b.add1("ReduceSum", [x], keepdims=1)


@rule("Tile")
def _tile(ctx, node, ins):
    return [ctx.b.add1("Tile", [ins[0], int64(ctx, ins[1], node.inputs[1])])]


@rule("Fill")
def _fill(ctx, node, ins):
    return [ctx.b.add1("Expand", [ins[1], int64(ctx, ins[0], node.inputs[0])])]


def _filled_like(ctx, node, ins, value):
    dtype = node.attrs.get("dtype") or node.inputs[0].dtype
    shape = ctx.b.add1("Shape", [ins[0]])
    return [ctx.b.add1("Expand", [ctx.b.const(np.full((), value, dtype.np_dtype)), shape])]


@rule("ZerosLike")
def _zeros_like(ctx, node, ins):
    return _filled_like(ctx, node, ins, 0)


@rule("OnesLike")
def _ones_like(ctx, node, ins):
    return _filled_like(ctx, node, ins, 1)


@rule("BroadcastTo")
def _broadcast_to(ctx, node, ins):
    return [ctx.b.add1("Expand", [ins[0], int64(ctx, ins[1], node.inputs[1])])]


@rule("GatherV2")
def _gather(ctx, node, ins):
    if node.attrs.get("batch_dims", 0):
        return [_batched_gather(ctx, node, ins)]
    return [ctx.b.add1("Gather", ins, axis=int(node.attrs["axis"]))]


def _batched_gather(ctx, node, ins):
    """gather(params, indices, axis=a, batch_dims=b): GatherND over the first
    b (batch) dims with the gathered axis moved next to them, then the axes
    between b and a moved back in front of the indices' dims."""
    params, indices = node.inputs
    p_rank, i_rank = params.shape.rank, indices.shape.rank
    if p_rank is None or i_rank is None:
        raise ExportError("gather with batch_dims of tensors of unknown rank")
    b = int(node.attrs["batch_dims"])
    b = b + i_rank if b < 0 else b
    a = int(node.attrs["axis"]) % p_rank
    x = ins[0]
    if a != b:                         # params [B, m..., n, r...] -> [B, n, m..., r...]
        perm = list(range(b)) + [a] + list(range(b, a)) + list(range(a + 1, p_rank))
        x = ctx.b.add1("Transpose", [x], perm=perm)
    index = ctx.b.add1("Unsqueeze", [int64(ctx, ins[1], indices), ctx.b.ints([-1])])
    y = ctx.b.add1("GatherND", [x, index], batch_dims=b)   # [B, I..., m..., r...]
    if a == b:
        return y
    moved = a - b
    n_idx = i_rank - b
    perm = (list(range(b)) + list(range(b + n_idx, b + n_idx + moved))
            + list(range(b, b + n_idx)) + list(range(b + n_idx + moved, p_rank - 1 + n_idx)))
    return ctx.b.add1("Transpose", [y], perm=perm)


@rule("GatherNd")
def _gather_nd(ctx, node, ins):
    indices = int64(ctx, ins[1], node.inputs[1])
    return [ctx.b.add1("GatherND", [ins[0], indices], batch_dims=int(node.attrs["batch_dims"]))]


@rule("Range")
def _range(ctx, node, ins):
    return [ctx.b.add1("Range", ins)]


@rule("Shape")
def _shape(ctx, node, ins):
    return [ctx.b.cast(ctx.b.add1("Shape", ins), node.attrs["out_type"])]


@rule("Size")
def _size(ctx, node, ins):
    return [ctx.b.cast(ctx.b.add1("Size", ins), node.attrs["out_type"])]


@rule("Rank")
def _rank(ctx, node, ins):
    rank = ctx.b.add1("Size", [ctx.b.add1("Shape", ins)])
    return [ctx.b.cast(rank, node.attrs["out_type"])]


@rule("Slice")
def _slice(ctx, node, ins):
    x, begin, size = ins
    begin = int64(ctx, begin, node.inputs[1])
    size = int64(ctx, size, node.inputs[2])
    to_end = ctx.b.add1("Equal", [size, ctx.b.const(np.int64(-1))])
    end = ctx.b.add1("Where", [to_end, ctx.b.const(np.int64(INT64_MAX)),
                               ctx.b.add1("Add", [begin, size])])
    return [ctx.b.add1("Slice", [x, begin, end])]


@rule("PadV2")
def _pad(ctx, node, ins):
    x, paddings, value = ins
    if node.inputs[0].shape.rank == 0:               # nothing to pad (ONNX Runtime refuses)
        return [ctx.b.add1("Identity", [x])]
    pads = _onnx_pads(ctx, paddings, node.inputs[1])
    return [ctx.b.add1("Pad", [x, pads, value], mode="constant")]


@rule("MirrorPad")
def _mirror_pad(ctx, node, ins):
    mode = str(node.attrs["mode"]).lower()
    if mode == "symmetric":
        return [_symmetric_pad(ctx, node, ins)]
    if mode != "reflect":
        raise ExportError(f"MirrorPad mode {mode!r} (ONNX's Pad reflects only)")
    return [ctx.b.add1("Pad", [ins[0], _onnx_pads(ctx, ins[1], node.inputs[1])],
                       mode="reflect")]


def _symmetric_pad(ctx, node, ins):
    """SYMMETRIC padding (the edge repeated), axis by axis from constant
    paddings: concat(reverse(x[:before]), x, reverse(x[-after:]))."""
    paddings = ctx.constants.get(ins[1])
    if paddings is None:
        raise ExportError("SYMMETRIC padding by a computed amount (ONNX's Pad has no "
                          "symmetric mode): pass the paddings as constants")
    y = ins[0]
    for axis, (before, after) in enumerate(np.asarray(paddings).tolist()):
        parts = [y]
        if before:
            head = ctx.b.add1("Slice", [y, ctx.b.ints([0]), ctx.b.ints([before]),
                                        ctx.b.ints([axis])])
            parts.insert(0, _reversed(ctx, head, axis))
        if after:
            tail = ctx.b.add1("Slice", [y, ctx.b.ints([-after]), ctx.b.ints([INT64_MAX]),
                                        ctx.b.ints([axis])])
            parts.append(_reversed(ctx, tail, axis))
        if len(parts) > 1:
            y = ctx.b.add1("Concat", parts, axis=axis)
    return y if y != ins[0] else ctx.b.add1("Identity", [y])


def _reversed(ctx, x, axis):
    return ctx.b.add1("Slice", [x, ctx.b.ints([-1]), ctx.b.ints([INT64_MIN]), ctx.b.ints([axis]),
                                ctx.b.ints([-1])])


def _onnx_pads(ctx, paddings, tensor):
    """TF's [rank, 2] paddings as ONNX's [begins..., ends...]."""
    as64 = int64(ctx, paddings, tensor)
    return ctx.b.add1("Reshape", [ctx.b.add1("Transpose", [as64], perm=[1, 0]),
                                  ctx.b.ints([-1])])


@rule("OneHot")
def _one_hot(ctx, node, ins):
    """Equal(indices, range(depth)) chooses on_value or off_value: a negative or
    too large index gives a row of off_value, as TF (ONNX's OneHot counts
    negative indices from the end, and ONNX Runtime lacks most of its types)."""
    a = node.attrs
    depth, rank = int(a["depth"]), node.inputs[0].shape.rank
    if rank is None:
        raise ExportError("one_hot of indices of unknown rank")
    axis = int(a["axis"])
    axis = rank if axis == -1 else axis
    positions = np.arange(depth, dtype=np.int64).reshape([depth] + [1] * (rank - axis))
    indices = ctx.b.add1("Unsqueeze", [int64(ctx, ins[0], node.inputs[0]), ctx.b.ints([axis])])
    hit = ctx.b.add1("Equal", [indices, ctx.b.const(positions, name="positions")])
    dtype = a["dtype"].np_dtype
    return [select(ctx, hit, ctx.b.const(np.asarray(a["on_value"], dtype)),
                   ctx.b.const(np.asarray(a["off_value"], dtype)), a["dtype"])]


@rule("ReverseV2")
def _reverse(ctx, node, ins):
    axes = [int(a) for a in node.attrs["axis"]]
    if not axes:
        return [ctx.b.add1("Identity", ins)]
    n = len(axes)
    return [ctx.b.add1("Slice", [ins[0], ctx.b.ints([-1] * n), ctx.b.ints([INT64_MIN] * n),
                                 ctx.b.ints(axes), ctx.b.ints([-1] * n)])]


@rule("Where")
def _where(ctx, node, ins):
    return [ctx.b.add1("Transpose", [ctx.b.add1("NonZero", ins)], perm=[1, 0])]


@rule("TopKV2")
def _top_k(ctx, node, ins):
    k = ctx.b.add1("Reshape", [int64(ctx, ins[1], node.inputs[1]), ctx.b.ints([1])])
    x = ins[0]
    dtype = node.inputs[0].dtype
    if dtype.is_floating:      # NaN ranks below every number, as ours (ONNX: above)
        low = ctx.b.const(np.asarray(-np.inf, dtype.np_dtype))
        x = ctx.b.add1("Where", [ctx.b.add1("IsNaN", [x]), low, x])
    values, indices = ctx.b.add("TopK", [x, k], 2, axis=-1, largest=1, sorted=1)
    if dtype.is_floating:      # the values themselves, NaN included
        values = ctx.b.add1("GatherElements", [ins[0], indices], axis=-1)
    return [values, ctx.b.cast(indices, node.attrs["index_type"])]


@rule("Einsum")
def _einsum(ctx, node, ins):
    return [ctx.b.add1("Einsum", ins, equation=node.attrs["equation"])]


@rule("StridedSlice")
def _strided_slice(ctx, node, ins):
    x, dynamic = ins[0], ins[1:]
    rank = node.inputs[0].shape.rank
    if rank is None:
        raise ExportError("indexing a tensor of unknown rank")
    spec = node.attrs["spec"]
    consuming = sum(1 for s in spec if s[0] in ("index", "slice"))
    starts, ends, axes, steps, squeeze, newaxes = [], [], [], [], [], []
    dim = out = 0
    for part in spec:
        kind = part[0]
        if kind == "ellipsis":
            dim += rank - consuming
            out += rank - consuming
        elif kind == "newaxis":
            newaxes.append(out)
            out += 1
        elif kind == "index":
            start = _bound(ctx, part[1], dynamic, node)
            starts.append(start)
            ends.append(_after_index(ctx, start))
            steps.append(1)
            axes.append(dim)
            squeeze.append(dim)
            dim += 1
        else:
            step = part[3] if part[3] is not None else 1
            if isinstance(step, tuple):
                raise ExportError("a slice step that is a tensor")
            if step == 0:
                raise ExportError("a slice step of zero")
            start_default, end_default = (0, INT64_MAX) if step > 0 else (INT64_MAX, INT64_MIN)
            starts.append(start_default if part[1] is None else _bound(ctx, part[1], dynamic, node))
            ends.append(end_default if part[2] is None else _bound(ctx, part[2], dynamic, node))
            steps.append(step)
            axes.append(dim)
            dim += 1
            out += 1
    y = x
    if axes:
        y = ctx.b.add1("Slice", [x, _vector(ctx, starts), _vector(ctx, ends), ctx.b.ints(axes),
                                 ctx.b.ints(steps)])
    if squeeze:
        y = ctx.b.add1("Squeeze", [y, ctx.b.ints(squeeze)])
    if newaxes:
        y = ctx.b.add1("Unsqueeze", [y, ctx.b.ints(newaxes)])
    if y is x:
        y = ctx.b.add1("Identity", [x])
    return [y]


def _bound(ctx, value, dynamic, node):
    """A static int, or the int64 name of a dynamic index ('input', k)."""
    if isinstance(value, tuple):
        k = value[1]
        return ctx.b.add1("Reshape", [int64(ctx, dynamic[k - 1], node.inputs[k]), ctx.b.ints([1])])
    return int(value)


def _after_index(ctx, start):
    if isinstance(start, int):
        return INT64_MAX if start == -1 else start + 1
    last = ctx.b.add1("Equal", [start, ctx.b.ints([-1])])
    return ctx.b.add1("Where", [last, ctx.b.ints([INT64_MAX]),
                                ctx.b.add1("Add", [start, ctx.b.ints([1])])])


def _vector(ctx, items):
    if all(isinstance(i, int) for i in items):
        return ctx.b.ints(items)
    parts = [ctx.b.ints([i]) if isinstance(i, int) else i for i in items]
    return ctx.b.add1("Concat", parts, axis=0)
