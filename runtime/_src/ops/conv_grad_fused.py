"""A convolution's filter and bias gradients together, as the generated code
of a training step calls them (runtime/_src/exec/codegen.py), and the forward
convolution, bias add and max pooling of a layer in one pass.

`conv2d_bias_pool`: a Conv2D whose result only a BiasAdd reads, pooled by a
MaxPool of tiling windows (after the ReLU the generated code moves past the
pooling), adds the bias to each chunk of the batch and pools it right after
the chunk's product (runtime/_src/ops/im2col.py `patch_product`), while it is
in the core's cache: the same values as the three kernels one after the
other (the bias added along whole rows and the windows' maxima taken row band
first, so that numpy's loops run along long contiguous stretches, not the
channels only; a window's tied zeros of both signs may give the other sign).

A Conv2D followed by a bias add has two gradients that read the same output
gradient dy (N, OH, OW, O): the filter's (Conv2DBackpropFilter, here from the
forward Conv2D's kept im2col matrix) and the bias's, dy summed over the batch
and the positions (a `Sum` over its leading axes). The generated code asks
for both at once, and the sum is a BLAS product of a ones vector with dy as
an (N*OH*OW, O) matrix: several times faster than numpy's row-by-row sum of
a CNN's first activations' gradient (whose rows are only O wide), and it
differs from that sum by float rounding only (BLAS adds in several lanes:
on 21,632 rows of normal values, a third of numpy's error against a float64
sum). A sum of zeros is +0, as TensorFlow's.

When that dy is the folded ReLU and max-pool gradient of the layer above
(pool_ops.max_pool_grad_of_relu), the three come from one call
(`relu_pool_and_filter_grads`): each chunk of the batch has its pool
gradient written and then, while it is still in the core's cache, its
filter and bias partial products taken; the partial sums are added in the
chunks' order (the same chunks for any number of threads), which differs
from one product over the batch by float rounding only.
"""

import numpy as np

from runtime._src.core import parallel, workspace
from runtime._src.ops import conv_tap_groups, im2col, pool_ops
from runtime._src.ops.conv_ops import (_pads, conv2d_backprop_filter_from_patches,
                                       conv2d_keeping_patches)
from runtime._src.ops.im2col import patch_rows

__all__ = ["conv2d_filter_and_bias_grads", "bias_gradient", "relu_pool_and_filter_grads",
           "conv2d_bias_pool"]

_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def conv2d_filter_and_bias_grads(dy, patches_, x, f, strides, padding, explicit_paddings,
                                 dilations):
    """(Conv2DBackpropFilter(dy, x, f) from the forward Conv2D's patch
    matrix `patches_` (or None), `bias_gradient(dy)`)."""
    grad = conv2d_backprop_filter_from_patches(dy, patches_, x, f, strides, padding,
                                               explicit_paddings, dilations)
    return grad, bias_gradient(dy)


def bias_gradient(dy):
    """`dy` summed over all its axes but the last, by a BLAS product for
    float32 and float64 (see the module docstring), else numpy's sum."""
    if dy.dtype not in _BLAS_FLOATS or dy.ndim < 2:
        return np.add.reduce(dy, axis=tuple(range(dy.ndim - 1)), dtype=dy.dtype)
    rows = dy.reshape(-1, dy.shape[-1])
    ones = workspace.empty((rows.shape[0],), dy.dtype)     # pooled in a graph's run
    ones.fill(1)
    total = np.matmul(ones, rows)
    workspace.release(ones)
    return total


def relu_pool_and_filter_grads(dy, x, y, patches_, conv_x, f, ksize, pool_strides,
                               pool_padding, pool_explicit, strides, padding,
                               explicit_paddings, dilations, pool_grad=True):
    """(g = max_pool_grad_of_relu(dy, x, y, ...), the Conv2DBackpropFilter of
    g for Conv2D(conv_x, f) from its patch matrix `patches_`, the bias
    gradient of g), chunk by chunk when the pool's windows tile `x` (see the
    module docstring); else the two kernels one after the other. A
    tap-grouped `x` (from `conv2d_bias_pool(..., grouped=True)`) is
    runtime/_src/ops/conv_tap_groups.py's, which gives None for g when not
    `pool_grad` (the generated code's promise that no one reads it)."""
    if x.ndim == 6:
        conv = (strides, padding, explicit_paddings, dilations)
        return conv_tap_groups.relu_pool_and_filter_grads_grouped(dy, x, y, patches_, conv_x, f,
                                                                  conv, pool_grad)
    fused = _chunked_grads(dy, x, y, patches_, f, ksize, pool_strides, pool_padding,
                           pool_explicit)
    if fused is not None:
        return fused
    grad = pool_ops.max_pool_grad_of_relu(dy, x, y, ksize, pool_strides, pool_padding,
                                          pool_explicit)
    return (grad,) + conv2d_filter_and_bias_grads(grad, patches_, conv_x, f, strides, padding,
                                                  explicit_paddings, dilations)


def _chunked_grads(dy, x, y, patches_, f, ksize, pool_strides, pool_padding, pool_explicit):
    """`relu_pool_and_filter_grads` on the one-comparison path, or None."""
    if (patches_ is None or x.ndim != 4 or x.dtype not in _BLAS_FLOATS
            or not (dy.dtype == y.dtype == patches_.dtype == f.dtype == x.dtype)
            or f.shape[3] != x.shape[3]
            or pool_ops._tiles(x, ksize, pool_strides, pool_padding, pool_explicit) is None):
        return None
    n, oh, ow, depth = x.shape
    per = oh * ow
    rows = patch_rows(patches_, (n, oh, ow) + f.shape[:3])
    if rows.shape[0] != n * per:
        return None
    item_bytes = per * rows.shape[1] * x.itemsize
    chunk = pool_ops.matched_chunk(x, y, ksize, item_bytes)
    cuts = parallel.chunk_bounds(n, chunk)
    index = {lo: i for i, lo in enumerate(cuts[:-1])}
    filter_parts = workspace.empty((len(index), rows.shape[1], depth), x.dtype)
    bias_parts = workspace.empty((len(index), depth), x.dtype)
    ones = workspace.empty((chunk * per,), x.dtype)
    ones.fill(1)

    def after(lo, hi, grad):            # this chunk's filter and bias sums
        g = grad[lo:hi].reshape((hi - lo) * per, depth)
        np.matmul(rows[lo * per:hi * per].T, g, out=filter_parts[index[lo]])
        np.matmul(ones[:len(g)], g, out=bias_parts[index[lo]])
    grad = pool_ops._matched_grad(dy, x, y, ksize, after, item_bytes)
    if grad is not None:
        grad = grad, conv_tap_groups.chunk_sum(filter_parts).reshape(f.shape), conv_tap_groups.chunk_sum(bias_parts)
    for array in (filter_parts, bias_parts, ones):
        workspace.release(array)
    return grad


def conv2d_bias_pool(x, f, bias, ksize, pool_strides, pool_padding, pool_explicit, strides,
                     padding, explicit_paddings, dilations, relu=False, grouped=False):
    """(BiasAdd(Conv2D(x, f), bias), the Conv2D's patch matrix (see
    `conv2d_keeping_patches`), MaxPool of that sum (and its ReLU, `relu`:
    max(pooled, 0), which the generated code moves after the pooling)), the
    bias added and the pooling done chunk by chunk when the windows tile the
    result (see the module docstring); else the kernels one after the other.
    `grouped` (the generated code's promise that only these kernels read the
    sum): the sum in tap-grouped order when the windows cover it
    (runtime/_src/ops/conv_tap_groups.py)."""
    conv = (strides, padding, explicit_paddings, dilations)
    pool = (ksize, pool_strides, pool_padding, pool_explicit)
    tiled = _tiled_shape(x, f, bias, conv, pool)
    zero = x.dtype.type(0)
    if tiled is None:
        y, rows = conv2d_keeping_patches(x, f, *conv)
        y = np.add(y, bias, out=y)
        pooled = pool_ops._max_pool(y, *pool)
        return y, rows, np.maximum(pooled, zero, out=pooled) if relu else pooled
    if grouped:
        return conv_tap_groups.conv2d_bias_pool_grouped(x, f, bias, ksize, conv, tiled, relu)
    (n, oh, ow, depth), (ph, pw) = tiled
    per = oh * ow
    pooled = workspace.empty((n, ph, pw, depth), x.dtype)
    most, slots = im2col.chunk_plan((n, oh, ow) + f.shape[:3], depth, x.itemsize)
    bands = workspace.empty((slots, most, ph, ow * depth), x.dtype)
    tiled_bias = np.tile(bias, ow)      # a row's biases: the add's loops run along whole rows

    def after(slot, lo, hi, out):       # this chunk's bias add and pooling
        rows = out[lo * per:hi * per].reshape((hi - lo) * oh, ow * depth)
        np.add(rows, tiled_bias, out=rows)
        _pool_chunk(rows.reshape(hi - lo, oh, ow, depth), bands[slot, :hi - lo], ksize,
                    pooled[lo:hi])
        if relu:
            np.maximum(pooled[lo:hi], zero, out=pooled[lo:hi])
    y, rows = conv2d_keeping_patches(x, f, *conv, after=after)
    workspace.release(bands)
    return y, rows, pooled


def _pool_chunk(part, band, ksize, pooled):
    """The max pooling of tiling windows of `part` (n, OH, OW, C) into `pooled`
    (n, PH, PW, C): first each window row band's maximum over its KH rows, into
    `band` (n, PH, OW*C), along whole rows (long contiguous loops), then the
    maximum over each window's KW columns of that (the max of the same values:
    the same value; of tied zeros of both signs, possibly the other sign)."""
    (kh, kw), (n, ph, pw, depth) = ksize, pooled.shape
    rows = part[:, :ph * kh].reshape(n, ph, kh, part.shape[2] * depth)
    if kh == 1:
        band = rows[:, :, 0]
    else:
        np.maximum(rows[:, :, 0], rows[:, :, 1], out=band)
        for a in range(2, kh):
            np.maximum(band, rows[:, :, a], out=band)
    columns = band.reshape(n, ph, part.shape[2], depth)[:, :, :pw * kw].reshape(n, ph, pw, kw, depth)
    if kw == 1:
        np.copyto(pooled, columns[:, :, :, 0])
        return
    np.maximum(columns[:, :, :, 0], columns[:, :, :, 1], out=pooled)
    for b in range(2, kw):
        np.maximum(pooled, columns[:, :, :, b], out=pooled)


def _tiled_shape(x, f, bias, conv, pool):
    """((N, OH, OW, O) of the convolution, (PH, PW) of the pooling) when the
    chunked path applies: a float32/64 ungrouped convolution of a 4-D input,
    a bias of its channels, pooling windows that tile its result; else None."""
    if (x.ndim != 4 or f.ndim != 4 or x.dtype not in _BLAS_FLOATS
            or not (f.dtype == bias.dtype == x.dtype) or f.shape[2] != x.shape[3]
            or bias.shape != f.shape[3:]):
        return None
    strides, padding, explicit, dilations = conv
    _, (oh, ow) = _pads(x.shape, f.shape[:2], strides, dilations, padding, explicit)
    ksize, pool_strides, pool_padding, pool_explicit = pool
    if oh is None or min(oh, ow) <= 0 or tuple(pool_strides) != tuple(ksize) or min(ksize) <= 0:
        return None
    pads, out = _pads((x.shape[0], oh, ow, f.shape[3]), ksize, ksize, (1, 1), pool_padding,
                      pool_explicit)
    if any(p for pair in pads for p in pair) or min(out) <= 0:
        return None
    return (x.shape[0], oh, ow, f.shape[3]), tuple(out)
