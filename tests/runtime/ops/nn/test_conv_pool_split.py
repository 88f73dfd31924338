"""The convolution and pooling kernels' elementwise work split over threads
(runtime/_src/core/parallel.py) gives the same bits as on one thread: max
pooling and its gradient (ties, an odd size, inf and NaN in dy), the im2col
copy of Conv2D and its filter gradient (1 and 8 channels), and the adds of
Conv2DBackpropInput, and the matrix products, whose rows are split over the
threads while BLAS runs on one (`parallel.matmul`). A product of fewer than
`parallel.THIN_ROWS` rows (a 1-channel conv's filter gradient: 9 rows) splits
its inner dimension instead and adds the parts: equal within float rounding,
not bit for bit. The split is forced here. Where this machine's BLAS sums a
row by how the rows are cut (tests/blas_rows.py), the products' kernels are
checked within float rounding instead."""

import os

import numpy as np
import pytest

from runtime._src.core import blas, parallel
from runtime._src.ops import conv_ops, pool_ops
from tests.blas_rows import assert_split_matches

CONV = dict(strides=(1, 1), dilations=(1, 1), padding="VALID", explicit_paddings=((0, 0), (0, 0)))
POOL = dict(ksize=(2, 2), strides=(2, 2), padding="VALID", explicit_paddings=((0, 0), (0, 0)))


def _kernels(shape):
    rng = np.random.default_rng(sum(shape))
    x = np.round(rng.standard_normal(shape) * 2).astype(np.float32)     # ties and zeros
    y = pool_ops._max_pool(x, **POOL)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    bad = dy.copy()
    bad[0, 0, 0, 0], bad[-1, -1, -1, -1] = np.inf, np.nan
    f = rng.standard_normal((3, 3, shape[-1], 4)).astype(np.float32)
    dc = rng.standard_normal(conv_ops._conv2d(x, f, **CONV).shape).astype(np.float32)
    return {
        "MaxPool": lambda: pool_ops._max_pool(x, **POOL),
        "MaxPoolGrad": lambda: pool_ops._max_pool_grad(dy, x, y, **POOL),
        "MaxPoolGrad inf/nan": lambda: pool_ops._max_pool_grad(bad, x, y, **POOL),
        "Conv2D": lambda: conv_ops._conv2d(x, f, **CONV),
        "Conv2DBackpropInput": lambda: conv_ops._conv2d_backprop_input(dc, x, f, **CONV),
        "Conv2DBackpropFilter": lambda: conv_ops._conv2d_backprop_filter(dc, x, f, **CONV),
    }


@pytest.mark.parametrize("shape", [(5, 27, 25, 8), (6, 28, 28, 1)])
@pytest.mark.parametrize("one_blas_thread", [False, True])
def test_split_kernels_give_the_same_bits(monkeypatch, shape, one_blas_thread):
    monkeypatch.setattr(blas, "single_threaded", lambda: one_blas_thread)
    for name, kernel in _kernels(shape).items():
        monkeypatch.setattr(parallel, "threads_for", lambda elements: 1)
        one = kernel()
        monkeypatch.setattr(parallel, "threads_for", lambda elements: 3)
        split = kernel()
        if name == "Conv2DBackpropFilter" and one_blas_thread \
                and 9 * shape[-1] < parallel.THIN_ROWS:     # the inner dimension split
            np.testing.assert_allclose(split, one, rtol=1e-5, atol=1e-5 * np.abs(one).max())
            continue
        if name.startswith("Conv2D"):                 # matrix products: the BLAS's sums
            assert_split_matches(split, one, err_msg=name)
            continue
        np.testing.assert_array_equal(split, one, err_msg=name)
        np.testing.assert_array_equal(np.signbit(split), np.signbit(one), err_msg=name)


def test_split_covers_the_range_and_raises_a_part_error(monkeypatch):
    monkeypatch.setattr(parallel, "threads_for", lambda elements: 3)
    seen = []
    parallel.split(10, lambda lo, hi: seen.append((lo, hi)), 1 << 20)
    assert sorted(seen) == [(0, 3), (3, 6), (6, 10)]

    def fail(lo, hi):
        if lo:
            raise ValueError(f"part {lo}")
    with pytest.raises(ValueError, match="part 3"):
        parallel.split(10, fail, 1 << 20)


def test_small_work_stays_on_the_calling_thread():
    assert parallel.threads_for(parallel.MIN_ELEMENTS - 1) == 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_splits_with_threads_of_its_own(monkeypatch):
    monkeypatch.setattr(parallel, "threads_for", lambda elements: 2)
    out = np.zeros(10)

    def fill(lo, hi):
        out[lo:hi] += 1
    parallel.split(10, fill, 1 << 20)          # the parent's pool threads start
    pid = os.fork()
    if pid == 0:                                # the child: a pool of its own, no hang
        parallel.split(10, fill, 1 << 20)
        os._exit(0 if out.sum() == 20 else 3)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("rows,depth,cols", [(968, 288, 64), (16, 5, 3)])
def test_a_split_product_gives_the_same_bits(monkeypatch, rows, depth, cols):
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((rows, depth)).astype(np.float32)
    b = rng.standard_normal((depth, cols)).astype(np.float32)
    monkeypatch.setattr(blas, "single_threaded", lambda: True)
    monkeypatch.setattr(parallel, "threads_for", lambda elements: 3)
    for left in (a, np.asfortranarray(a)):           # a patch matrix is used either way
        out = np.empty((rows, cols), np.float32)
        assert parallel.matmul(left, b, out) is out
        assert_split_matches(out, a @ b)


@pytest.mark.parametrize("rows,depth,cols", [(9, 21632, 32), (7, 5, 3), (1, 9, 4), (3, 0, 2)])
def test_a_thin_product_splits_its_inner_dimension(monkeypatch, rows, depth, cols):
    rng = np.random.default_rng(depth)
    a = rng.standard_normal((rows, depth)).astype(np.float32)
    b = rng.standard_normal((depth, cols)).astype(np.float32)
    monkeypatch.setattr(blas, "single_threaded", lambda: True)
    monkeypatch.setattr(parallel, "threads_for", lambda elements: 3)
    seen = []
    split = parallel.split
    monkeypatch.setattr(parallel, "split", lambda n, work, e: seen.append(n) or split(n, work, e))
    want = a.astype(np.float64) @ b.astype(np.float64)
    for left in (a, np.asfortranarray(a)):
        out = np.full((rows, cols), np.nan, np.float32)
        assert parallel.matmul(left, b, out) is out
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4 * max(1, np.sqrt(depth)))
    assert seen == [depth, depth]                        # the inner dimension was split
