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


@rule("Conv2D")
def _conv2d(ctx, node, ins):
    _check_4d(node)
    x, f = ins
    channels = node.inputs[0].shape.dims[3]
    filter_in = node.inputs[1].shape.dims[2]
    if channels is None or filter_in is None:
        raise ExportError("a convolution whose channel count is unknown")
    auto_pad, pads = _pads(node)
    y = ctx.b.add1("Conv", [ctx.b.add1("Transpose", [x], perm=_NCHW),
                            ctx.b.add1("Transpose", [f], perm=[3, 2, 0, 1])],
                   strides=list(node.attrs["strides"]), dilations=list(node.attrs["dilations"]),
                   group=channels // filter_in, auto_pad=auto_pad, pads=pads)
    return [ctx.b.add1("Transpose", [y], perm=_NHWC)]


@rule("MaxPool")
def _max_pool(ctx, node, ins):
    _check_4d(node)
    auto_pad, pads = _pads(node)
    y = ctx.b.add1("MaxPool", [ctx.b.add1("Transpose", ins, perm=_NCHW)],
                   kernel_shape=list(node.attrs["ksize"]), strides=list(node.attrs["strides"]),
                   auto_pad=auto_pad, pads=pads)
    return [ctx.b.add1("Transpose", [y], perm=_NHWC)]


@rule("AvgPool")
def _avg_pool(ctx, node, ins):
    _check_4d(node)
    auto_pad = "SAME_UPPER" if node.attrs["padding"] == "SAME" else "VALID"
    y = ctx.b.add1("AveragePool", [ctx.b.add1("Transpose", ins, perm=_NCHW)],
                   kernel_shape=list(node.attrs["ksize"]), strides=list(node.attrs["strides"]),
                   auto_pad=auto_pad, count_include_pad=0)
    return [ctx.b.add1("Transpose", [y], perm=_NHWC)]
