"""ONNX rules of scatters, unique and searchsorted.

    ScatterNd(i, u, shape)        ->  ScatterND(zeros(shape), i, u, reduction="add")
                                      (TF sums duplicate indices; opset >= 16)
    TensorScatterUpdate(t, i, u)  ->  ScatterND(t, i, u)
    TensorScatterAdd / Sub        ->  ScatterND(t, i, +u / -u, reduction="add")    (>= 16)
    TensorScatterMax / Min        ->  ScatterND(t, i, u, reduction="max" / "min") (>= 18)
    Unique(x)                     ->  Unique(x, sorted=0): first-occurrence order, as TF
    LowerBound(s, v)              ->  ReduceSum(s < v)  along the sequence axis
    UpperBound(s, v)              ->  ReduceSum(s <= v)

Indices become int64 (ONNX's), index outputs the int32/int64 asked for.
"""

import numpy as np

from runtime._src.onnx.builder import ExportError, _onnx
from runtime._src.onnx.convert import rule

__all__ = []


def _needs(ctx, opset, what):
    if ctx.b.opset < opset:
        raise ExportError(f"{what} needs ScatterND's reduction, in ONNX from opset {opset} on: "
                          f"export with opset={opset} or later (this export asked for "
                          f"{ctx.b.opset})")


def _int64(ctx, name, tensor):
    return name if tensor.dtype.name == "int64" else ctx.b.cast(name, "int64")


@rule("ScatterNd")
def _scatter_nd(ctx, node, ins):
    indices, updates, shape = ins
    _needs(ctx, 16, "scatter_nd (duplicate indices add up)")
    dtype = node.inputs[1].dtype
    if dtype.is_bool:
        raise ExportError("scatter_nd of bools (ONNX's ScatterND cannot add bools)")
    half = dtype.name == "float16"   # ONNX Runtime reduces no float16: in float32
    zero = _onnx().numpy_helper.from_array(np.zeros((1,), np.float32 if half else dtype.np_dtype))
    zeros = ctx.b.add1("ConstantOfShape", [_int64(ctx, shape, node.inputs[2])], value=zero)
    out = ctx.b.add1("ScatterND", [zeros, _int64(ctx, indices, node.inputs[0]),
                                   ctx.b.cast(updates, "float32") if half else updates],
                     reduction="add")
    return [ctx.b.cast(out, dtype) if half else out]


_REDUCTION = {"TensorScatterUpdate": (None, 13), "TensorScatterAdd": ("add", 16),
              "TensorScatterSub": ("add", 16), "TensorScatterMax": ("max", 18),
              "TensorScatterMin": ("min", 18)}


def _make_tensor_scatter(op):
    reduction, opset = _REDUCTION[op]

    def lower(ctx, node, ins):
        tensor, indices, updates = ins
        _needs(ctx, opset, f"{op}")
        if op == "TensorScatterSub":
            updates = ctx.b.add1("Neg", [updates])
        dtype = node.inputs[0].dtype
        half = reduction is not None and dtype.name == "float16"
        if half:             # ONNX Runtime reduces no float16: in float32, rounded once
            tensor, updates = ctx.b.cast(tensor, "float32"), ctx.b.cast(updates, "float32")
        out = ctx.b.add1("ScatterND", [tensor, _int64(ctx, indices, node.inputs[1]), updates],
                         reduction=reduction)
        return [ctx.b.cast(out, dtype) if half else out]
    return lower


for _op in _REDUCTION:
    rule(_op)(_make_tensor_scatter(_op))


# ONNX Runtime's Unique has kernels for these; other types go through one of
# them exactly
_UNIQUE_AS = {"int8": "int8", "int16": "int64", "int32": "int64", "uint8": "int64",
              "uint16": "int64", "uint32": "int64", "int64": "int64", "float16": "float32",
              "float32": "float32", "float64": "float64", "string": "string"}


def _unique(ctx, node, ins):
    dtype = node.inputs[0].dtype
    through = _UNIQUE_AS.get(dtype.name)
    if through is None:
        raise ExportError(f"unique of {dtype.name} values")
    x = ins[0] if through == dtype.name else ctx.b.cast(ins[0], through)
    y, _, inverse, counts = ctx.b.add("Unique", [x], 4, sorted=0)
    if through != dtype.name:
        y = ctx.b.cast(y, dtype)
    return y, inverse, counts


@rule("Unique")
def _unique_rule(ctx, node, ins):
    y, inverse, _ = _unique(ctx, node, ins)
    return [y, ctx.b.cast(inverse, node.outputs[1].dtype)]


@rule("UniqueWithCounts")
def _unique_with_counts(ctx, node, ins):
    y, inverse, counts = _unique(ctx, node, ins)
    return [y, ctx.b.cast(inverse, node.outputs[1].dtype),
            ctx.b.cast(counts, node.outputs[2].dtype)]


def _make_bound(compare):
    """How many of the sorted sequence come before each value; a NaN value
    sorts after every number, as numpy's and TF's sort."""
    def lower(ctx, node, ins):
        seq = ctx.b.add1("Unsqueeze", [ins[0], ctx.b.ints([-2])])
        values = ctx.b.add1("Unsqueeze", [ins[1], ctx.b.ints([-1])])
        before = ctx.b.add1(compare, [seq, values])
        if node.inputs[0].dtype.is_floating:
            nan_value = ctx.b.add1("IsNaN", [values])
            if compare == "Less":      # a NaN goes after the numbers, before the NaNs
                nan_value = ctx.b.add1("And", [nan_value, ctx.b.add1(
                    "Not", [ctx.b.add1("IsNaN", [seq])])])
            before = ctx.b.add1("Or", [before, nan_value])
        count = ctx.b.add1("ReduceSum", [ctx.b.cast(before, "int64"), ctx.b.ints([-1])],
                           keepdims=0)
        return [ctx.b.cast(count, node.outputs[0].dtype)]
    return lower


rule("LowerBound")(_make_bound("Less"))
rule("UpperBound")(_make_bound("LessOrEqual"))
