"""The fast conv and pooling kernels against the general ones they replace.

Conv2DBackpropInput (one product per filter tap, added onto the input) and
Conv2DBackpropFilter / Conv2D (one im2col product, copied by channel or by
pixel) are the adjoints of Conv2D in x and in f: <conv(x, f), dy> equals
<x, dx(dy)> and <f, df(dy)>, for strides, dilations, SAME and explicit
padding, groups, and 1, 3 and 8 channels (both im2col layouts). MaxPoolGrad
for windows that tile the input (strides == ksize, no padding) gives the
same bits as the general gather-and-scatter path, at ties, NaN inputs and
NaN or infinite gradients, where TF sends each window's gradient to its
first maximal element only.
"""

import numpy as np
import pytest

from runtime._src.ops import conv_ops, pool_ops

RNG = np.random.default_rng(34)
NO_PADS = ((0, 0), (0, 0))

CONV_CASES = [  # x shape, filter shape, strides, padding, explicit, dilations
    ((2, 7, 8, 1), (3, 3, 1, 4), (1, 1), "VALID", NO_PADS, (1, 1)),
    ((2, 7, 8, 3), (3, 2, 3, 5), (2, 3), "SAME", NO_PADS, (1, 1)),
    ((2, 9, 8, 8), (2, 3, 8, 6), (1, 2), "VALID", NO_PADS, (2, 1)),
    ((1, 6, 7, 4), (3, 3, 4, 2), (1, 1), "EXPLICIT", ((1, 2), (0, 1)), (1, 1)),
    ((1, 6, 6, 4), (2, 2, 2, 6), (1, 1), "SAME", NO_PADS, (1, 1)),       # 2 groups
    ((3, 5, 5, 2), (5, 5, 2, 3), (1, 1), "VALID", NO_PADS, (1, 1)),      # 1x1 output
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}*{c[1]}/{c[3]}")
def test_conv_gradients_are_the_adjoints_of_conv(case):
    xs, fs, strides, padding, explicit, dilations = case
    attrs = dict(strides=strides, padding=padding, explicit_paddings=explicit,
                 dilations=dilations)
    x, f = RNG.standard_normal(xs), RNG.standard_normal(fs)
    y = conv_ops._conv2d(x, f, **attrs)
    dy = RNG.standard_normal(y.shape)
    dx = conv_ops._conv2d_backprop_input(dy, x, f, **attrs)
    df = conv_ops._conv2d_backprop_filter(dy, x, f, **attrs)
    assert dx.shape == x.shape and df.shape == f.shape
    assert dx.dtype == df.dtype == y.dtype == np.float64
    np.testing.assert_allclose(np.sum(y * dy), np.sum(x * dx), rtol=1e-10)
    np.testing.assert_allclose(np.sum(y * dy), np.sum(f * df), rtol=1e-10)
    # the forward pass against the general tensordot over the patch view
    padded, out = conv_ops._padded(x, fs[:2], strides, dilations, padding, explicit, 0)
    cols = conv_ops.patches(padded, fs[:2], strides, dilations, out)
    if fs[2] == xs[3]:
        np.testing.assert_allclose(y, np.tensordot(cols, f, axes=3), rtol=1e-12, atol=1e-12)


def test_conv_float32_stays_float32():
    x = RNG.standard_normal((2, 6, 6, 3)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
    attrs = dict(strides=(1, 1), padding="SAME", explicit_paddings=NO_PADS, dilations=(1, 1))
    dy = np.ones((2, 6, 6, 4), np.float32)
    assert conv_ops._conv2d(x, f, **attrs).dtype == np.float32
    assert conv_ops._conv2d_backprop_input(dy, x, f, **attrs).dtype == np.float32
    assert conv_ops._conv2d_backprop_filter(dy, x, f, **attrs).dtype == np.float32


def _pool_input(shape, dtype):
    """Small integers (many ties within a window), a few NaNs for floats."""
    x = RNG.integers(0, 3, shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x.flat[RNG.choice(x.size, 3, replace=False)] = np.nan
    return x


POOL_CASES = [  # x shape, ksize, padding, dtype
    ((2, 6, 8, 3), (2, 2), "VALID", np.float32),
    ((2, 7, 9, 3), (2, 2), "VALID", np.float64),     # a row and a column left out
    ((1, 6, 6, 2), (3, 2), "SAME", np.float32),      # SAME that needs no padding
    ((2, 4, 6, 2), (2, 3), "VALID", np.int32),
    ((1, 5, 5, 1), (5, 5), "VALID", np.float32),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: f"{c[0]}/{c[1]}/{c[2]}")
@pytest.mark.parametrize("dy_kind", ["finite", "nan_inf"])
def test_tiled_max_pool_grad_equals_the_general_path(case, dy_kind):
    shape, ksize, padding, dtype = case
    attrs = dict(ksize=ksize, strides=ksize, padding=padding, explicit_paddings=NO_PADS)
    x = _pool_input(shape, dtype)
    assert pool_ops._tiles(x, ksize, ksize, padding, NO_PADS) is not None
    y = pool_ops._max_pool(x, **attrs)
    general_y = None
    for tap in pool_ops._pool_taps(x, ksize, ksize, padding, NO_PADS, 0):
        general_y = tap.copy() if general_y is None else np.maximum(general_y, tap)
    np.testing.assert_array_equal(y, general_y)
    dy = RNG.integers(1, 9, y.shape).astype(dtype)
    if dy_kind == "nan_inf":
        if np.dtype(dtype).kind != "f":
            pytest.skip("integers have no NaN")
        dy.flat[0], dy.flat[-1] = np.nan, np.inf
    fast = pool_ops._max_pool_grad(dy, x, y, **attrs)
    general = pool_ops._scattered_max_pool_grad(dy, x, y, **attrs)
    assert fast.dtype == general.dtype == dtype and fast.shape == x.shape
    np.testing.assert_array_equal(fast, general)


def test_max_pool_grad_sends_a_tie_to_its_first_element():
    x = np.array([[1, 1], [1, 0]], np.float32).reshape(1, 2, 2, 1)
    attrs = dict(ksize=(2, 2), strides=(2, 2), padding="VALID", explicit_paddings=NO_PADS)
    y = pool_ops._max_pool(x, **attrs)
    grad = pool_ops._max_pool_grad(np.full(y.shape, 5, np.float32), x, y, **attrs)
    np.testing.assert_array_equal(grad.reshape(2, 2), [[5, 0], [0, 0]])


def test_overlapping_windows_take_the_general_path():
    x = RNG.standard_normal((1, 5, 5, 1))
    assert pool_ops._tiles(x, (3, 3), (2, 2), "VALID", NO_PADS) is None
    assert pool_ops._tiles(x, (2, 2), (2, 2), "SAME", NO_PADS) is None    # padded
