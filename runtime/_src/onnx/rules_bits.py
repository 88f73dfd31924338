"""ONNX rules of the bitwise ops, exact for every integer type.

ONNX's Bitwise* operators need opset 18 and its BitShift takes unsigned
types only, so:

    Invert(x)         ->  -1 - x  (signed, two's complement)  |  MAX - x  (unsigned)
    BitwiseAnd/Or/Xor ->  BitwiseAnd/Or/Xor (opset >= 18; bools: And/Or/Xor)
    LeftShift(x, y)   ->  as unsigned: BitShift(LEFT), the bits cast back
    RightShift(x, y)  ->  unsigned: BitShift(RIGHT); signed (arithmetic shift):
                          x < 0 ? ~(~x >> y) : x >> y
"""

import numpy as np

from runtime._src.onnx.builder import ExportError
from runtime._src.onnx.convert import rule

__all__ = []

SMALL = frozenset({"int8", "int16", "uint8", "uint16"})
_UNSIGNED = {"int8": "uint8", "int16": "uint16", "int32": "uint32", "int64": "uint64"}


def invert(ctx, x, dtype):
    """~x without a bitwise op: exact, never overflows (before opset 14, Sub
    takes no 8- or 16-bit integers: computed in int32)."""
    through = dtype.np_dtype
    if ctx.b.opset < 14 and dtype.name in SMALL:
        through, x = np.dtype(np.int32), ctx.b.cast(x, "int32")
    top = np.iinfo(dtype.np_dtype).max if dtype.name.startswith("u") else -1
    out = ctx.b.add1("Sub", [ctx.b.const(np.asarray(top, through)), x])
    return out if through == dtype.np_dtype else ctx.b.cast(out, dtype)


@rule("Invert")
def _invert(ctx, node, ins):
    return [invert(ctx, ins[0], node.inputs[0].dtype)]


def _make_bitwise(op_type, logical):
    def lower(ctx, node, ins):
        if node.inputs[0].dtype.is_bool:
            return [ctx.b.add1(logical, ins)]
        if ctx.b.opset < 18:
            raise ExportError(f"ONNX has {op_type} from opset 18 on: export with opset=18 or "
                              f"later (this export asked for {ctx.b.opset})")
        return [ctx.b.add1(op_type, ins)]
    return lower


for _ours, _logical in (("BitwiseAnd", "And"), ("BitwiseOr", "Or"), ("BitwiseXor", "Xor")):
    rule(_ours)(_make_bitwise(_ours, _logical))


def _shift(ctx, x, y, dtype, direction):
    """BitShift of `x` by `y` computed on the unsigned type of `dtype`."""
    unsigned = _UNSIGNED.get(dtype.name)
    if unsigned is None:
        return ctx.b.add1("BitShift", [x, y], direction=direction)
    out = ctx.b.add1("BitShift", [ctx.b.cast(x, unsigned), ctx.b.cast(y, unsigned)],
                     direction=direction)
    return ctx.b.cast(out, dtype)


@rule("LeftShift")
def _left_shift(ctx, node, ins):
    return [_shift(ctx, ins[0], ins[1], node.inputs[0].dtype, "LEFT")]


@rule("RightShift")
def _right_shift(ctx, node, ins):
    x, y = ins
    dtype = node.inputs[0].dtype
    if dtype.name.startswith("u"):
        return [_shift(ctx, x, y, dtype, "RIGHT")]
    negative = ctx.b.add1("Less", [x, ctx.b.const(np.zeros((), dtype.np_dtype))])
    positive = ctx.b.add1("Where", [negative, invert(ctx, x, dtype), x])
    shifted = _shift(ctx, positive, y, dtype, "RIGHT")
    return [ctx.b.add1("Where", [negative, invert(ctx, shifted, dtype), shifted])]
