"""im2col for the convolution kernels (conv_ops.py): a patch view copied
once into a matrix for one product, in the layout that copies fastest, into a
workspace array in a graph's run (runtime/_src/core/workspace.py)."""

import numpy as np

from runtime._src.core import parallel, workspace

__all__ = ["patch_matrix", "patch_rows"]


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
