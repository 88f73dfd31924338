"""Whether numpy's BLAS on this machine gives each row of a matrix product the
same bits however many rows it multiplies at once.

The executor splits a large product's rows over threads (`parallel.matmul`,
runtime/_src/core/parallel.py), and a graph's first run (interpreted) multiplies
the rows at once. Where the BLAS sums a row alike in both, the two agree to the
bit, and the tests say so. Not every BLAS does: OpenBLAS 0.3.31 on an AMD EPYC
without AVX-512 sums a row by how the rows are cut (1-2 ulp apart). There the
tests check the values within float rounding instead."""

import functools

import numpy as np

# Products the tests split (a conv's patch rows by its filter, a Dense layer's
# batch by its kernel), each cut in two and three parts as the kernels cut them.
_SHAPES = [(968, 288, 64), (60, 784, 128), (1000, 100, 10)]


@functools.lru_cache(maxsize=None)
def rows_alike():
    """True when every probe product's rows, multiplied in 2 or 3 slices, give
    the bits of the product multiplied at once."""
    rng = np.random.default_rng(0)
    for rows, depth, cols in _SHAPES:
        a = rng.standard_normal((rows, depth)).astype(np.float32)
        b = rng.standard_normal((depth, cols)).astype(np.float32)
        whole = a @ b
        for parts in (2, 3):
            cuts = [rows * i // parts for i in range(parts + 1)]
            sliced = np.concatenate([a[lo:hi] @ b for lo, hi in zip(cuts, cuts[1:])])
            if not np.array_equal(sliced, whole):
                return False
    return True


def assert_split_matches(split, whole, err_msg=""):
    """`split` (rows computed in slices) equals `whole` to the bit where the
    BLAS sums rows alike (`rows_alike`), else within float32 rounding."""
    if rows_alike():
        np.testing.assert_array_equal(split, whole, err_msg=err_msg)
        np.testing.assert_array_equal(np.signbit(split), np.signbit(whole), err_msg=err_msg)
    else:
        scale = np.abs(whole).max() if np.size(whole) else 0.0
        np.testing.assert_allclose(split, whole, rtol=1e-5, atol=1e-6 * scale, err_msg=err_msg)


def assert_runs_match(got, want):
    """Two runs' results as JSON lists (numbers, strings, nested lists): equal,
    or where the BLAS does not sum rows alike (`rows_alike`: a graph's first
    run, interpreted, multiplies a product's rows at once, a later run splits
    them), floats within float32 rounding and all else equal."""
    if rows_alike():
        assert got == want
        return
    assert _floats_close(got, want), f"{got!r} != {want!r}"


def _floats_close(got, want):
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) \
            and all(_floats_close(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and isinstance(got, float):
        return bool(np.isclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True))
    return got == want
