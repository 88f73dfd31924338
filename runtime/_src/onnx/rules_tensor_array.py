"""ONNX rules of the TensorArray ops: a TensorArray is an ONNX sequence.

    TensorArray(size=n)   ->  n placeholder elements (empty tensors) so that a
                              write at any index below n lands in place
    ta.write(i, v)        ->  i < length ? Insert(Erase(seq, i), v, i)
                                         : Insert(seq, v)   (appending)
    ta.read(i)            ->  SequenceAt(seq, i)
    ta.stack()            ->  ConcatFromSequence(seq, axis=0, new_axis=1)
    ta.unstack(v)         ->  SplitToSequence(v, axis=0, keepdims=0)
    ta.size()             ->  SequenceLength(seq)

Writes in any order (reversed, or reading earlier elements while writing
later ones) keep TensorFlow's meaning: a write replaces the element at its
index. A dynamically sized TensorArray written past its end leaving a gap
(writing index 5 of an array of 3) is refused at run time by ONNX Runtime
(SequenceInsert's position out of range), not filled silently.
"""

import numpy as np

from runtime._src.core.tensor_shape import TensorShape
from runtime._src.onnx.builder import _onnx, onnx_type
from runtime._src.onnx.convert import rule

__all__ = []


def _sequence(ctx, name, dtype, element_shape):
    """Mark `name` a sequence of `dtype` elements of (static) `element_shape`."""
    if element_shape is not None and TensorShape(element_shape).dims is None:
        element_shape = None         # nothing known yet: the first write decides
    ctx.sequences[name] = (getattr(dtype, "np_dtype", dtype),
                           None if element_shape is None else TensorShape(element_shape))
    return name


def _written(ctx, seq, value_tensor):
    """(dtype, element shape) of `seq` after writing `value_tensor` into it."""
    dtype, shape = ctx.sequences[seq]
    if shape is None:
        return dtype, TensorShape(value_tensor.shape)
    return dtype, shape.most_specific_compatible_shape(value_tensor.shape)


@rule("TensorArrayV3")
def _create(ctx, node, ins):
    dtype, shape = node.attrs["dtype"], node.attrs["element_shape"]
    size = node.inputs[0]
    static = _static_value(node.inputs[0])
    if static == 0:
        return [_sequence(ctx, ctx.b.add1("SequenceEmpty", [], dtype=onnx_type(dtype)), dtype,
                          shape)]
    n = ctx.b.add1("Reshape", [ctx.b.cast(ins[0], "int64") if size.dtype.name != "int64"
                               else ins[0], ctx.b.ints([1])])
    dims = ctx.b.add1("Concat", [n, ctx.b.ints([0])], axis=0)
    zero = _onnx().numpy_helper.from_array(np.zeros((1,), dtype.np_dtype))
    empties = ctx.b.add1("ConstantOfShape", [dims], value=zero)
    seq = ctx.b.add1("SplitToSequence", [empties], axis=0, keepdims=0)
    return [_sequence(ctx, seq, dtype, shape)]


def _static_value(tensor):
    node = tensor.node
    if node.op == "Const":
        return int(node.attrs["value"])
    return None


@rule("TensorArrayWriteV3")
def _write(ctx, node, ins):
    seq, index, value = ins
    dtype, shape = _written(ctx, seq, node.inputs[2])
    index = ctx.b.cast(index, "int64") if node.inputs[1].dtype.name != "int64" else index
    length = ctx.b.add1("SequenceLength", [seq])
    inside = ctx.b.add1("Less", [index, length])
    helper = _onnx().helper
    branches = {}
    for key, build in (("then_branch", _replace), ("else_branch", _append)):
        inner = ctx.nested()
        out = build(inner, seq, index, value)
        info = helper.make_tensor_sequence_value_info(out, onnx_type(dtype), None)
        branches[key] = helper.make_graph(inner.b.nodes, ctx.b.names.fresh(key), [], [info])
    return [_sequence(ctx, ctx.b.add1("If", [inside], **branches), dtype, shape)]


def _replace(ctx, seq, index, value):
    erased = ctx.b.add1("SequenceErase", [seq, index])
    return ctx.b.add1("SequenceInsert", [erased, value, index])


def _append(ctx, seq, index, value):
    return ctx.b.add1("SequenceInsert", [seq, value, index])


@rule("TensorArrayReadV3")
def _read(ctx, node, ins):
    return [ctx.b.add1("SequenceAt", ins)]


def _unless_empty(ctx, node, seq, build, empty_shape):
    """`build(ctx, seq)` when the sequence has elements, else zeros of
    `empty_shape` (what our kernels return for an empty TensorArray; ONNX's
    ConcatFromSequence refuses an empty sequence)."""
    helper = _onnx().helper
    dtype = node.attrs["dtype"]
    length = ctx.b.add1("SequenceLength", [seq])
    empty = ctx.b.add1("Equal", [length, ctx.b.const(np.int64(0))])
    branches = {}
    for key in ("then_branch", "else_branch"):
        inner = ctx.nested()
        if key == "then_branch":
            out = inner.b.const(np.zeros(empty_shape, dtype.np_dtype), name="empty")
        else:
            out = build(inner, seq)
        out = inner.b.add1("Identity", [out], name=f"{key}_out")
        info = helper.make_tensor_value_info(out, onnx_type(dtype), None)
        branches[key] = helper.make_graph(inner.b.nodes, ctx.b.names.fresh(key), [], [info])
    return ctx.b.add1("If", [empty], **branches)


def _static_element_dims(node):
    dims = node.attrs["element_shape"].dims
    return () if dims is None or None in dims else tuple(dims)


@rule("TensorArrayStackV3")
def _stack(ctx, node, ins):
    def build(inner, seq):
        return inner.b.add1("ConcatFromSequence", [seq], axis=0, new_axis=1)
    out = _unless_empty(ctx, node, ins[0], build, (0,) + _static_element_dims(node))
    element = ctx.sequences[ins[0]][1]
    if element is not None and element.dims is not None:
        ctx.shapes[out] = TensorShape((None,) + tuple(element.dims))
    return [out]


@rule("TensorArrayConcatV3")
def _concat(ctx, node, ins):
    def build(inner, seq):
        return inner.b.add1("ConcatFromSequence", [seq], axis=0, new_axis=0)
    return [_unless_empty(ctx, node, ins[0], build, (0,))]


@rule("TensorArrayGatherV3")
def _gather(ctx, node, ins):
    stacked = ctx.b.add1("ConcatFromSequence", [ins[0]], axis=0, new_axis=1)
    return [ctx.b.add1("Gather", [stacked, ins[1]], axis=0)]


@rule("TensorArrayUnstackV3")
def _unstack(ctx, node, ins):
    dtype = ctx.sequences[ins[0]][0]
    dims = node.inputs[1].shape.dims
    shape = TensorShape(None if dims is None else dims[1:])
    return [_sequence(ctx, ctx.b.add1("SplitToSequence", [ins[1]], axis=0, keepdims=0), dtype,
                      shape)]


@rule("TensorArraySplitV3")
def _split(ctx, node, ins):
    dtype = ctx.sequences[ins[0]][0]
    dims = node.inputs[1].shape.dims
    shape = TensorShape(None if dims is None else (None,) + tuple(dims[1:]))
    lengths = ctx.b.cast(ins[2], "int64")
    return [_sequence(ctx, ctx.b.add1("SplitToSequence", [ins[1], lengths], axis=0), dtype,
                      shape)]


@rule("TensorArraySizeV3")
def _size(ctx, node, ins):
    return [ctx.b.cast(ctx.b.add1("SequenceLength", ins), "int32")]
