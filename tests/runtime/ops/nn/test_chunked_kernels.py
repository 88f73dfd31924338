"""The kernels that run their passes chunk by chunk of the batch
(runtime/_src/core/parallel.py `split_chunked`, so that a chunk stays in the
core's cache from one pass to the next) against their reference paths, with
the chunks forced small so that a batch spans many, of uneven sizes, over one
and several threads, and on an empty batch: the same bits where each value is
computed alike, within float rounding where partial sums are added in chunks
(a convolution's filter and bias gradients), and the generated code of a
training step calling the fused pool and filter gradients."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import parallel
from runtime._src.core import workspace
from runtime._src.ops import conv_grad_fused, conv_ops, im2col, pool_ops

NO_PADS = ((0, 0), (0, 0))


@pytest.fixture(params=[64, 1 << 20], ids=["tiny chunks", "default chunks"])
def chunk_bytes(request, monkeypatch):
    monkeypatch.setattr(parallel, "CHUNK_BYTES", request.param)
    return request.param


@pytest.fixture(params=[1, 2], ids=["one thread", "two threads"])
def threads(request, monkeypatch):
    monkeypatch.setattr(parallel, "_CORES", request.param)
    monkeypatch.setattr(parallel, "MIN_ELEMENTS", 1)
    return request.param


def test_split_chunked_covers_the_batch_once_in_order(threads):
    seen = []
    parallel.split_chunked(11, 3, lambda slot, lo, hi: seen.append((slot, lo, hi)), 1 << 20)
    covered = sorted(i for _, lo, hi in seen for i in range(lo, hi))
    assert covered == list(range(11))
    assert all(hi - lo <= 3 for _, lo, hi in seen)
    assert {slot for slot, _, _ in seen} == set(range(parallel.slots(11, 3, 1 << 20)))
    cuts = parallel.chunk_bounds(11, 3)
    assert sorted(lo for _, lo, _ in seen) == cuts[:-1] and len(cuts) - 1 == 4
    assert (len(cuts) - 1) % parallel._CORES == 0               # as many chunks per thread
    for slot in {s for s, _, _ in seen}:       # each slot's chunks follow one another
        mine = sorted((lo, hi) for s, lo, hi in seen if s == slot)
        assert all(a[1] == b[0] for a, b in zip(mine, mine[1:]))
    seen.clear()
    parallel.split_chunked(0, 3, lambda slot, lo, hi: seen.append((lo, hi)), 0)
    assert seen == []


@pytest.mark.parametrize("shape,ksize", [((7, 8, 8, 3), (2, 2)), ((5, 11, 9, 4), (2, 2)),
                                         ((3, 9, 9, 2), (3, 3)), ((0, 4, 4, 2), (2, 2))],
                         ids=str)
def test_chunked_relu_pool_gradient_equals_the_two_kernels(shape, ksize, chunk_bytes, threads):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(np.float32)
    y = pool_ops._max_pool(x, ksize, ksize, "VALID", NO_PADS)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    dy[..., :1] = -0.0                          # zeros' signs carried as the kernels do
    want = pool_ops._max_pool_grad(dy * (y > 0), x, y, ksize, ksize, "VALID", NO_PADS)
    got = pool_ops._matched_grad(dy, x, y, ksize)
    assert got is not None and got.shape == x.shape and got.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    if shape[0]:                                # a tie in the last image: the exact routing
        x[-1, 0, 0, 0] = x[-1, 0, 1, 0] = np.abs(x).max() + 1
        y = pool_ops._max_pool(x, ksize, ksize, "VALID", NO_PADS)
        assert pool_ops._matched_grad(dy, x, y, ksize) is None


@pytest.mark.parametrize("x_shape,f_shape,strides,padding",
                         [((5, 9, 9, 1), (3, 3, 1, 4), (1, 1), "VALID"),
                          ((7, 8, 7, 6), (3, 2, 6, 5), (2, 1), "SAME"),
                          ((3, 6, 6, 4), (2, 2, 4, 3), (2, 2), "VALID"),
                          ((0, 5, 5, 4), (3, 3, 4, 2), (1, 1), "SAME")], ids=str)
def test_chunked_conv_forward_equals_one_product(x_shape, f_shape, strides, padding,
                                                 chunk_bytes, threads, monkeypatch):
    monkeypatch.setattr(im2col.blas, "single_threaded", lambda: True)
    rng = np.random.default_rng(3)
    x = rng.standard_normal(x_shape).astype(np.float32)
    f = rng.standard_normal(f_shape).astype(np.float32)
    y, owner = conv_ops.conv2d_keeping_patches(x, f, strides, padding, NO_PADS, (1, 1))
    padded, out = conv_ops._padded(x, f_shape[:2], strides, (1, 1), padding, NO_PADS, 0)
    cols = conv_ops.patches(padded, f_shape[:2], strides, (1, 1), out)
    rows = cols.reshape(-1, int(np.prod(f_shape[:3])))
    want = (rows @ f.reshape(rows.shape[1], -1)).reshape(y.shape)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(im2col.patch_rows(owner, cols.shape), rows)
    workspace.release(owner)


FUSED_CASES = [  # (x shape, filter shape, conv strides, conv padding, dtype)
    ((7, 10, 10, 1), (3, 3, 1, 4), (1, 1), "VALID", np.float32),     # transposed patches
    ((5, 9, 8, 6), (3, 2, 6, 5), (1, 1), "SAME", np.float32),         # odd rows left out
    ((3, 12, 12, 4), (3, 3, 4, 3), (2, 2), "SAME", np.float64),
    ((0, 8, 8, 3), (3, 3, 3, 2), (1, 1), "VALID", np.float32),        # empty batch
]


def _layer(xs, fs, strides, padding, dtype, rng):
    """A conv layer's input, filter, biased output, patches, pooled ReLU and dy."""
    attrs = dict(strides=strides, padding=padding, explicit_paddings=NO_PADS, dilations=(1, 1))
    x = rng.standard_normal(xs).astype(dtype)
    f = rng.standard_normal(fs).astype(dtype)
    conv, rows = conv_ops.conv2d_keeping_patches(x, f, **attrs)
    conv = conv.copy()
    pooled = np.maximum(pool_ops._max_pool(conv, (2, 2), (2, 2), "VALID", NO_PADS), 0)
    dy = rng.standard_normal(pooled.shape).astype(dtype)
    return attrs, x, f, conv, rows, pooled, dy


@pytest.mark.parametrize("xs,fs,strides,padding,dtype", FUSED_CASES, ids=str)
def test_pool_and_filter_grads_in_chunks_equal_the_kernels(xs, fs, strides, padding, dtype,
                                                           chunk_bytes, threads):
    rng = np.random.default_rng(11)
    attrs, x, f, conv, rows, pooled, dy = _layer(xs, fs, strides, padding, dtype, rng)
    pool = ((2, 2), (2, 2), "VALID", NO_PADS)
    assert conv_grad_fused._chunked_grads(dy, conv, pooled, rows, f, *pool) is not None
    got = conv_grad_fused.relu_pool_and_filter_grads(dy, conv, pooled, rows, x, f, *pool,
                                                     **attrs)
    grad = pool_ops.max_pool_grad_of_relu(dy, conv, pooled, *pool)
    want = (grad,) + conv_grad_fused.conv2d_filter_and_bias_grads(grad, rows, x, f, **attrs)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype == dtype
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)
    np.testing.assert_array_equal(got[0], want[0])               # the pool gradient's bits
    if xs[0]:                                # inf in dy, then a tie: the two kernels
        for spoil in ("inf", "tie"):
            dy2, conv2 = dy.copy(), conv.copy()
            if spoil == "inf":
                dy2.flat[0] = np.inf
            else:
                conv2[-1, 0, 0, 0] = conv2[-1, 0, 1, 0] = np.abs(conv2).max() + 1
            pooled2 = np.maximum(pool_ops._max_pool(conv2, (2, 2), (2, 2), "VALID", NO_PADS), 0)
            with np.errstate(invalid="ignore"):
                got = conv_grad_fused.relu_pool_and_filter_grads(dy2, conv2, pooled2, rows, x,
                                                                 f, *pool, **attrs)
                grad = pool_ops.max_pool_grad_of_relu(dy2, conv2, pooled2, *pool)
            np.testing.assert_array_equal(got[0], grad)
    workspace.release(rows)


def _conv_pool_step(channels, size):
    """(x, a training step's function: [pooled, loss, filter grad, bias grad])
    of Conv2D, bias, ReLU and a 2x2 max pool on a (5, size, size, channels) batch."""
    rng = np.random.default_rng(channels)
    x = tf.constant(rng.standard_normal((5, size, size, channels)).astype(np.float32))
    f = tf.Variable(rng.standard_normal((3, 3, channels, 4)).astype(np.float32))
    b = tf.Variable(rng.standard_normal(4).astype(np.float32))

    def step(x):
        with tf.GradientTape() as tape:
            y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, "VALID"), b))
            p = tf.nn.max_pool2d(y, 2, 2, "VALID")
            loss = tf.reduce_sum(p * p)
        return [p, loss] + tape.gradient(loss, [f, b])
    return x, step


@pytest.mark.parametrize("channels, batch", [(1, 5), (3, None)])
def test_training_step_fuses_the_pool_and_filter_gradients(channels, batch):
    x, full = _conv_pool_step(channels, 10)

    def grads(x):
        return full(x)[2:]
    step = tf.function(grads, input_signature=[tf.TensorSpec([batch, 10, 10, channels])])
    got = step(x)
    src = step.get_concrete_function(x).graph.python_source()
    assert "_relu_pool_and_filter_grads(" in src and "_conv2d_filter_and_bias_grads(" not in src
    for g, w in zip(got, grads(x)):                                    # eager: the kernels
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-4)


FORWARD_CASES = [  # (x shape, filter shape, conv strides, padding, pool window, dtype)
    ((7, 10, 10, 1), (3, 3, 1, 4), (1, 1), "VALID", (2, 2), np.float32),
    ((5, 9, 8, 6), (3, 2, 6, 5), (1, 1), "SAME", (2, 2), np.float32),   # a row left out
    ((3, 12, 12, 4), (3, 3, 4, 3), (2, 2), "SAME", (3, 3), np.float64),
    ((0, 8, 8, 3), (3, 3, 3, 2), (1, 1), "VALID", (2, 2), np.float32),  # empty batch
    ((3, 8, 8, 4), (3, 3, 2, 4), (1, 1), "VALID", (2, 2), np.float32),  # grouped: 3 kernels
]


@pytest.mark.parametrize("xs,fs,strides,padding,window,dtype", FORWARD_CASES, ids=str)
def test_conv_bias_pool_in_chunks_equals_the_three_kernels(xs, fs, strides, padding, window,
                                                           dtype, chunk_bytes, threads,
                                                           monkeypatch):
    monkeypatch.setattr(im2col.blas, "single_threaded", lambda: True)
    rng = np.random.default_rng(5)
    x = rng.standard_normal(xs).astype(dtype)
    f = rng.standard_normal(fs).astype(dtype)
    b = rng.standard_normal(fs[3]).astype(dtype)
    conv = (strides, padding, NO_PADS, (1, 1))
    pool = (window, window, "VALID", NO_PADS)
    want = conv_ops._conv2d(x, f, *conv) + b
    for relu in (False, True):
        y, rows, pooled = conv_grad_fused.conv2d_bias_pool(x, f, b, *pool, *conv, relu=relu)
        np.testing.assert_array_equal(y, want)
        want_pooled = pool_ops._max_pool(want, *pool)
        np.testing.assert_array_equal(pooled, np.maximum(want_pooled, 0) if relu else want_pooled)
        assert pooled.dtype == y.dtype == dtype
        assert (rows is None) == (fs[2] != xs[3])
        if rows is not None:
            workspace.release(rows)


@pytest.mark.parametrize("channels, batch", [(1, 5), (3, None)])
def test_training_step_fuses_the_conv_bias_and_pool(channels, batch):
    x, step = _conv_pool_step(channels, 11)
    compiled = tf.function(step, input_signature=[tf.TensorSpec([batch, 11, 11, channels])])
    got = compiled(x)
    src = compiled.get_concrete_function(x).graph.python_source()
    assert "_conv2d_bias_pool(" in src and "relu=True" in src and "_MaxPool(" not in src
    assert "_np.maximum(" not in src
    for g, w in zip(got, step(x)):                                     # eager: the kernels
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-4)


def test_no_fused_forward_when_the_filter_gradient_comes_before_the_bias_add():
    # the filter gradient, planned between the Conv2D and its BiasAdd, is the
    # last reader of x: deferring the Conv2D past it would read a released x
    rng = np.random.default_rng(9)
    inp = tf.constant(rng.standard_normal((4, 10, 10, 2)).astype(np.float32))
    f = tf.constant(rng.standard_normal((3, 3, 2, 3)).astype(np.float32))
    b = tf.constant(rng.standard_normal(3).astype(np.float32))
    dy = tf.constant(rng.standard_normal((4, 8, 8, 3)).astype(np.float32))

    def fn(inp):
        x = inp * 2.0
        y = tf.nn.conv2d(x, f, 1, "VALID")
        grad = tf.conv2d_backprop_filter_v2(x, f, dy, 1, "VALID")
        p = tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(y, b)), 2, 2, "VALID")
        return p, grad
    compiled = tf.function(fn)
    got = compiled(inp)
    assert "_conv2d_bias_pool(" not in compiled.get_concrete_function(inp).graph.python_source()
    for g, w in zip(got, fn(inp)):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-5)
