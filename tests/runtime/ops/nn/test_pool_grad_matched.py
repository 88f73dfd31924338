"""The folded ReLU and max-pool gradient (pool_ops.max_pool_grad_of_relu, which
the generated code calls for ReluGrad(MaxPoolGrad(dy, x, MaxPool(x)), x) on
tiling windows) against the two kernels one after the other (whose values are
checked against TF's recorded ones in test_nn_conv_pool.py): the same bits,
zeros' signs included, on the one-comparison path (`_matched_grad`) and where
it hands over to the exact routing (tied maxima, a NaN or infinite dy)."""

import numpy as np
import pytest

from runtime._src.ops import pool_ops

NO_PADS = ((0, 0), (0, 0))
SHAPES = [((3, 8, 8, 4), (2, 2)), ((2, 11, 11, 5), (2, 2)), ((2, 9, 7, 3), (3, 3)),
          ((2, 6, 6, 2), (2, 3)), ((1, 4, 4, 1), (1, 1))]
X_KINDS = ["random", "relu", "ties", "nan", "negative", "subnormal"]
DY_KINDS = {"random": True, "negative zeros": True, "inf": False}


def _x(kind, shape, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    if kind == "relu":
        x = np.maximum(x, 0)
    elif kind == "ties":
        x = np.maximum(np.round(x), 0)
    elif kind == "nan":
        x[0, 0, 0, 0] = np.nan
    elif kind == "negative":
        x = -np.abs(x)
    elif kind == "subnormal":
        x = np.where(x > 0, np.float32(1e-45), -x).astype(np.float32)
        x[0, 0, 0, 0] = np.float32(1e-45)
    return x


def _dy(kind, shape, rng):
    dy = rng.standard_normal(shape).astype(np.float32)
    if kind == "negative zeros":
        dy[...] = -0.0
    elif kind == "inf":
        dy.flat[0] = np.inf
    return dy


@pytest.mark.parametrize("shape,ksize", SHAPES, ids=lambda v: str(v))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # inf * 0, as in a graph's quiet run
def test_folded_relu_pool_gradient_equals_the_two_kernels(shape, ksize):
    rng = np.random.default_rng(34)
    for x_kind in X_KINDS:
        x = _x(x_kind, shape, rng)
        y = pool_ops._max_pool(x, ksize, ksize, "VALID", NO_PADS)
        for dy_kind, finite in DY_KINDS.items():
            dy = _dy(dy_kind, y.shape, rng)
            want = pool_ops._max_pool_grad(dy * (y > 0), x, y, ksize, ksize, "VALID", NO_PADS)
            got = pool_ops.max_pool_grad_of_relu(dy, x, y, ksize, ksize, "VALID", NO_PADS)
            assert got.shape == x.shape and got.dtype == np.float32
            np.testing.assert_array_equal(got, want, err_msg=f"{x_kind}, {dy_kind}")
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
            fast = pool_ops._matched_grad(dy, x, y, ksize)
            if not finite:
                assert fast is None
            elif x_kind in ("random", "relu", "nan", "negative") and ksize != (1, 1):
                assert fast is not None


def test_tied_maxima_go_to_the_first_only():
    x = np.zeros((1, 2, 2, 1), np.float32) + 3
    y = pool_ops._max_pool(x, (2, 2), (2, 2), "VALID", NO_PADS)
    dy = np.full(y.shape, 5.0, np.float32)
    assert pool_ops._matched_grad(dy, x, y, (2, 2)) is None
    got = pool_ops.max_pool_grad_of_relu(dy, x, y, (2, 2), (2, 2), "VALID", NO_PADS)
    np.testing.assert_array_equal(got[0, :, :, 0], [[5, 0], [0, 0]])
