"""The kernels that run their passes chunk by chunk of the batch
(runtime/_src/core/parallel.py `split_chunked`, so that a chunk stays in the
core's cache from one pass to the next) against their reference paths, with
the chunks forced small so that a batch spans many, of uneven sizes, over one
and several threads, and on an empty batch: the same bits either way."""

import numpy as np
import pytest

from runtime._src.core import parallel
from runtime._src.core import workspace
from runtime._src.ops import conv_ops, im2col, pool_ops

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
    assert sorted(lo for _, lo, _ in seen) == [0, 3, 6, 9]     # the same cuts for any threads
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
