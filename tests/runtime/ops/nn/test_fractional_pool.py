"""tf.nn.fractional_max_pool and fractional_avg_pool.

Where the pooling ratio divides the input, TF's regions are fixed: the table
(tools/record_fractional_pool.py, TF 2.21's values in
tests/data/fractional_pool_tf221.npz) compares outputs, pooling sequences and
gradients (ties go to the first maximum), overlapping or not, eagerly and
traced. Otherwise the regions are random (numpy's draw, not TF's): their
documented properties are checked, and the output against the regions returned.
"""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_fractional_pool")
results = results_fixture(table)


@pytest.mark.parametrize("name", NAMES)
def test_fixed_regions_give_tfs_values_and_gradients(results, name):
    got = results[name]
    for i, value in enumerate(got):
        want = DATA[f"{name}/{i}"]
        assert value.shape == want.shape and value.dtype == want.dtype, (name, i)
        np.testing.assert_allclose(value, want, rtol=1e-6, atol=1e-7, err_msg=f"{name}/{i}")


@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
def test_random_regions_have_tfs_properties(pseudo_random, overlapping):
    x = tf.constant(np.random.default_rng(2).normal(size=[2, 10, 7, 3]).astype(np.float32))
    out, rows, cols = tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], pseudo_random,
                                                overlapping, seed=5)
    assert out.shape == (2, 6, 4, 3) and rows.dtype == tf.int64
    for seq, size, k in ((rows.numpy(), 10, 1), (cols.numpy(), 7, 1)):
        assert seq[0] == 0 and seq[-1] == size and set(np.diff(seq)) <= {k, k + 1}
    extra = int(overlapping)
    r, c, v = rows.numpy(), cols.numpy(), x.numpy()
    want = np.array([[v[:, r[i]:min(r[i + 1] + extra, 10), c[j]:min(c[j + 1] + extra, 7)]
                      .max(axis=(1, 2)) for j in range(4)] for i in range(6)])
    np.testing.assert_array_equal(out.numpy(), want.transpose(2, 0, 1, 3))
    again = tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], pseudo_random, overlapping,
                                      seed=5)
    assert [a.numpy().tolist() for a in again[1:]] == [rows.numpy().tolist(), cols.numpy().tolist()]


def test_bad_ratios_raise_tfs_errors():
    x = tf.zeros([1, 10, 7, 1])
    with pytest.raises(ValueError, match="first and last elements with value 1.0"):
        tf.nn.fractional_max_pool(x, [2.0, 1.5, 1.5, 1.0])
    with pytest.raises(ValueError, match="should be >= 1.0"):
        tf.nn.fractional_avg_pool(x, [1.0, 0.5, 1.5, 1.0])
