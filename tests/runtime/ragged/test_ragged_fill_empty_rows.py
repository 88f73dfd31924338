"""tf.ragged_fill_empty_rows and ragged_fill_empty_rows_grad against TF 2.21's
recorded values: empty rows filled (and at the end), nothing given, unsorted
row ids sorted stably, the gradient to the values and the default value, and
TF's errors; eagerly and inside tf.function."""

import pytest

import runtime as tf

MODES = [lambda f: f, lambda f: tf.function(f, autograph=False)]
I64 = tf.int64


@pytest.mark.parametrize("wrap", MODES, ids=["eager", "function"])
@pytest.mark.parametrize("rowids, values, nrows, default, want", [
    ([0, 0, 2, 2, 4], [1.0, 2.0, 3.0, 4.0, 5.0], 6, -1.0,
     [[0, 0, 1, 2, 2, 3, 4, 5], [1.0, 2.0, -1.0, 3.0, 4.0, -1.0, 5.0, -1.0],
      [False, True, False, True, False, True], [0, 1, 3, 4, 6]]),
    ([], [], 2, 9.0, [[0, 1], [9.0, 9.0], [True, True], []]),
    ([1, 0], [1, 2], 3, 0, [[0, 1, 2], [2, 1, 0], [False, False, True], [1, 0]]),
])
def test_values_are_tfs(wrap, rowids, values, nrows, default, want):
    dtype = tf.int32 if isinstance(default, int) else tf.float32
    out = wrap(tf.ragged_fill_empty_rows)(tf.constant(rowids, I64), tf.constant(values, dtype),
                                           tf.constant(nrows, I64), tf.constant(default, dtype))
    assert [t.numpy().tolist() for t in out] == want
    assert [t.dtype for t in out] == [I64, dtype, tf.bool, I64]


@pytest.mark.parametrize("wrap", MODES, ids=["eager", "function"])
def test_gradients_are_tfs(wrap):
    grads = wrap(tf.ragged_fill_empty_rows_grad)(tf.constant([0, 1, 3, 4, 6, 5], I64),
                                                 tf.constant([1.0, 2, 3, 4, 5, 6, 7]))
    assert [t.numpy().tolist() for t in grads] == [[1.0, 2.0, 4.0, 5.0, 7.0, 6.0], 3.0]

    def run(v, d):
        with tf.GradientTape() as tape:
            tape.watch([v, d])
            out = tf.ragged_fill_empty_rows(tf.constant([0, 0, 2], I64), v,
                                            tf.constant(4, I64), d)[1]
            loss = tf.reduce_sum(out * tf.range(1.0, 6.0))
        return tape.gradient(loss, [v, d])
    dv, dd = wrap(run)(tf.constant([1.0, 2.0, 3.0]), tf.constant(0.5))
    assert (dv.numpy().tolist(), float(dd)) == ([1.0, 2.0, 4.0], 8.0)


def test_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\(1, 0\) is invalid: 5 >= 3"):
        tf.ragged_fill_empty_rows(tf.constant([0, 5], I64), tf.constant([1, 2]),
                                  tf.constant(3, I64), tf.constant(0))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"default_value must be a scalar, "
                                                             r"saw: \[1\]"):
        tf.ragged_fill_empty_rows(tf.constant([0, 1], I64), tf.constant([1, 2]),
                                  tf.constant(3, I64), tf.constant([0]))
