"""A conv layer's fused kernels with the activation in tap-grouped order
(runtime/_src/ops/conv_tap_groups.py) against the NHWC kernels they stand for
(conv_grad_fused.py): the pooled ReLU bit for bit, the activation the same
values reordered, the filter and bias gradients within float rounding (the
same products summed in another order), the routing to each window's first
maximum with ties, NaN and infinite gradients, the rows past the last window
(not computed, but a NaN input there still reaches the filter gradient as
0 * NaN does in the kernels); over chunks forced small and
one or two threads, odd and empty batches, SAME and VALID, strides, and
windows of several shapes. And the generated code of a training step: only
a layer whose activation nothing else reads is grouped."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import parallel, workspace
from runtime._src.ops import conv_grad_fused, conv_ops

NO_PADS = ((0, 0), (0, 0))

CASES = [  # (x shape, filter shape, conv strides, padding, pool window, dtype)
    ((7, 10, 10, 1), (3, 3, 1, 4), (1, 1), "VALID", (2, 2), np.float32),   # patches transposed
    ((5, 9, 8, 6), (3, 2, 6, 5), (1, 1), "SAME", (3, 2), np.float32),      # patch rows
    ((3, 12, 12, 3), (3, 3, 3, 3), (2, 2), "SAME", (3, 3), np.float64),
    ((4, 9, 9, 2), (2, 2, 2, 3), (1, 1), "VALID", (2, 1), np.float32),
    ((0, 8, 8, 3), (3, 3, 3, 2), (1, 1), "VALID", (2, 2), np.float32),     # empty batch
    ((5, 13, 13, 4), (3, 3, 4, 6), (1, 1), "VALID", (2, 2), np.float32),   # a row, a column out
    ((3, 10, 9, 1), (3, 3, 1, 2), (1, 1), "VALID", (3, 2), np.float32),    # two rows out
]


@pytest.fixture(params=[(64, 1), (1 << 20, 2)], ids=["tiny chunks, one thread",
                                                    "default chunks, two threads"])
def split(request, monkeypatch):
    chunk_bytes, cores = request.param
    monkeypatch.setattr(parallel, "CHUNK_BYTES", chunk_bytes)
    monkeypatch.setattr(parallel, "_CORES", cores)
    monkeypatch.setattr(parallel, "MIN_ELEMENTS", 1)
    monkeypatch.setattr(conv_grad_fused.conv_tap_groups.blas, "single_threaded", lambda: True)


def _ungrouped(a):
    """A tap-grouped (N, KH, KW, PH, PW, C) activation in NHWC order."""
    n, kh, kw, ph, pw, c = a.shape
    return a.transpose(0, 3, 1, 4, 2, 5).reshape(n, ph * kh, pw * kw, c)


def _spoiled(spoil, y, dy):
    """The NHWC activation and dy with a tie, a NaN or an infinity put in."""
    y, dy = y.copy(), dy.copy()
    if spoil == "tie":                  # two equal maxima in a window of the last image
        y[-1, 0, 0, :] = y[-1, 1, 0, :] = np.abs(y).max() + 1
    elif spoil == "nan":
        y[-1, 0, 0, 0] = np.nan
    elif spoil == "inf dy":            # in positive windows, and one whose maximum is 0
        y[0, :3, :3, 0] = -1.0
        y[0, 0, 0, 0] = 0.0             # its ReLU's mask is 0: inf * 0 is NaN there, as in TF
        dy[0].flat[:7] = np.inf
        dy[-1].flat[-3:] = -np.inf
    return y, dy


def _pooled(y, window):
    pool = conv_grad_fused.pool_ops._max_pool(y, window, window, "VALID", NO_PADS)
    return np.maximum(pool, 0, out=pool)


@pytest.mark.parametrize("spoil", [None, "tie", "nan", "inf dy", "nan x"])
@pytest.mark.parametrize("xs,fs,strides,padding,window,dtype", CASES, ids=str)
def test_grouped_layer_equals_the_nhwc_kernels(xs, fs, strides, padding, window, dtype,
                                               spoil, split):
    rng = np.random.default_rng(17)
    x = rng.standard_normal(xs).astype(dtype)
    if spoil == "nan x" and xs[0]:
        x[-1, -1, -1, 0] = np.nan       # read by the last row's patches only
    f = rng.standard_normal(fs).astype(dtype)
    b = rng.standard_normal(fs[3]).astype(dtype)
    conv = (strides, padding, NO_PADS, (1, 1))
    pool = (window, window, "VALID", NO_PADS)
    y0, rows0, p0 = conv_grad_fused.conv2d_bias_pool(x, f, b, *pool, *conv, relu=True)
    y1, rows1, p1 = conv_grad_fused.conv2d_bias_pool(x, f, b, *pool, *conv, relu=True,
                                                     grouped=True)
    assert y1.ndim == 6 and y1.dtype == p1.dtype == dtype
    np.testing.assert_array_equal(_ungrouped(y1), y0[:, :y1.shape[1] * y1.shape[3],
                                                      :y1.shape[2] * y1.shape[4]])
    np.testing.assert_array_equal(p1, p0)
    assert p1.shape == p0.shape
    dy = rng.standard_normal(p0.shape).astype(dtype)
    if xs[0] and spoil in ("tie", "nan", "inf dy"):     # the same values in both orders
        y0, dy = _spoiled(spoil, y0, dy)
        p0 = p1 = _pooled(y0, window)
        n, kh, kw, ph, pw, c = y1.shape
        y1 = np.ascontiguousarray(y0[:, :ph * kh, :pw * kw].reshape(n, ph, kh, pw, kw, c)
                                  .transpose(0, 2, 4, 1, 3, 5))
    with np.errstate(invalid="ignore"):
        want = conv_grad_fused.relu_pool_and_filter_grads(dy, y0, p0, rows0, x, f, *pool, *conv)
        got = conv_grad_fused.relu_pool_and_filter_grads(dy, y1, p1, rows1, x, f, *pool, *conv)
        unread = conv_grad_fused.relu_pool_and_filter_grads(dy, y1, p1, rows1, x, f, *pool,
                                                            *conv, pool_grad=False)
        windows = conv_grad_fused.relu_pool_and_filter_grads(dy, y1, p1, rows1, x, f, *pool,
                                                             *conv, pool_grad="windows")[0]
    np.testing.assert_array_equal(got[0], want[0])         # the pool gradient, NHWC
    np.testing.assert_array_equal(np.signbit(got[0]), np.signbit(want[0]))
    assert unread[0] is None
    _, kh, kw, ph, pw, _ = y1.shape
    assert windows.shape == (xs[0], ph * kh, pw * kw, fs[3])       # the windows' rows only
    np.testing.assert_array_equal(windows, want[0][:, :ph * kh, :pw * kw])
    with np.errstate(invalid="ignore"):                     # the input gradient reads no more
        dx = conv_ops._conv2d_backprop_input(windows, x, f, *conv)
        np.testing.assert_array_equal(dx, conv_ops._conv2d_backprop_input(want[0], x, f, *conv))
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for g, w, u in zip(got[1:], want[1:], unread[1:]):
        assert g.shape == w.shape and g.dtype == w.dtype == dtype
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)    # NaN where the kernels' are
        np.testing.assert_array_equal(u, g)
    for a in (rows0, rows1):
        workspace.release(a)


def test_input_gradient_of_a_non_finite_filter_gets_the_whole_pool_gradient():
    # the rows past the last window are zeros: 0 * inf in the input gradient is NaN
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 7, 7, 2)).astype(np.float32)        # 5x5: a row and column out
    f = rng.standard_normal((3, 3, 2, 3)).astype(np.float32)
    conv = ((1, 1), "VALID", NO_PADS, (1, 1))
    pool = ((2, 2), (2, 2), "VALID", NO_PADS)
    y, rows, pooled = conv_grad_fused.conv2d_bias_pool(x, f, np.zeros(3, np.float32), *pool,
                                                       *conv, relu=True, grouped=True)
    dy = rng.standard_normal(pooled.shape).astype(np.float32)
    f[2, 2, 0, 0] = np.inf
    grad = conv_grad_fused.relu_pool_and_filter_grads(dy, y, pooled, rows, x, f, *pool, *conv,
                                                      pool_grad="windows")[0]
    assert grad.shape == (2, 5, 5, 3) and not grad[:, 4].any() and not grad[:, :, 4].any()
    with np.errstate(invalid="ignore"):
        assert np.isnan(conv_ops._conv2d_backprop_input(grad, x, f, *conv)).any()


def test_empty_batch_with_blas_threads():
    # one product over the batch (BLAS on several threads), after() on no rows
    x = np.zeros((0, 8, 8, 3), np.float32)
    f = np.ones((3, 3, 3, 2), np.float32)
    for grouped in (False, True):
        y, _, pooled = conv_grad_fused.conv2d_bias_pool(
            x, f, np.zeros(2, np.float32), (2, 2), (2, 2), "VALID", NO_PADS, (1, 1), "VALID",
            NO_PADS, (1, 1), relu=True, grouped=grouped)
        assert y.size == 0 and pooled.shape == (0, 3, 3, 2)


def _layers(x, f1, b1, f2, b2, keep_activation=False):
    """A two-layer Conv-ReLU-MaxPool training step's loss, gradients (and
    the first ReLU activation when `keep_activation`)."""
    with tf.GradientTape() as tape:
        a = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f1, 1, "VALID"), b1))
        p = tf.nn.max_pool2d(a, 2, 2, "VALID")
        q = tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(p, f2, 1, "VALID"), b2)),
                             2, 2, "VALID")
        loss = tf.reduce_sum(q * q)
    out = [loss] + tape.gradient(loss, [f1, b1, f2, b2])
    return out + [a] if keep_activation else out


@pytest.mark.parametrize("keep", [False, True], ids=["activation unread", "activation returned"])
def test_training_step_groups_the_layers_no_one_else_reads(keep):
    rng = np.random.default_rng(5)
    x = tf.constant(rng.standard_normal((5, 14, 14, 1)).astype(np.float32))
    weights = [tf.Variable(rng.standard_normal(s).astype(np.float32) * 0.5)
               for s in [(3, 3, 1, 4), (4,), (2, 2, 4, 3), (3,)]]
    step = tf.function(lambda x: _layers(x, *weights, keep_activation=keep))
    got = step(x)
    src = step.get_concrete_function(x).graph.python_source()
    assert src.count("_conv2d_bias_pool(") == (1 if keep else 2)   # a ReLU read: not moved
    assert src.count("grouped=True") == (1 if keep else 2)
    assert src.count("pool_grad=False") == 1        # the first layer's: the second feeds dx
    for g, w in zip(got, _layers(x, *weights, keep_activation=keep)):   # eager: the kernels
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-4)
