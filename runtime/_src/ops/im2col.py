"""im2col for the convolution kernels (conv_ops.py): a patch view copied
once into a matrix for one product, in the layout that copies fastest, into a
workspace array in a graph's run (runtime/_src/core/workspace.py).

`patch_product` copies and multiplies chunk by chunk of the batch, each
chunk's rows multiplied while the copy has left them in the core's cache."""

import numpy as np

from runtime._src.core import blas, parallel, workspace

__all__ = ["patch_matrix", "patch_rows", "patch_product", "chunk_plan", "chunking"]


def patch_matrix(cols):
    """The patch view `cols` (N, OH, OW, KH, KW, C) copied once into a new
    array (a workspace one in a graph's run) for a matrix product (im2col);
    `patch_rows` makes it the (N*OH*OW, KH*KW*C) matrix. The copy runs along the
    longer contiguous stretch of the input: the channels when there are 4 or
    more, into that matrix; else the image's columns, into a (KH*KW*C,
    N*OH*OW) array used transposed (a 1- or 3-channel image copies several
    times faster so, and the product takes either layout)."""
    n, oh, ow, kh, kw, c = cols.shape
    if c >= 4:
        owner = workspace.empty((n * oh * ow, kh * kw * c), cols.dtype)
        target = owner.reshape(cols.shape)
        parallel.split(n, lambda lo, hi: np.copyto(target[lo:hi], cols[lo:hi]), owner.size)
        return owner
    owner = workspace.empty((kh * kw * c, n * oh * ow), cols.dtype)
    by_tap = owner.reshape(kh, kw, c, n, oh, ow)
    source = cols.transpose(3, 4, 5, 0, 1, 2)
    parallel.split(n, lambda lo, hi: np.copyto(by_tap[:, :, :, lo:hi], source[:, :, :, lo:hi]),
                   owner.size)
    return owner


def patch_rows(owner, cols_shape):
    """The (N*OH*OW, KH*KW*C) patch matrix in `patch_matrix`'s array `owner`."""
    n, oh, ow, kh, kw, c = cols_shape
    return owner if c >= 4 else owner.T


def patch_product(cols, weights, out, after=None):
    """`patch_matrix(cols)` (returned), and `out` = its `patch_rows` . `weights`
    (a (KH*KW*C, O) matrix): the forward product of a convolution. Then
    `after(slot, lo, hi, out)`, when given, for each chunk [lo, hi) of the
    batch whose rows of `out` are done (for the whole batch at once, slot 0,
    when not chunked; `slot` as `parallel.split_chunked`'s, below
    `chunk_plan`'s slots, with at most its items).

    While BLAS runs on one thread (runtime/_src/core/blas.py), the copy and
    the product run chunk by chunk of the batch (`parallel.split_chunked`):
    a chunk's patch rows are multiplied right after they are copied, from
    the core's cache, instead of after the whole matrix has gone out to
    memory. Each output row is the same row's product with `weights`, the same
    bits as one product for the usual sizes (BLAS may take another kernel for
    a chunk of a few rows: equal within float rounding). With several BLAS
    threads, one product over the whole matrix."""
    n, oh, ow, kh, kw, c = cols.shape
    if not blas.single_threaded():
        owner = patch_matrix(cols)
        parallel.matmul(patch_rows(owner, cols.shape), weights, out)
        if after is not None:
            after(0, 0, n, out)
        return owner, out
    per, depth = oh * ow, kh * kw * c
    if c >= 4:
        owner = workspace.empty((n * per, depth), cols.dtype)
        target = owner.reshape(cols.shape)

        def work(slot, lo, hi):
            np.copyto(target[lo:hi], cols[lo:hi])
            np.matmul(owner[lo * per:hi * per], weights, out=out[lo * per:hi * per])
            if after is not None:
                after(slot, lo, hi, out)
    else:
        owner = workspace.empty((depth, n * per), cols.dtype)
        by_tap, source = owner.reshape(kh, kw, c, n, oh, ow), cols.transpose(3, 4, 5, 0, 1, 2)

        def work(slot, lo, hi):
            np.copyto(by_tap[:, :, :, lo:hi], source[:, :, :, lo:hi])
            np.matmul(owner[:, lo * per:hi * per].T, weights, out=out[lo * per:hi * per])
            if after is not None:
                after(slot, lo, hi, out)
    most, elements = chunking(cols.shape, weights.shape[1], owner.itemsize)
    parallel.split_chunked(n, most, work, elements)
    return owner, out


def chunk_plan(cols_shape, out_channels, itemsize):
    """(the most batch items in one chunk, how many slots) of the calls of
    `after` in `patch_product` for patches of `cols_shape`, `out_channels`
    outputs of `itemsize` bytes: a kernel's scratch arrays for them."""
    n = cols_shape[0]
    if not blas.single_threaded():
        return n, 1
    most, elements = chunking(cols_shape, out_channels, itemsize)
    return min(most, n), parallel.slots(n, most, elements)


def chunking(cols_shape, out_channels, itemsize):
    """(items per chunk, elements for the threads) of `patch_product`'s split
    (`parallel.split_chunked`) for patches of `cols_shape` and `out_channels`
    outputs of `itemsize` bytes."""
    n, oh, ow, kh, kw, c = cols_shape
    per, depth = oh * ow, kh * kw * c
    macs = n * per * depth * out_channels
    return (parallel.chunk_items(per * (depth + out_channels) * itemsize),
            max(n * per * depth, macs // parallel.MACS_PER_ELEMENT))

