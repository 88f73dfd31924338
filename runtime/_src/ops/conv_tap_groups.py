"""A conv layer of a training step (Conv2D, BiasAdd, ReLU, a max pooling of
tiling windows, and the filter and bias gradients through them) with its
activations in tap-grouped order, as the generated code runs it when nothing
but these kernels reads the activation (runtime/_src/exec/codegen.py
`Emitter.grouped_layer`): each Conv-ReLU-MaxPool layer of a Keras CNN.

In NHWC order the taps of a pooling window are strided slices of the
activation, and numpy's loops over them run along the C channels only
(32 floats for a CNN's first layer). Here the convolution's rows (its
im2col matrix, so its product) are ordered (n, a, b, i, j) for the element
(i * KH + a, j * KW + b): tap (a, b) of every window of an image is one
contiguous (PH*PW*C) block. The pooling is then the maximum of KH*KW blocks,
in the windows' row-major order, the bias add runs along whole blocks, and
the backward pass routes dy block by block, all along long contiguous
stretches; the filter gradient is the same product over the same rows in
another order (equal within float rounding), and the pooled result is NHWC.
Rows and columns past the last window (a 2x2 pooling of 11x11) are neither
computed nor multiplied: nothing reads them, and their pool gradient is 0.

`conv2d_bias_pool_grouped` returns the activation as (N, KH, KW, PH, PW, C),
six dimensions, so that `relu_pool_and_filter_grads` (conv_grad_fused.py)
knows the order it gets. The routing sends each window's gradient to its
first maximum, as TensorFlow's MaxPoolGrad, ties and NaN included, with the
ReLU's mask on the pooled values: the values of the NHWC kernels.
"""

import numpy as np

from runtime._src.core import blas, parallel, workspace
from runtime._src.ops import conv_ops, im2col

__all__ = ["conv2d_bias_pool_grouped", "relu_pool_and_filter_grads_grouped", "chunk_sum"]

_LEAST = {np.dtype(t): np.finfo(t).smallest_subnormal for t in (np.float32, np.float64)}


def conv2d_bias_pool_grouped(x, f, bias, ksize, conv, tiled, relu):
    """(the biased convolution (N, KH, KW, PH, PW, O) in tap-grouped order,
    its patch matrix in that row order, the MaxPool (and ReLU) of it, NHWC),
    chunk by chunk of the batch (im2col.chunking). Rows and columns past the
    last window, which no window reads, are not computed."""
    (n, oh, ow, depth), (ph, pw) = tiled
    (kh, kw), (fh, fw, c) = ksize, f.shape[:3]
    per, k, span = ph * kh * pw * kw, fh * fw * c, ph * pw * depth
    strides, padding, explicit, dilations = conv
    padded, _ = conv_ops._padded(x, (fh, fw), strides, dilations, padding, explicit, 0)
    cols = conv_ops.patches(padded, (fh, fw), strides, dilations, (ph * kh, pw * kw))
    grouped = cols.reshape(n, ph, kh, pw, kw, fh, fw, c).transpose(0, 2, 4, 1, 3, 5, 6, 7)
    copy, matrix, owner = _grouped_copy(grouped, n * per, k)
    weights, out = f.reshape(k, depth), workspace.empty((n * per, depth), x.dtype)
    pooled = workspace.empty((n, ph, pw, depth), x.dtype)
    tiled_bias, zero = np.tile(bias, ph * pw), x.dtype.type(0)

    def work(slot, lo, hi):
        copy(lo, hi)
        rows = out[lo * per:hi * per]
        np.matmul(matrix(lo * per, hi * per), weights, out=rows)
        blocks = rows.reshape((hi - lo) * kh * kw, span)
        np.add(blocks, tiled_bias, out=blocks)
        _block_max(blocks.reshape(hi - lo, kh * kw, span), pooled[lo:hi].reshape(hi - lo, span))
        if relu:
            np.maximum(pooled[lo:hi], zero, out=pooled[lo:hi])
    most, elements = im2col.chunking(cols.shape, depth, x.itemsize)
    parallel.split_chunked(n, most if blas.single_threaded() else max(n, 1), work, elements)
    return out.reshape(n, kh, kw, ph, pw, depth), owner, pooled


def _grouped_copy(grouped, rows, k):
    """(copy(lo, hi) of the batch's patches into the matrix, matrix(a, b): its
    rows [a, b) as an (rows, K) matrix, the array) in `im2col.patch_matrix`'s
    layout: (rows, K), or (K, rows) used transposed for fewer than 4 channels."""
    if grouped.shape[-1] >= 4:
        owner = workspace.empty((rows, k), grouped.dtype)
        target = owner.reshape(grouped.shape)

        def copy(lo, hi):
            np.copyto(target[lo:hi], grouped[lo:hi])
        return copy, lambda a, b: owner[a:b], owner
    owner = workspace.empty((k, rows), grouped.dtype)
    source = grouped.transpose(5, 6, 7, 0, 1, 2, 3, 4)
    target = owner.reshape(source.shape)

    def copy(lo, hi):
        np.copyto(target[:, :, :, lo:hi], source[:, :, :, lo:hi])
    return copy, lambda a, b: owner[:, a:b].T, owner


def _block_max(taps, out):
    """The elementwise maximum of the blocks taps[:, t] (n, T, L), in order, into out (n, L)."""
    if taps.shape[1] == 1:
        np.copyto(out, taps[:, 0])
        return
    np.maximum(taps[:, 0], taps[:, 1], out=out)
    for t in range(2, taps.shape[1]):
        np.maximum(out, taps[:, t], out=out)


def relu_pool_and_filter_grads_grouped(dy, x, y, patches_, conv_x, f, conv, pool_grad=True):
    """(the pool gradient, NHWC, the filter gradient, the bias gradient) of a
    layer whose activation `x` is tap-grouped (see `conv2d_bias_pool_grouped`),
    `y` its pooled ReLU, `patches_` its patch matrix and `conv_x` the
    convolution's input: dy routed to each window's first maximum where
    y > 0, chunk by chunk, each chunk's filter and bias partial products taken
    while it is in the core's cache and added in the chunks' order.

    `pool_grad` (the generated code's promise about the pool gradient's
    readers): False, none (None is returned for it); "windows", only
    Conv2DBackpropInput of the filter `f`, which needs no more than the rows
    and columns the windows cover (the rest is zeros, whose products with a
    finite filter add nothing), so that part is returned (the full array
    when `f` is not finite: 0 * inf is NaN); True, anyone."""
    n, kh, kw, ph, pw, depth = x.shape
    per, span = kh * kw * ph * pw, ph * pw * depth
    rows = im2col.patch_rows(patches_, (n, ph * kh, pw * kw) + f.shape[:3])
    finite = bool(np.isfinite(np.add.reduce(dy, axis=None)))
    chunk = min(n, parallel.chunk_items(per * (rows.shape[1] + 3 * depth) * x.itemsize)) or 1
    slots, cuts = parallel.slots(n, chunk, x.size), parallel.chunk_bounds(n, chunk)
    index = {lo: i for i, lo in enumerate(cuts[:-1])}
    scratch = [workspace.empty((slots, chunk, span), x.dtype) for _ in range(2)]
    hits = workspace.empty((slots, chunk, kh * kw, span), bool)
    taken = workspace.empty((slots, chunk, span), bool)
    grads = workspace.empty((slots, chunk * per, depth), x.dtype)
    parts = (workspace.empty((len(index), rows.shape[1], depth), x.dtype),
             workspace.empty((len(index), depth), x.dtype))
    ones = workspace.empty((chunk * per,), x.dtype)
    ones.fill(1)
    _, out = conv_ops._pads(conv_x.shape, f.shape[:2], conv[0], conv[3], conv[1], conv[2])
    left_out = tuple(out) != (ph * kh, pw * kw)         # rows or columns past the last window
    if pool_grad == "windows" and np.isfinite(np.add.reduce(f, axis=None)):
        out = (ph * kh, pw * kw)
    grad = _pool_grad_array(x.shape, out, x.dtype) if pool_grad else None

    def work(slot, lo, hi):
        size = hi - lo
        g = grads[slot, :size * per]
        _route(dy[lo:hi].reshape(size, span), x[lo:hi].reshape(size, kh * kw, span),
               y[lo:hi].reshape(size, span), finite, scratch[0][slot, :size],
               scratch[1][slot, :size], hits[slot, :size], taken[slot, :size],
               g.reshape(size, kh * kw, span))
        if grad is not None:            # back to NHWC, the window (a, b) of (i, j) at (i*KH+a, j*KW+b)
            target = grad[lo:hi, :ph * kh, :pw * kw].reshape(size, ph, kh, pw, kw, depth)
            np.copyto(target.transpose(0, 2, 4, 1, 3, 5), g.reshape(x[lo:hi].shape))
        np.matmul(rows[lo * per:hi * per].T, g, out=parts[0][index[lo]])
        np.matmul(ones[:len(g)], g, out=parts[1][index[lo]])
    parallel.split_chunked(n, chunk, work, x.size)
    filters = chunk_sum(parts[0]).reshape(f.shape)
    if left_out:
        _left_out_products(filters, conv_x, f, conv, x.shape)
    result = (grad, filters, chunk_sum(parts[1]))
    for array in scratch + [hits, taken, grads, parts[0], parts[1], ones]:
        workspace.release(array)
    return result


def _pool_grad_array(shape, out, dtype):
    """An NHWC array (N, OH, OW, C), `out` = (OH, OW), for the pool gradient
    of a grouped activation of `shape`, zero past the last window."""
    n, kh, kw, ph, pw, depth = shape
    grad = workspace.empty((n,) + tuple(out) + (depth,), dtype)
    grad[:, ph * kh:] = 0
    grad[:, :ph * kh, pw * kw:] = 0
    return grad


def _left_out_products(filters, conv_x, f, conv, shape):
    """The filter gradient's terms of the rows past the last window, where the
    pool gradient is 0: 0 * x adds nothing, but 0 * inf or 0 * NaN is NaN, as
    the product over all rows (the NHWC kernels, TensorFlow's) gives it; so a
    filter element whose left-out patches hold a non-finite value is NaN."""
    n, kh, kw, ph, pw, _ = shape
    if np.isfinite(np.add.reduce(conv_x, axis=None)):
        return
    strides, padding, explicit, dilations = conv
    padded, (oh, ow) = conv_ops._padded(conv_x, f.shape[:2], strides, dilations, padding,
                                        explicit, 0)
    cols = conv_ops.patches(padded, f.shape[:2], strides, dilations, (oh, ow))
    k = int(np.prod(f.shape[:3]))
    left = [cols[:, ph * kh:].reshape(-1, k), cols[:, :ph * kh, pw * kw:].reshape(-1, k)]
    bad = np.zeros(k, bool)
    for part in left:
        bad |= ~np.isfinite(part).all(axis=0)
    filters.reshape(k, -1)[bad] = np.nan


def _route(dy, x, y, finite, target, value, hits, taken, out):
    """One chunk's folded ReLU and max-pool gradient into `out` (n, T, L):
    the first tap of each window equal to its maximum gets dy. With a finite
    dy, a window's y <= 0 is raised to the smallest positive float, which
    none of its elements equals, and dy * hit writes dy and zeros of dy's sign
    (as `pool_ops._matched_grad`); else dy * (y > 0) is copied to the hits
    and zeros elsewhere (as the NHWC kernels' exact routing)."""
    if finite:
        np.maximum(y, _LEAST[y.dtype], out=target)
        value = dy
    else:
        np.copyto(target, y)
        np.greater(y, 0, out=taken)
        np.multiply(dy, taken, out=value)
    np.equal(x, target[:, None], out=hits)
    np.copyto(taken, hits[:, 0])
    for t in range(1, hits.shape[1]):          # not a tap before it: the first maximum
        np.greater(hits[:, t], taken, out=hits[:, t])
        if t + 1 < hits.shape[1]:
            np.logical_or(taken, hits[:, t], out=taken)
    if finite:
        np.multiply(value[:, None], hits, out=out)
    else:
        out.fill(0)
        np.copyto(out, np.broadcast_to(value[:, None], out.shape), where=hits)


def chunk_sum(parts):
    """The chunks' partial sums `parts` (chunks, ...) added in the chunks' order."""
    total = workspace.zeros(parts.shape[1:], parts.dtype)
    for part in parts:
        np.add(total, part, out=total)
    return total
