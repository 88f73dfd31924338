"""Small integer types through int32, where ONNX or ONNX Runtime 1.23 has no
kernel for them (ReduceSum, CumSum and MatMul take no int8/int16/uint8,
Max/Min/ArgMax/Pad/Relu none for int16, Neg no unsigned type ...):

    Sum(x: int8)  ->  Cast(ReduceSum(Cast(x, int32)), int8)

Exact: sums, products and powers wrap the same modulo 2^8 or 2^16 whether
computed in int32 or in the small type (as TF's kernels do), and the others
only compare or move values. Each rule in `WIDENED` keeps its own lowering;
`widen()` wraps it, casting the inputs of the small type to int32 and the
outputs of that type back.
"""

from runtime._src.onnx.convert import RULES

__all__ = ["WIDENED", "widen"]

SMALL = frozenset({"int8", "int16", "uint8", "uint16"})

# our op -> which of its inputs hold the values (the others: shapes, axes; None: all)
WIDENED = {
    "Sum": (0,), "Prod": (0,), "Max": (0,), "Min": (0,), "Cumsum": (0,), "ArgMax": (0,),
    "ArgMin": (0,), "Maximum": (0, 1), "Minimum": (0, 1), "ClipByValue": (0, 1, 2),
    "MatMul": (0, 1), "BatchMatMulV2": (0, 1), "Pow": (0, 1), "Neg": (0,),
    "PadV2": (0, 2), "MirrorPad": (0,),
}


def widen(lower, positions):
    """The rule `lower`, run on int32 copies of small-integer inputs."""
    def widened(ctx, node, ins):
        dtype = node.inputs[0 if positions is None else positions[0]].dtype
        if dtype.name not in SMALL:
            return lower(ctx, node, ins)
        ins = [ctx.b.cast(name, "int32") if positions is None or k in positions else name
               for k, name in enumerate(ins)]
        outs = lower(ctx, node, ins)
        return [ctx.b.cast(name, t.dtype) if t.dtype.name in SMALL else name
                for name, t in zip(outs, node.outputs)]
    widened.__name__ = getattr(lower, "__name__", "rule")
    return widened


# before opset 14, Add, Sub, Mul and Div take no 8- or 16-bit integers either
BEFORE_14 = {"AddV2": (0, 1), "Sub": (0, 1), "Mul": (0, 1), "FloorDiv": (0, 1),
             "FloorMod": (0, 1), "TruncateDiv": (0, 1), "TruncateMod": (0, 1),
             "SquaredDifference": (0, 1), "Square": (0,), "AddN": None}


def widen_before_14(lower, positions):
    wide = widen(lower, positions)

    def widened(ctx, node, ins):
        return (wide if ctx.b.opset < 14 else lower)(ctx, node, ins)
    widened.__name__ = getattr(lower, "__name__", "rule")
    return widened


for _op, _positions in WIDENED.items():
    if _op in RULES:
        RULES[_op] = widen(RULES[_op], _positions)
for _op, _positions in BEFORE_14.items():
    if _op in RULES:
        RULES[_op] = widen_before_14(RULES[_op], _positions)
