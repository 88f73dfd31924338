"""`select(ctx, cond, a, b, dtype)`: ONNX's Where for every dtype, and
`is_inf(ctx, x, dtype)`: IsInf for every float type (ONNX's IsInf takes no
float16 before opset 20: |x| == inf instead).

ONNX Runtime 1.23's Where has no kernel for bool, int16, uint16 and uint64
values, so those go through an exact detour:

    bool            ->  (cond and a) or (not cond and b)
    int16, uint16   ->  Where on int32, cast back
    uint64          ->  Where on int64 (the same bits), cast back
"""


import numpy as np

__all__ = ["is_inf", "select"]

_THROUGH = {"int16": "int32", "uint16": "int32", "uint64": "int64"}   # exact detours


def select(ctx, cond, a, b, dtype):
    """Where(cond, a, b) for values of `dtype` (one of our DTypes)."""
    name = getattr(dtype, "name", str(dtype))
    if name == "bool":
        return ctx.b.add1("Or", [ctx.b.add1("And", [cond, a]),
                                 ctx.b.add1("And", [ctx.b.add1("Not", [cond]), b])])
    through = _THROUGH.get(name)
    if through is None:
        return ctx.b.add1("Where", [cond, a, b])
    out = ctx.b.add1("Where", [cond, ctx.b.cast(a, through), ctx.b.cast(b, through)])
    return ctx.b.cast(out, dtype)


def is_inf(ctx, x, dtype):
    """IsInf(x) for a float tensor of `dtype`."""
    if dtype.name != "float16" or ctx.b.opset >= 20:
        return ctx.b.add1("IsInf", [x])
    return ctx.b.add1("Equal", [ctx.b.add1("Abs", [x]),
                                ctx.b.const(np.asarray(np.inf, dtype.np_dtype))])
