"""The pooling kernels `MaxPool` and `AvgPool` on NHWC tensors, with their
gradients (`MaxPoolGrad` scatters each window's gradient to its first maximum,
as TensorFlow; average pooling with 'SAME' divides by the number of real
elements in each window). The public functions (`max_pool2d`, `avg_pool`, ...)
and the window arithmetic they share with the convolutions are in conv_ops."""

import numpy as np

from runtime._src.core import dtypes, parallel, workspace
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import zeros_like
from runtime._src.ops.conv_ops import (_crop, _infer_like_input, _padded, _pads, _spatial_problem,
                                       add_patches, patches, window_padding)


# --- MaxPool and AvgPool -------------------------------------------------------------------

def _pool_problem(x_shape, attrs, running=False):
    if x_shape.rank is not None and x_shape.rank != 4:
        return (f"input must be 4-dimensional (batch, height, width, channels), got shape "
                f"{rules.dims_text(x_shape)}"), None
    xd = x_shape.dims if x_shape.rank is not None else None
    problem, spatial = _spatial_problem(xd[1:3] if xd else (None, None), attrs["ksize"],
                                        attrs, "ksize", running)
    if problem or xd is None:
        return problem, TensorShape(None if xd is None else [None] * 4)
    return None, TensorShape([xd[0]] + spatial + [xd[3]])


def _infer_pool(inputs, attrs):
    problem, shape = _pool_problem(inputs[0].shape, attrs)
    if problem:
        raise ValueError(problem)
    return [(inputs[0].dtype, shape)]


def _pool_taps(x, ksize, strides, padding, explicit, fill):
    """The KH*KW slices of the padded input seen by each window position (each
    of the output's shape): a loop over the window, not over pixels."""
    padded, out = _padded(x, ksize, strides, (1, 1), padding, explicit, fill)
    view = patches(padded, ksize, strides, (1, 1), out)
    for a in range(ksize[0]):
        for b in range(ksize[1]):
            yield view[:, :, :, a, b, :]


def _check_pool(op, x, attrs):
    problem, _ = _pool_problem(TensorShape(x.shape), attrs, running=True)
    if problem:
        raise InvalidArgumentError(f"{op}: {problem}", op)


@define_op("MaxPool", infer=_infer_pool)
def _max_pool(x, ksize, strides, padding, explicit_paddings):
    _check_pool("MaxPool", x, {"ksize": ksize, "strides": strides, "padding": padding,
                               "explicit_paddings": explicit_paddings})
    fill = -np.inf if dtypes.is_float_array(x.dtype) else np.iinfo(x.dtype).min
    tiles = _tiles(x, ksize, strides, padding, explicit_paddings)
    if tiles is None:
        return _window_max(_pool_taps(x, ksize, strides, padding, explicit_paddings, fill))
    result = workspace.empty(tiles.shape[:2] + tiles.shape[3:4] + tiles.shape[5:], x.dtype)
    parallel.split(len(x), lambda lo, hi: _window_max(_tile_taps(tiles[lo:hi]), result[lo:hi]),
                   x.size)
    return result


def _window_max(taps, result=None):
    """The elementwise maximum of the window's taps, into `result` (made when None)."""
    first = next(taps)
    if result is None:
        result = workspace.empty(first.shape, first.dtype)
    second = next(taps, None)
    if second is None:
        np.copyto(result, first)
    else:                          # the first two taps' maximum, with no copy before it
        np.maximum(first, second, out=result)
    for tap in taps:
        np.maximum(result, tap, out=result)
    return result


def _tiles(x, ksize, strides, padding, explicit):
    """`x` (NHWC) as non-overlapping windows (N, OH, KH, OW, KW, C), a view, when
    the pooling's windows tile the input without padding (strides == ksize, no
    padding needed; rows and columns past the last window are left out), else
    None. Each tap of a window is then a plain slice of that view."""
    if tuple(strides) != tuple(ksize) or x.ndim != 4:
        return None
    pads, out = _pads(x.shape, ksize, strides, (1, 1), padding, explicit)
    if any(p for pair in pads for p in pair) or min(out) <= 0:
        return None
    (kh, kw), (oh, ow) = ksize, out
    return x[:, :oh * kh, :ow * kw, :].reshape(x.shape[0], oh, kh, ow, kw, x.shape[3])


def _tile_taps(tiles):
    """The KH*KW taps (N, OH, OW, C) of tiled windows, in the window's row-major order."""
    for a in range(tiles.shape[2]):
        for b in range(tiles.shape[4]):
            yield tiles[:, :, a, :, b, :]


def _first_maxima(x, y, ksize, strides, padding, explicit):
    """Where each window's maximum comes from: (the padded input's shape, a list
    of (a, b, hit) for every tap (a, b) of the window, `hit` (y's shape) true
    where that tap is the window's first element equal to its maximum `y`)."""
    fill = -np.inf if dtypes.is_float_array(x.dtype) else np.iinfo(x.dtype).min
    padded, out = _padded(x, ksize, strides, (1, 1), padding, explicit, fill)
    view = patches(padded, ksize, strides, (1, 1), out)
    taken = np.zeros(y.shape, bool)
    taps = []
    for a in range(ksize[0]):
        for b in range(ksize[1]):
            hit = (view[:, :, :, a, b, :] == y) & ~taken
            taps.append((a, b, hit))
            taken |= hit
    return padded.shape, taps


@define_op("MaxPoolGrad", infer=_infer_like_input(1))
def _max_pool_grad(dy, x, y, ksize, strides, padding, explicit_paddings):
    """dL/dx of MaxPool: each window's gradient goes to its first maximal element."""
    if _tiles(x, ksize, strides, padding, explicit_paddings) is not None:
        return _tiled_max_pool_grad(dy, x, y, ksize)
    return _scattered_max_pool_grad(dy, x, y, ksize, strides, padding, explicit_paddings)


def _scattered_max_pool_grad(dy, x, y, ksize, strides, padding, explicit_paddings):
    """MaxPoolGrad for any windows (overlapping, padded): the taps' shares
    gathered per window, then added back onto the input (`add_patches`)."""
    padded_shape, taps = _first_maxima(x, y, ksize, strides, padding, explicit_paddings)
    cols = np.zeros(y.shape[:3] + tuple(ksize) + y.shape[3:], dy.dtype)
    for a, b, hit in taps:
        cols[:, :, :, a, b, :] = np.where(hit, dy, 0)
    pads, _ = _pads(x.shape, ksize, strides, (1, 1), padding, explicit_paddings)
    return _crop(add_patches(cols, padded_shape, strides, (1, 1)), pads)


def _tiled_max_pool_grad(dy, x, y, ksize):
    """MaxPoolGrad for windows that tile `x` (see `_tiles`): each tap's
    gradient is written straight into its slice of the result, with no
    scatter and no overlap to add up. With a finite `dy` a tap's share is
    `dy * hit` (a multiply is several times faster than a masked copy); a
    NaN or infinite `dy` must reach only the maxima, so it is copied under
    the mask."""
    # The sum of dy is finite only when all of dy is (an overflow to inf only
    # sends a finite dy down the masked copy, which gives the same values).
    finite = dy.dtype.kind != "f" or bool(np.isfinite(np.add.reduce(dy, axis=None)))
    grad = _tiled_grad_array(x, ksize, dy.dtype) if finite else workspace.zeros(x.shape,
                                                                                 dy.dtype)
    taken, hit = workspace.empty(y.shape, bool), workspace.empty(y.shape, bool)
    x_tiles = _tiles(x, ksize, ksize, "VALID", ((0, 0), (0, 0)))
    grad_tiles = _tiles(grad, ksize, ksize, "VALID", ((0, 0), (0, 0)))

    def route(lo, hi):          # the batch slice [lo, hi)
        first, part_taken, part_hit, part_y = True, taken[lo:hi], hit[lo:hi], y[lo:hi]
        for tap, out in zip(_tile_taps(x_tiles[lo:hi]), _tile_taps(grad_tiles[lo:hi])):
            if first:
                np.equal(tap, part_y, out=part_taken)
                first, mask = False, part_taken
            else:
                np.equal(tap, part_y, out=part_hit)
                np.greater(part_hit, part_taken, out=part_hit)   # hit, not taken before
                part_taken |= part_hit
                mask = part_hit
            if finite:
                np.multiply(dy[lo:hi], mask, out=out)
            else:
                np.copyto(out, dy[lo:hi], where=mask)
    parallel.split(len(y), route, x.size)
    workspace.release(taken)
    workspace.release(hit)
    return grad


def _tiled_grad_array(x, ksize, dtype):
    """An array of x's shape for a tiled max-pool gradient of a finite dy: the
    windows' taps write every element they cover (dy times the mask), so only
    the rows and columns past the last window (an odd size) are zeroed."""
    grad = workspace.empty(x.shape, dtype)
    (kh, kw), (h, w) = ksize, x.shape[1:3]
    grad[:, h - h % kh:] = 0
    grad[:, :, w - w % kw:] = 0
    return grad


def max_pool_grad_of_relu(dy, x, y, ksize, strides, padding, explicit_paddings):
    """ReluGrad(MaxPoolGrad(dy, x, y), x) for windows that tile `x`, as the
    generated code folds it (runtime/_src/exec/codegen.py), with `y` the
    MaxPool of `x`: the mask `y > 0` applied to dy (y's shape) before the
    routing; the same values, zeros' signs included, as the two kernels one
    after the other. Without ties among a positive window's maxima and with a
    finite dy, one comparison over x finds every maximum (`_matched_grad`)."""
    if _tiles(x, ksize, strides, padding, explicit_paddings) is not None:
        grad = _matched_grad(dy, x, y, ksize)
        if grad is not None:
            return grad
    mask = workspace.empty(y.shape, bool)
    np.greater(y, 0, out=mask)
    masked = workspace.empty(dy.shape, np.result_type(dy, mask))
    np.multiply(dy, mask, out=masked)
    workspace.release(mask)
    grad = _max_pool_grad(masked, x, y, ksize, strides, padding, explicit_paddings)
    workspace.release(masked)
    return grad


def matched_chunk(x, y, ksize, item_bytes=0):
    """The batch items in each chunk of `_matched_grad` (see there)."""
    item = (2 * x[:1].nbytes + x[:1].size + item_bytes
            + 2 * ksize[1] * y[:1].nbytes)     # x, grad, matches, the two widened arrays
    return min(len(x), parallel.chunk_items(item)) or 1


def _matched_grad(dy, x, y, ksize, after=None, item_bytes=0):
    """The folded ReLU and max-pool gradient for tiling windows in whole rows
    of x: each window's maximum y and its dy widened to the window's width
    (N, OH, OW, KW, C), so that one comparison with the rows of x, whose
    stretches (OW*KW*C) are contiguous, marks every element equal to its
    window's maximum, and one product writes dy there (and dy * 0, a zero
    with dy's sign, as the two kernels give, elsewhere). A window where y <= 0
    has its y raised to the smallest positive float, which none of its
    elements (all <= 0) equals, so it gets no match (nor does a NaN one).
    None, for the exact routing, when dy is not finite or when a window has
    tied maxima (more matches than positive windows): TF sends the gradient
    to the first only.

    The passes run chunk by chunk of the batch (`parallel.split_chunked`), a
    chunk's widened arrays and matches in scratch arrays of its thread that
    stay in the core's cache from the comparison to the product; `after(lo,
    hi, grad)`, when given, then reads the chunk's gradient grad[lo:hi] while
    it is there too (runtime/_src/ops/conv_grad_fused.py), `item_bytes` more
    per item (the result is dropped when this returns None)."""
    if dy.dtype.kind != "f" or not np.isfinite(np.add.reduce(dy, axis=None)):
        return None
    (kh, kw), (n, oh, ow, c) = ksize, y.shape
    least = np.finfo(y.dtype).smallest_subnormal
    chunk = matched_chunk(x, y, ksize, item_bytes)
    slots = parallel.slots(n, chunk, x.size)
    wide_y, wide_dy = (workspace.empty((slots, chunk, oh, ow, kw, c), dy.dtype)
                       for _ in range(2))
    matches = workspace.empty((slots, chunk, oh, kh, ow, kw, c), bool)
    x_tiles = _tiles(x, ksize, ksize, "VALID", ((0, 0), (0, 0)))
    grad = _tiled_grad_array(x, ksize, dy.dtype)
    grad_tiles = _tiles(grad, ksize, ksize, "VALID", ((0, 0), (0, 0)))
    counts = [0] * n

    def route(slot, lo, hi):    # the chunk [lo, hi) of the batch
        size = hi - lo
        part_y, part_dy, match = wide_y[slot, :size], wide_dy[slot, :size], matches[slot, :size]
        np.maximum(y[lo:hi, :, :, None], least, out=part_y)
        np.copyto(part_dy, dy[lo:hi, :, :, None])
        np.equal(x_tiles[lo:hi], part_y[:, :, None], out=match)
        counts[lo] = np.count_nonzero(match)
        np.multiply(match, part_dy[:, :, None], out=grad_tiles[lo:hi])
        if after is not None:
            after(lo, hi, grad)
    parallel.split_chunked(n, chunk, route, x.size)
    positive = workspace.empty(y.shape, bool)
    np.greater(y, 0, out=positive)
    tied = sum(counts) != np.count_nonzero(positive)
    for array in (wide_y, wide_dy, matches, positive):
        workspace.release(array)
    if tied:
        workspace.release(grad)
        return None
    return grad


@define_grad("MaxPool")
def _max_pool_grad_rule(op, grad):
    return [apply("MaxPoolGrad", (grad, op.inputs[0], op.outputs[0]), dict(op.attrs))]


@define_op("MaxPoolGradGrad", infer=_infer_like_input(1))
def _max_pool_grad_grad(x, y, grad, ksize, strides, padding, explicit_paddings):
    """The gradient of MaxPoolGrad for its dy (TF's MaxPoolGradGrad): `grad`
    (x's shape) read at each window's first maximal element (y's shape)."""
    padded, out = _padded(grad, ksize, strides, (1, 1), padding, explicit_paddings, 0)
    view = patches(padded, ksize, strides, (1, 1), out)
    result = np.zeros(y.shape, grad.dtype)
    for a, b, hit in _first_maxima(x, y, ksize, strides, padding, explicit_paddings)[1]:
        np.copyto(result, view[:, :, :, a, b, :], where=hit)
    return result


@define_grad("MaxPoolGrad")
def _max_pool_grad_grad_rule(op, grad):
    # MaxPoolGrad is linear in dy; the window choice is piecewise constant in x
    # (and y), whose gradients are zeros, as TF gives them.
    _, x, y = op.inputs
    return [apply("MaxPoolGradGrad", (x, y, grad), dict(op.attrs)),
            zeros_like(x), zeros_like(y)]


@define_grad("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, grad):
    x, y, _ = op.inputs
    return [zeros_like(x), zeros_like(y), apply("MaxPoolGrad", (grad, x, y), dict(op.attrs))]


def _valid_counts(size, window, stride, out):
    """How many real (unpadded) elements each of `out` SAME windows covers."""
    before = window_padding(size, window, stride, 1, "SAME")[0]
    start = np.arange(out) * stride - before
    return np.minimum(start + window, size) - np.maximum(start, 0)


@define_op("AvgPool", infer=_infer_pool)
def _avg_pool(x, ksize, strides, padding):
    _check_pool("AvgPool", x, {"ksize": ksize, "strides": strides, "padding": padding})
    dtype = x.dtype
    x = x.astype(np.float32) if dtype == np.float16 else x
    total = None
    for tap in _pool_taps(x, ksize, strides, padding, ((0, 0), (0, 0)), 0):
        total = tap.copy() if total is None else np.add(total, tap, out=total)
    if padding == "SAME":
        rows = _valid_counts(x.shape[1], ksize[0], strides[0], total.shape[1])
        cols = _valid_counts(x.shape[2], ksize[1], strides[1], total.shape[2])
        count = (rows[:, None] * cols[None, :])[None, :, :, None]
    else:
        count = ksize[0] * ksize[1]
    return (total / np.asarray(count, total.dtype)).astype(dtype, copy=False)


@define_op("AvgPoolGrad", infer=_infer_like_input(1))
def _avg_pool_grad(dy, x, ksize, strides, padding):
    """dL/dx of AvgPool: each window's gradient shared by its real elements."""
    pads, out = _pads(x.shape, ksize, strides, (1, 1), padding, ((0, 0), (0, 0)))
    if padding == "SAME":
        rows = _valid_counts(x.shape[1], ksize[0], strides[0], out[0])
        cols_n = _valid_counts(x.shape[2], ksize[1], strides[1], out[1])
        count = (rows[:, None] * cols_n[None, :])[None, :, :, None]
    else:
        count = ksize[0] * ksize[1]
    share = dy / np.asarray(count, dy.dtype)
    cols = np.broadcast_to(share[:, :, :, None, None, :], share.shape[:3] + tuple(ksize)
                           + share.shape[3:])
    padded = (x.shape[0], x.shape[1] + sum(pads[0]), x.shape[2] + sum(pads[1]), x.shape[3])
    return _crop(add_patches(cols, padded, strides, (1, 1)), pads).astype(x.dtype, copy=False)


@define_grad("AvgPoolGrad")
def _avg_pool_grad_grad(op, grad):
    return [apply("AvgPool", (grad,), dict(op.attrs)), None]


@define_grad("AvgPool")
def _avg_pool_grad_rule(op, grad):
    return [apply("AvgPoolGrad", (grad, op.inputs[0]), dict(op.attrs))]
