"""ONNX rules of the elementwise math, comparison and reduction ops.

Where ONNX's operator differs from TensorFlow's meaning, the rule builds
TensorFlow's meaning from exact pieces:

    FloorDiv(int a, b)  ->  Div(a - Mod(a, b), b)     # ONNX Div truncates ints
    FloorMod(int a, b)  ->  Mod(a, b)                 # fmod=0: sign of b, as TF
    FloorMod(float)     ->  r = Mod(a, b, fmod=1); r + b where r != 0 and sign(r) != sign(b)
    Round               ->  Round                     # both half to even
    All / Any           ->  ReduceMin / ReduceMax over int32
"""

import numpy as np

from runtime._src.onnx.builder import ExportError
from runtime._src.onnx.convert import rule
from runtime._src.onnx.select import is_inf, select

__all__ = []

_SAME = {
    "Abs": "Abs", "Neg": "Neg", "Exp": "Exp", "Log": "Log", "Sqrt": "Sqrt", "Sin": "Sin",
    "Cos": "Cos", "Tan": "Tan", "Asin": "Asin", "Acos": "Acos", "Atan": "Atan", "Sinh": "Sinh",
    "Cosh": "Cosh", "Asinh": "Asinh", "Acosh": "Acosh", "Atanh": "Atanh", "Tanh": "Tanh",
    "Sigmoid": "Sigmoid", "Floor": "Floor", "Ceil": "Ceil", "Erf": "Erf",
    "Sign": "Sign", "Reciprocal": "Reciprocal", "Round": "Round", "Rint": "Round",
    "IsNan": "IsNaN", "LogicalNot": "Not", "Softplus": "Softplus",
    "Softsign": "Softsign", "Identity": "Identity", "StopGradient": "Identity",
}

_BINARY = {
    "AddV2": "Add", "Sub": "Sub", "Mul": "Mul", "Maximum": "Max",
    "Minimum": "Min", "Pow": "Pow", "Equal": "Equal", "Less": "Less",
    "LessEqual": "LessOrEqual", "Greater": "Greater", "GreaterEqual": "GreaterOrEqual",
    "LogicalAnd": "And", "LogicalOr": "Or",
}


def _make_unary(op_type):
    def lower(ctx, node, ins):
        if node.inputs[0].dtype.is_string:
            raise ExportError("string tensors have no ONNX arithmetic")
        return [ctx.b.add1(op_type, ins)]
    return lower


def _make_binary(op_type):
    def lower(ctx, node, ins):
        if node.inputs[0].dtype.is_string and op_type != "Equal":
            raise ExportError("string tensors have no ONNX arithmetic")
        return [ctx.b.add1(op_type, ins)]
    return lower


for _ours, _theirs in _SAME.items():
    rule(_ours)(_make_unary(_theirs))
for _ours, _theirs in _BINARY.items():
    rule(_ours)(_make_binary(_theirs))


@rule("CustomGradient")
def _custom_gradient(ctx, node, ins):
    """tf.custom_gradient's forward: its first `num_results` inputs, unchanged."""
    return [ctx.b.add1("Identity", [x]) for x in ins[:node.attrs["num_results"]]]


@rule("NotEqual")
def _not_equal(ctx, node, ins):
    return [ctx.b.add1("Not", [ctx.b.add1("Equal", ins)])]


def _one(ctx, node):
    return ctx.b.const(np.ones((), node.inputs[0].dtype.np_dtype))


@rule("Square")
def _square(ctx, node, ins):
    return [ctx.b.add1("Mul", [ins[0], ins[0]])]


@rule("Rsqrt")
def _rsqrt(ctx, node, ins):
    return [ctx.b.add1("Reciprocal", [ctx.b.add1("Sqrt", ins)])]


def expm1(ctx, x, dtype):
    """Kahan's exact form (exp(x) - 1 alone loses every digit for small x):
    u = exp(x); u == 1 ? x : u - 1 == -1 ? -1 : u is inf ? u : (u - 1) * x / log(u)"""
    b = ctx.b
    one = b.const(np.ones((), dtype.np_dtype))
    u = b.add1("Exp", [x])
    d = b.add1("Sub", [u, one])
    ratio = b.add1("Div", [b.add1("Mul", [d, x]), b.add1("Log", [u])])
    minus_one = b.const(np.asarray(-1, dtype.np_dtype))
    out = b.add1("Where", [is_inf(ctx, u, dtype), u, ratio])
    out = b.add1("Where", [b.add1("Equal", [d, minus_one]), minus_one, out])
    return b.add1("Where", [b.add1("Equal", [u, one]), x, out])


@rule("Expm1")
def _expm1(ctx, node, ins):
    return [expm1(ctx, ins[0], node.inputs[0].dtype)]


def _exponential_linear(ctx, node, x, scale, alpha):
    """x < 0 ? scale * alpha * expm1(x) : scale * x, as ours and TF (ONNX
    Runtime's Elu and Selu compute exp(x) - 1, losing small x)."""
    dtype = node.inputs[0].dtype
    const = lambda v: ctx.b.const(np.asarray(v, dtype.np_dtype))
    negative = ctx.b.add1("Less", [x, const(0)])
    low = expm1(ctx, x, dtype)
    high = x
    if scale != 1 or alpha != 1:
        low = ctx.b.add1("Mul", [const(dtype.np_dtype.type(scale) * dtype.np_dtype.type(alpha)),
                                 low])
        high = ctx.b.add1("Mul", [const(scale), x])
    return ctx.b.add1("Where", [negative, low, high])


@rule("Elu")
def _elu(ctx, node, ins):
    return [_exponential_linear(ctx, node, ins[0], 1, 1)]


@rule("Selu")
def _selu(ctx, node, ins):
    return [_exponential_linear(ctx, node, ins[0], _SELU_SCALE, _SELU_ALPHA)]


_SELU_SCALE, _SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717


@rule("Log1p")
def _log1p(ctx, node, ins):
    """Kahan's exact form (log(1 + x) alone loses every digit for small x):
    u = 1 + x; u == 1 ? x : u is inf ? log(u) : x * log(u) / (u - 1)"""
    x, b = ins[0], ctx.b
    u = b.add1("Add", [x, _one(ctx, node)])
    log_u = b.add1("Log", [u])
    ratio = b.add1("Div", [b.add1("Mul", [x, log_u]), b.add1("Sub", [u, _one(ctx, node)])])
    out = b.add1("Where", [is_inf(ctx, u, node.inputs[0].dtype), log_u, ratio])
    return [b.add1("Where", [b.add1("Equal", [u, _one(ctx, node)]), x, out])]


@rule("IsInf")
def _is_inf(ctx, node, ins):
    return [is_inf(ctx, ins[0], node.inputs[0].dtype)]


@rule("Relu")
def _relu(ctx, node, ins):
    if node.inputs[0].dtype.is_floating:
        return [ctx.b.add1("Relu", ins)]
    dtype = node.inputs[0].dtype          # ONNX Runtime: no int64 Relu, no int16 Max
    x = ctx.b.cast(ins[0], "int32") if dtype.name in ("int16", "uint16") else ins[0]
    zero = ctx.b.const(np.zeros((), "int32" if x != ins[0] else dtype.np_dtype))
    out = ctx.b.add1("Max", [x, zero])
    return [out if x == ins[0] else ctx.b.cast(out, dtype)]


@rule("Relu6")
def _relu6(ctx, node, ins):
    dtype = node.inputs[0].dtype.np_dtype
    return [ctx.b.add1("Clip", [ins[0], ctx.b.const(np.zeros((), dtype)),
                                ctx.b.const(np.full((), 6, dtype))])]


@rule("LeakyRelu")
def _leaky_relu(ctx, node, ins):
    dtype = node.inputs[0].dtype
    if dtype.name != "float64":
        return [ctx.b.add1("LeakyRelu", ins, alpha=float(node.attrs["alpha"]))]
    # ONNX Runtime has float64 LeakyRelu only for opsets 16..20: x < 0 ? alpha * x : x
    x = ins[0]
    negative = ctx.b.add1("Less", [x, ctx.b.const(np.float64(0))])
    scaled = ctx.b.add1("Mul", [x, ctx.b.const(np.float64(node.attrs["alpha"]))])
    return [ctx.b.add1("Where", [negative, scaled, x])]


@rule("SquaredDifference")
def _squared_difference(ctx, node, ins):
    d = ctx.b.add1("Sub", ins)
    return [ctx.b.add1("Mul", [d, d])]


@rule("FloorDiv")
def _floor_div(ctx, node, ins):
    a, b = ins
    if node.inputs[0].dtype.is_integer:
        exact = ctx.b.add1("Sub", [a, ctx.b.add1("Mod", [a, b], fmod=0)])
        return [ctx.b.add1("Div", [exact, b])]
    return [ctx.b.add1("Floor", [ctx.b.add1("Div", [a, b])])]


@rule("FloorMod")
def _floor_mod(ctx, node, ins):
    a, b = ins
    if node.inputs[0].dtype.is_integer:
        return [ctx.b.add1("Mod", [a, b], fmod=0)]
    # as TF's kernel: r = fmod(a, b), plus b where r is nonzero and its sign is
    # not b's (a - floor(a / b) * b loses tiny remainders and gives NaN for b = inf)
    zero = ctx.b.const(np.zeros((), node.inputs[0].dtype.np_dtype))
    r = ctx.b.add1("Mod", [a, b], fmod=1)
    differ = ctx.b.add1("Xor", [ctx.b.add1("Less", [r, zero]), ctx.b.add1("Less", [b, zero])])
    adjust = ctx.b.add1("And", [differ, ctx.b.add1("Not", [ctx.b.add1("Equal", [r, zero])])])
    return [ctx.b.add1("Where", [adjust, ctx.b.add1("Add", [r, b]), r])]


@rule("TruncateDiv")
def _truncate_div(ctx, node, ins):
    q = ctx.b.add1("Div", ins)
    if node.inputs[0].dtype.is_integer:
        return [q]                                   # ONNX's integer Div truncates
    negative = ctx.b.add1("Less", [q, ctx.b.const(np.zeros((), node.inputs[0].dtype.np_dtype))])
    return [ctx.b.add1("Where", [negative, ctx.b.add1("Ceil", [q]), ctx.b.add1("Floor", [q])])]


@rule("RealDiv")
def _real_div(ctx, node, ins):
    """x / y; integer inputs divide as the output's float type (TF's truediv)."""
    out = node.outputs[0].dtype
    if node.inputs[0].dtype != out:
        ins = [ctx.b.cast(x, out) for x in ins]
    return [ctx.b.add1("Div", ins)]


@rule("TruncateMod")
def _truncate_mod(ctx, node, ins):
    return [ctx.b.add1("Mod", ins, fmod=1)]


@rule("AddN")
def _add_n(ctx, node, ins):
    if len(ins) == 1:
        return [ctx.b.add1("Identity", ins)]
    if not node.inputs[0].dtype.is_floating:         # ONNX's Sum takes floats only
        total = ins[0]
        for x in ins[1:]:
            total = ctx.b.add1("Add", [total, x])
        return [total]
    return [ctx.b.add1("Sum", ins)]


@rule("Cast")
def _cast(ctx, node, ins):
    source, target = node.inputs[0].dtype, node.attrs["dtype"]
    if target.is_bool and not source.is_bool:
        zero = ctx.b.const(np.zeros((), source.np_dtype))
        return [ctx.b.add1("Not", [ctx.b.add1("Equal", [ins[0], zero])])]
    return [ctx.b.cast(ins[0], target)]


@rule("ClipByValue")
def _clip(ctx, node, ins):
    x, lo, hi = ins          # TF's order: min with hi, then max with lo (lo wins if lo > hi)
    return [ctx.b.add1("Max", [ctx.b.add1("Min", [x, hi]), lo])]


@rule("SelectV2")
def _select(ctx, node, ins):
    return [select(ctx, *ins, node.outputs[0].dtype)]


# --- reductions ---------------------------------------------------------------

def _axes(ctx, node, axis):
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    return [int(a) for a in axes]


def reduce(ctx, op_type, x, axes, keepdims):
    """An ONNX Reduce* node over `axes` (None: every axis), by opset."""
    keep = int(bool(keepdims))
    if axes is not None and len(axes) == 0:
        return ctx.b.add1("Identity", [x])
    if op_type == "ReduceSum" or ctx.b.opset >= 18:
        inputs = [x] if axes is None else [x, ctx.b.ints(axes, "axes")]
        return ctx.b.add1(op_type, inputs, keepdims=keep)
    return ctx.b.add1(op_type, [x], keepdims=keep, axes=axes)


def _make_reduce(op_type):
    def lower(ctx, node, ins):
        axes = _axes(ctx, node, node.attrs["axis"])
        out = reduce(ctx, op_type, ins[0], axes, node.attrs["keepdims"])
        dtype = node.inputs[0].dtype
        if op_type in ("ReduceMax", "ReduceMin") and dtype.is_floating:
            # a NaN makes the max/min NaN, as TF (ONNX Runtime skips NaNs)
            nan = ctx.b.cast(ctx.b.add1("IsNaN", ins), "int32")
            has_nan = ctx.b.cast(reduce(ctx, "ReduceMax", nan, axes, node.attrs["keepdims"]),
                                 "bool")
            out = ctx.b.add1("Where", [has_nan, ctx.b.const(np.asarray(np.nan, dtype.np_dtype)),
                                       out])
        return [out]
    return lower


for _ours, _theirs in {"Sum": "ReduceSum", "Max": "ReduceMax", "Min": "ReduceMin",
                       "Prod": "ReduceProd"}.items():
    rule(_ours)(_make_reduce(_theirs))


@rule("Mean")
def _mean(ctx, node, ins):
    """ReduceSum / count: an empty mean is NaN as ours (ONNX Runtime's ReduceMean
    gives 0), and an integer mean truncates toward zero as TF's (ONNX's integer
    Div truncates)."""
    axes = _axes(ctx, node, node.attrs["axis"])
    dtype = node.inputs[0].dtype
    if dtype.is_integer:
        # the sum in int64, unwrapped for narrower ints as TF's (ONNX's ReduceSum
        # takes no int8/int16), then divided by how many were summed, at least 1
        # (ours: 0 // 0 -> 0)
        total = reduce(ctx, "ReduceSum", ctx.b.cast(ins[0], "int64"), axes,
                       node.attrs["keepdims"])
        count = ctx.b.add1("Div", [ctx.b.add1("Size", ins), ctx.b.add1(
            "Max", [ctx.b.add1("Size", [total]), ctx.b.const(np.int64(1))])])
        count = ctx.b.add1("Max", [count, ctx.b.const(np.int64(1))])
        return [ctx.b.cast(ctx.b.add1("Div", [total, count]), dtype)]
    total = reduce(ctx, "ReduceSum", ins[0], axes, node.attrs["keepdims"])
    count = ctx.b.add1("Div", [ctx.b.cast(ctx.b.add1("Size", ins), dtype),     # 0 / 0: NaN
                               ctx.b.cast(ctx.b.add1("Size", [total]), dtype)])
    return [ctx.b.add1("Div", [total, count])]


def _make_logical_reduce(op_type):
    def lower(ctx, node, ins):
        axes = _axes(ctx, node, node.attrs["axis"])
        as_int = ctx.b.cast(ins[0], "int32")
        out = reduce(ctx, op_type, as_int, axes, node.attrs["keepdims"])
        return [ctx.b.cast(out, "bool")]
    return lower


rule("All")(_make_logical_reduce("ReduceMin"))
rule("Any")(_make_logical_reduce("ReduceMax"))


def _make_arg(op_type, nan_as):
    """ArgMax/ArgMin: the first index of the extreme (ties: first, as ONNX's
    select_last_index=0); NaNs are skipped as TF (ours: NaN -> -inf for
    argmax, +inf for argmin; ONNX Runtime would keep a leading NaN)."""
    def lower(ctx, node, ins):
        x = ins[0]
        if node.inputs[0].dtype.is_floating:
            fill = ctx.b.const(np.asarray(nan_as, node.inputs[0].dtype.np_dtype))
            x = ctx.b.add1("Where", [ctx.b.add1("IsNaN", [x]), fill, x])
        out = ctx.b.add1(op_type, [x], axis=int(node.attrs["axis"]), keepdims=0,
                         select_last_index=0)
        return [ctx.b.cast(out, node.attrs["output_type"])]
    return lower


rule("ArgMax")(_make_arg("ArgMax", -np.inf))
rule("ArgMin")(_make_arg("ArgMin", np.inf))


@rule("Cumsum")
def _cumsum(ctx, node, ins):
    axis = ctx.b.const(np.int64(node.attrs["axis"]))
    return [ctx.b.add1("CumSum", [ins[0], axis], exclusive=int(node.attrs["exclusive"]),
                       reverse=int(node.attrs["reverse"]))]


@rule("MatMul")
def _matmul(ctx, node, ins):
    a, b = ins
    if node.attrs.get("transpose_a"):
        a = _swap_last(ctx, a, node.inputs[0])
    if node.attrs.get("transpose_b"):
        b = _swap_last(ctx, b, node.inputs[1])
    return [ctx.b.add1("MatMul", [a, b])]


def _swap_last(ctx, name, tensor):
    rank = tensor.shape.rank
    if rank is None:
        raise ExportError("a transposed matmul operand of unknown rank")
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return ctx.b.add1("Transpose", [name], perm=perm)
