"""ONNX rules of the neural-network ops: softmax, bias, convolution, pooling.

Our convolutions and pools are NHWC with HWIO filters, as TensorFlow's;
ONNX's are NCHW with OIHW filters, so each becomes

    Transpose(x, NCHW) -> Conv / MaxPool / AveragePool -> Transpose(NHWC)

TensorFlow's 'SAME' padding puts the odd pixel at the end (ONNX SAME_UPPER),
and its average pool divides by the number of real (unpadded) inputs
(count_include_pad=0).
"""

import numpy as np

from runtime._src.onnx.builder import ExportError
from runtime._src.onnx.convert import rule
from runtime._src.onnx.rules_array import split
from runtime._src.onnx.rules_math import reduce

__all__ = []

_NCHW, _NHWC = [0, 3, 1, 2], [0, 2, 3, 1]


@rule("Softmax")
def _softmax(ctx, node, ins):
    return [ctx.b.add1("Softmax", ins, axis=int(node.attrs["axis"]))]


@rule("LogSoftmax")
def _log_softmax(ctx, node, ins):
    return [ctx.b.add1("LogSoftmax", ins, axis=int(node.attrs["axis"]))]


@rule("BiasAdd")
def _bias_add(ctx, node, ins):
    value, bias = ins
    if node.attrs["data_format"].startswith("NC"):
        rank = node.inputs[0].shape.rank
        if rank is None:
            raise ExportError("BiasAdd in NC.. format on a value of unknown rank")
        bias = ctx.b.add1("Reshape", [bias, ctx.b.ints([-1] + [1] * (rank - 2))])
    return [ctx.b.add1("Add", [value, bias])]


@rule("L2Loss")
def _l2_loss(ctx, node, ins):
    squares = ctx.b.add1("Mul", [ins[0], ins[0]])
    total = reduce(ctx, "ReduceSum", squares, None, False)
    half = ctx.b.const(np.asarray(2, node.inputs[0].dtype.np_dtype))
    return [ctx.b.add1("Div", [total, half])]


def _pads(node):
    """(auto_pad, pads) for ONNX from our padding attrs."""
    padding = node.attrs["padding"]
    if padding == "SAME":
        return "SAME_UPPER", None
    if padding == "VALID":
        return "VALID", None
    (top, bottom), (left, right) = node.attrs["explicit_paddings"]
    return None, [int(top), int(left), int(bottom), int(right)]


def _check_4d(node):
    if node.inputs[0].shape.rank != 4:
        raise ExportError("only 4-D (NHWC) inputs export; this one has rank "
                          f"{node.inputs[0].shape.rank}")


def _same_pads(node, kernel):
    """Explicit pads [top, left, bottom, right] of TF's SAME padding (the odd
    pixel at the end); ONNX Runtime refuses SAME_UPPER with dilations."""
    dims = node.inputs[0].shape.dims[-3:-1]
    if None in dims:
        raise ExportError("a dilated 'SAME' convolution of an input whose height or width is "
                          "unknown (ONNX Runtime has no dilated SAME_UPPER): give them in the "
                          "input_signature")
    begin, end = [], []
    for size, k, stride, rate in zip(dims, kernel, node.attrs["strides"],
                                     node.attrs["dilations"]):
        total = max((-(-size // stride) - 1) * stride + (k - 1) * rate + 1 - size, 0)
        begin.append(total // 2)
        end.append(total - total // 2)
    return begin + end


@rule("Conv2D")
def _conv2d(ctx, node, ins):
    rank = node.inputs[0].shape.rank
    if rank is None or rank < 4:
        _check_4d(node)
    if not node.inputs[0].dtype.is_floating:
        raise ExportError(f"a convolution of {node.inputs[0].dtype.name} values (ONNX's Conv "
                          "takes floats only): cast to float first")
    x, f = ins
    channels = node.inputs[0].shape.dims[-1]
    filter_in = node.inputs[1].shape.dims[2]
    if channels is None or filter_in is None:
        raise ExportError("a convolution whose channel count is unknown")
    auto_pad, pads = _pads(node)
    if auto_pad == "SAME_UPPER" and any(d != 1 for d in node.attrs["dilations"]):
        auto_pad, pads = None, _same_pads(node, node.inputs[1].shape.dims[:2])
    batch = None
    if rank > 4:               # batch dimensions: fold them into one, and back
        batch = ctx.b.add1("Shape", [x])
        x = ctx.b.add1("Reshape", [x, ctx.b.add1("Concat", [
            ctx.b.ints([-1]), ctx.b.add1("Slice", [batch, ctx.b.ints([-3]),
                                                   ctx.b.ints([rank])])], axis=0)])
    y = ctx.b.add1("Conv", [ctx.b.add1("Transpose", [x], perm=_NCHW),
                            ctx.b.add1("Transpose", [f], perm=[3, 2, 0, 1])],
                   strides=list(node.attrs["strides"]), dilations=list(node.attrs["dilations"]),
                   group=channels // filter_in, auto_pad=auto_pad, pads=pads)
    y = ctx.b.add1("Transpose", [y], perm=_NHWC)
    if batch is not None:
        out = ctx.b.add1("Slice", [ctx.b.add1("Shape", [y]), ctx.b.ints([1]), ctx.b.ints([4])])
        y = ctx.b.add1("Reshape", [y, ctx.b.add1("Concat", [
            ctx.b.add1("Slice", [batch, ctx.b.ints([0]), ctx.b.ints([rank - 3])]), out],
            axis=0)])
    return [y]


# integer types a max pool computes exactly in float64 (ONNX's MaxPool takes floats)
_POOL_IN_DOUBLE = {"int8", "int16", "int32", "uint8", "uint16", "uint32"}


@rule("MaxPool")
def _max_pool(ctx, node, ins):
    _check_4d(node)
    dtype = node.inputs[0].dtype
    x = ins[0]
    if not dtype.is_floating:
        if dtype.name not in _POOL_IN_DOUBLE:
            raise ExportError(f"a max pool of {dtype.name} values (ONNX's MaxPool takes "
                              "floats, and float64 does not hold every one)")
        x = ctx.b.cast(x, "float64")
    auto_pad, pads = _pads(node)
    y = ctx.b.add1("MaxPool", [ctx.b.add1("Transpose", [x], perm=_NCHW)],
                   kernel_shape=list(node.attrs["ksize"]), strides=list(node.attrs["strides"]),
                   auto_pad=auto_pad, pads=pads)
    y = ctx.b.add1("Transpose", [y], perm=_NHWC)
    return [y if dtype.is_floating else ctx.b.cast(y, dtype)]


@rule("AvgPool")
def _avg_pool(ctx, node, ins):
    _check_4d(node)
    auto_pad = "SAME_UPPER" if node.attrs["padding"] == "SAME" else "VALID"
    y = ctx.b.add1("AveragePool", [ctx.b.add1("Transpose", ins, perm=_NCHW)],
                   kernel_shape=list(node.attrs["ksize"]), strides=list(node.attrs["strides"]),
                   auto_pad=auto_pad, count_include_pad=0)
    return [ctx.b.add1("Transpose", [y], perm=_NHWC)]


@rule("LSTMStep")
def _lstm_step(ctx, node, ins):
    """One LSTM step (runtime/_src/ops/rnn_ops.py) in ONNX's elementwise ops:
    z = z_x + h @ rk; i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of z's
    quarters; c = f * c_prev + i * g; h = o * tanh(c); gates = [i, f, g, o]."""
    z_x, h_prev, c_prev, rk = ins
    b = ctx.b
    z = b.add1("Add", [z_x, b.add1("MatMul", [h_prev, rk])])
    i, f, g, o = split(ctx, z, 1, 4)
    i, f, o = (b.add1("Sigmoid", [v]) for v in (i, f, o))
    g = b.add1("Tanh", [g])
    c = b.add1("Add", [b.add1("Mul", [f, c_prev]), b.add1("Mul", [i, g])])
    h = b.add1("Mul", [o, b.add1("Tanh", [c])])
    return [b.add1("Concat", [i, f, g, o], axis=1), c, h]
