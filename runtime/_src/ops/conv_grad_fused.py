"""A convolution's filter and bias gradients together, as the generated code
of a training step calls them (runtime/_src/exec/codegen.py).

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
"""

import numpy as np

from runtime._src.core import workspace
from runtime._src.ops.conv_ops import conv2d_backprop_filter_from_patches

__all__ = ["conv2d_filter_and_bias_grads", "bias_gradient"]

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
