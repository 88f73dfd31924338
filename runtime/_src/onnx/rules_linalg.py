"""ONNX rules of the matrix ops: determinants, bands and diagonals.

The diagonal ops move elements of the last two dimensions to fixed places
(given their static sizes and attrs), so each is one Gather by an index map
found by running our own kernel on the element positions:

    map = kernel(arange(rows * cols).reshape(rows, cols), padding=-1)
    MatrixDiagPartV3(x) -> Gather(Concat(flat(x), padding_value), map, axis=-1)

    MatrixDeterminant     ->  Det
    LogMatrixDeterminant  ->  (Sign(Det), Log(Abs(Det)))   # overflows where Det does
    MatrixBandPart(x,l,u) ->  Where(keep(i - j), x, 0)     # l, u may be computed
    Diag(x)               ->  Where(i == j, flat(x), 0) reshaped to shape(x) * 2
    DiagPart(x)           ->  Gather(flat(x), range(0, n * n, n + 1))

Decompositions ONNX lacks (Cholesky, Qr, Svd, SelfAdjointEigV2) and the
solvers built on them are refused in convert.WHY_NOT.
"""

import numpy as np

from runtime._src.onnx.builder import ExportError
from runtime._src.onnx.convert import rule
from runtime._src.onnx.select import select

__all__ = []


@rule("MatrixDeterminant")
def _det(ctx, node, ins):
    return [ctx.b.add1("Det", ins)]


@rule("LogMatrixDeterminant")
def _log_det(ctx, node, ins):
    det = ctx.b.add1("Det", ins)
    return [ctx.b.add1("Sign", [det]), ctx.b.add1("Log", [ctx.b.add1("Abs", [det])])]


def _range(ctx, n):
    return ctx.b.add1("Range", [ctx.b.const(np.int64(0)), n, ctx.b.const(np.int64(1))])


def _dim(ctx, shape, axis):
    """Dimension `axis` of a Shape output, as an int64 scalar."""
    return ctx.b.add1("Gather", [shape, ctx.b.const(np.int64(axis))])


@rule("MatrixBandPart")
def _band_part(ctx, node, ins):
    x, lower, upper = ins
    shape = ctx.b.add1("Shape", [x])
    i = ctx.b.add1("Unsqueeze", [_range(ctx, _dim(ctx, shape, -2)), ctx.b.ints([1])])
    j = ctx.b.add1("Unsqueeze", [_range(ctx, _dim(ctx, shape, -1)), ctx.b.ints([0])])
    below = ctx.b.add1("Sub", [i, j])                                    # i - j
    zero = ctx.b.const(np.int64(0))
    keep = None
    for bound, distance in ((lower, below), (upper, ctx.b.add1("Neg", [below]))):
        bound = ctx.b.cast(bound, "int64")
        ok = ctx.b.add1("Or", [ctx.b.add1("Less", [bound, zero]),
                               ctx.b.add1("LessOrEqual", [distance, bound])])
        keep = ok if keep is None else ctx.b.add1("And", [keep, ok])
    filler = ctx.b.const(np.zeros((), node.inputs[0].dtype.np_dtype))
    return [select(ctx, keep, x, filler, node.inputs[0].dtype)]


def _static_tail(tensor, count, what):
    dims = tensor.shape.dims
    if dims is None or len(dims) < count or None in dims[len(dims) - count:]:
        raise ExportError(f"{what} of a tensor whose last {count} dimensions are not all known "
                          f"(shape {tensor.shape}): give them in the input_signature")
    return tuple(dims[len(dims) - count:])


def _gather_map(ctx, flat_parts, batch_rank, index_map, padding, dtype):
    """Gather from the last axis of the concatenated `flat_parts` (then a
    padding element) by `index_map`, where -1 means the padding."""
    size = int(sum(p[1] for p in flat_parts))
    parts = [p[0] for p in flat_parts]
    if (index_map < 0).any():
        first = parts[0]
        pad_shape = ctx.b.add1("Concat", [ctx.b.add1("Slice", [
            ctx.b.add1("Shape", [first]), ctx.b.ints([0]), ctx.b.ints([batch_rank])]),
            ctx.b.ints([1])], axis=0)
        parts.append(ctx.b.add1("Expand", [ctx.b.const(np.asarray(padding, dtype)), pad_shape]))
    source = parts[0] if len(parts) == 1 else ctx.b.add1("Concat", parts, axis=-1)
    index = np.where(index_map < 0, size, index_map).astype(np.int64)
    return ctx.b.add1("Gather", [source, ctx.b.const(index, name="index_map")], axis=batch_rank)


def _flatten_tail(ctx, x, rank, tail):
    """x [..., *tail] as [..., prod(tail)]."""
    shape = ctx.b.add1("Concat", [ctx.b.add1("Slice", [
        ctx.b.add1("Shape", [x]), ctx.b.ints([0]), ctx.b.ints([rank - len(tail)])]),
        ctx.b.ints([int(np.prod(tail))])], axis=0)
    return ctx.b.add1("Reshape", [x, shape]), int(np.prod(tail))


def _rank(tensor, what):
    if tensor.shape.rank is None:
        raise ExportError(f"{what} of a tensor of unknown rank")
    return tensor.shape.rank


@rule("MatrixDiagPartV3")
def _diag_part_v3(ctx, node, ins):
    x = node.inputs[0]
    rank, tail = _rank(x, "matrix_diag_part"), _static_tail(x, 2, "matrix_diag_part")
    positions = np.arange(int(np.prod(tail)), dtype=np.int64).reshape(tail)
    a = node.attrs
    index_map = node.opdef.kernel(positions, a["k"], -1, a["align"])
    flat = _flatten_tail(ctx, ins[0], rank, tail)
    return [_gather_map(ctx, [flat], rank - 2, index_map, a["padding_value"], x.dtype.np_dtype)]


def _diag_tail(node):
    k = node.attrs["k"]
    return 1 if k[0] == k[1] else 2


@rule("MatrixDiagV3")
def _diag_v3(ctx, node, ins):
    d = node.inputs[0]
    count = _diag_tail(node)
    rank, tail = _rank(d, "matrix_diag"), _static_tail(d, count, "matrix_diag")
    positions = np.arange(int(np.prod(tail)), dtype=np.int64).reshape(tail)
    a = node.attrs
    index_map = node.opdef.kernel(positions, a["k"], a["num_rows"], a["num_cols"], -1,
                                  a["align"])
    flat = _flatten_tail(ctx, ins[0], rank, tail)
    return [_gather_map(ctx, [flat], rank - count, index_map, a["padding_value"],
                        d.dtype.np_dtype)]


@rule("MatrixSetDiagV3")
def _set_diag_v3(ctx, node, ins):
    x, d = node.inputs
    rank, tail = _rank(x, "matrix_set_diag"), _static_tail(x, 2, "matrix_set_diag")
    count = _diag_tail(node)
    d_tail = _static_tail(d, count, "matrix_set_diag")
    size = int(np.prod(tail))
    positions = np.arange(size, dtype=np.int64).reshape(tail)
    new = np.arange(size, size + int(np.prod(d_tail)), dtype=np.int64).reshape(d_tail)
    index_map = node.opdef.kernel(positions, new, node.attrs["k"], node.attrs["align"])
    if x.shape.rank - 2 != d.shape.rank - count:
        raise ExportError("matrix_set_diag whose diagonals broadcast over the batch")
    parts = [_flatten_tail(ctx, ins[0], rank, tail), _flatten_tail(ctx, ins[1], d.shape.rank,
                                                                   d_tail)]
    return [_gather_map(ctx, parts, rank - 2, index_map, 0, x.dtype.np_dtype)]


@rule("Diag")
def _tensor_diag(ctx, node, ins):
    flat = ctx.b.add1("Reshape", [ins[0], ctx.b.ints([-1])])
    n = ctx.b.add1("Size", ins)
    rows = ctx.b.add1("Unsqueeze", [_range(ctx, n), ctx.b.ints([1])])
    cols = ctx.b.add1("Unsqueeze", [_range(ctx, n), ctx.b.ints([0])])
    filler = ctx.b.const(np.zeros((), node.inputs[0].dtype.np_dtype))
    square = select(ctx, ctx.b.add1("Equal", [rows, cols]),
                    ctx.b.add1("Unsqueeze", [flat, ctx.b.ints([0])]), filler,
                    node.inputs[0].dtype)
    shape = ctx.b.add1("Shape", ins)
    return [ctx.b.add1("Reshape", [square, ctx.b.add1("Concat", [shape, shape], axis=0)])]


@rule("DiagPart")
def _tensor_diag_part(ctx, node, ins):
    rank = _rank(node.inputs[0], "tf.linalg.tensor_diag_part")
    half = ctx.b.add1("Slice", [ctx.b.add1("Shape", ins), ctx.b.ints([0]),
                                ctx.b.ints([rank // 2])])
    n = ctx.b.add1("ReduceProd", [half], keepdims=0)          # every axis, in any opset
    flat = ctx.b.add1("Reshape", [ins[0], ctx.b.ints([-1])])
    step = ctx.b.add1("Add", [n, ctx.b.const(np.int64(1))])
    index = ctx.b.add1("Range", [ctx.b.const(np.int64(0)), ctx.b.add1("Mul", [n, n]), step])
    return [ctx.b.add1("Reshape", [ctx.b.add1("Gather", [flat, index]), half])]
