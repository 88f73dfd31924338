"""ONNX rule of TensorArray.scatter: one write per index, in an ONNX Loop.

    ta.scatter(indices, value)  ->  Loop(len(indices), seq):
                                        i, v = indices[k], value[k]
                                        seq = i < length ? Insert(Erase(seq, i), v, i)
                                                         : Insert(seq, v, i)

as the writes of rules_tensor_array.py (a later index writes over an earlier
one, as our kernel's writes in order).
"""

from runtime._src.core.tensor_shape import TensorShape
from runtime._src.onnx.builder import _onnx, onnx_type
from runtime._src.onnx.convert import rule

__all__ = []


def _write_branches(ctx, seq, index, value, dtype):
    """then: replace the element at `index`; else: insert it there (append)."""
    helper = _onnx().helper
    branches = {}
    for key in ("then_branch", "else_branch"):
        inner = ctx.nested()
        source = seq
        if key == "then_branch":
            source = inner.b.add1("SequenceErase", [seq, index])
        out = inner.b.add1("SequenceInsert", [source, value, index])
        info = helper.make_tensor_sequence_value_info(out, onnx_type(dtype), None)
        branches[key] = helper.make_graph(inner.b.nodes, ctx.b.names.fresh(key), [], [info])
    return branches


@rule("TensorArrayScatterV3")
def _scatter(ctx, node, ins):
    seq, indices, value = ins
    dtype, shape = ctx.sequences[seq]
    dims = node.inputs[2].shape.dims
    element = TensorShape(None if dims is None else dims[1:])
    shape = element if shape is None else shape.most_specific_compatible_shape(element)
    helper = _onnx().helper
    names = ctx.b.names
    indices = ctx.b.add1("Reshape", [ctx.b.cast(indices, "int64"), ctx.b.ints([-1])])
    count = ctx.b.add1("Size", [indices])

    body = ctx.nested()
    k, go, carried = names.fresh("k"), names.fresh("cond_in"), names.fresh("seq_in")
    index = body.b.add1("Gather", [indices, k])
    item = body.b.add1("Gather", [value, k])
    inside = body.b.add1("Less", [index, body.b.add1("SequenceLength", [carried])])
    written = body.b.add1("If", [inside], **_write_branches(body, carried, index, item, dtype))
    go_out = body.b.add1("Identity", [go], name="cond_out")
    graph = helper.make_graph(
        body.b.nodes, names.fresh(f"{node.name}_body"),
        [helper.make_tensor_value_info(k, onnx_type("int64"), []),
         helper.make_tensor_value_info(go, onnx_type("bool"), []),
         helper.make_tensor_sequence_value_info(carried, onnx_type(dtype), None)],
        [helper.make_tensor_value_info(go_out, onnx_type("bool"), []),
         helper.make_tensor_sequence_value_info(written, onnx_type(dtype), None)])
    out = ctx.b.add1("Loop", [count, "", seq], name=node.name, body=graph)
    ctx.sequences[out] = (dtype, shape)
    return [out]
