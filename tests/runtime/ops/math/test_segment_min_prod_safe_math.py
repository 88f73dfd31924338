"""`tf.math.segment_min/prod`, `unsorted_segment_min/prod/sqrt_n`,
`log_sigmoid`, `multiply_no_nan` and `xlog1py`: values, dtypes and gradients
(of sum(y * [1, 2, 3, 1, ...])) recorded from TensorFlow 2.21, in float32 and
float64, eagerly and inside `tf.function`, and the errors TF raises."""

import numpy as np
import pytest

import runtime as tf

M = tf.math
SORTED = np.array([0, 0, 2, 2, 3], np.int32)
UNSORTED = np.array([2, 0, 2, -1, 0], np.int32)        # -1 dropped, segments 1 and 3 empty
DATA = [[1., 2.], [1., -3.], [0., 5.], [4., 0.], [-2., 0.]]
BIG = "max"                     # stands for the dtype's largest value (an empty segment's min)

# name: (function, inputs, TF 2.21's value, TF 2.21's gradients for each input)
CASES = {
    "log_sigmoid": (M.log_sigmoid, [[0., 1., -1., 30., -30., 100., -100.]],
                    [-0.6931471805599453, -0.3132616875182228, -1.3132616875182228,
                     -9.357622968839737e-14, -30.000000000000092, 0.0, -100.0],
                    [[0.5, 0.5378828427399902, 2.193175735890015, 9.3576229688393e-14,
                      1.9999999999998128, 0.0, 1.0]]),
    "multiply_no_nan": (M.multiply_no_nan, [[np.nan, np.inf, 2., 3.], [0., 0., 0., 4.]],
                        [0., 0., 0., 12.], [[0., 0., 0., 4.], [np.nan, np.inf, 6., 3.]]),
    "multiply_no_nan broadcast": (M.multiply_no_nan, [[[1., 2.], [3., 4.]], [0., 5.]],
                                  [[0., 10.], [0., 20.]], [[[0., 10.], [0., 5.]], [10., 8.]]),
    "xlog1py": (M.xlog1py, [[0., 0., 2., 1., 0.], [-1., 3., 0., -0.5, np.nan]],
                [0., 0., 0., -0.6931471805599453, 0.],
                [[0., 0., 0., -0.6931471805599453, 0.], [0., 0., 6., 2., 0.]]),
    "xlog1py broadcast": (M.xlog1py, [[[0., 2.], [1., 3.]], [1., 0.]],
                          [[0., 0.], [0.6931471805599453, 0.]],
                          [[[0., 0.], [2.0794415416798357, 0.]], [1.5, 7.]]),
    "segment_min": (lambda a: M.segment_min(a, SORTED), [DATA],
                    [[1., -3.], [0., 0.], [0., 0.], [-2., 0.]],
                    [[[0.5, 0.], [0.5, 2.], [2., 0.], [0., 3.], [1., 2.]]]),
    "segment_prod": (lambda a: M.segment_prod(a, SORTED), [DATA],
                     [[1., -6.], [1., 1.], [0., 0.], [-2., 0.]],
                     [[[1., -6.], [1., 4.], [8., 0.], [0., 15.], [1., 2.]]]),
    "unsorted_segment_min": (lambda a: M.unsorted_segment_min(a, UNSORTED, 4), [DATA],
                             [[-2., -3.], [BIG, BIG], [0., 2.], [BIG, BIG]],
                             [[[0., 3.], [0., 2.], [2., 0.], [0., 0.], [1., 0.]]]),
    "unsorted_segment_prod": (lambda a: M.unsorted_segment_prod(a, UNSORTED, 4), [DATA],
                              [[-2., -0.], [1., 1.], [0., 10.], [1., 1.]],
                              [[[0., 15.], [-2., 0.], [2., 6.], [-0., -0.], [1., -6.]]]),
    "unsorted_segment_sqrt_n": (lambda a: M.unsorted_segment_sqrt_n(a, UNSORTED, 4), [DATA],
                                [[-0.7071067811865475, -2.1213203435596424], [0., 0.],
                                 [0.7071067811865475, 4.949747468305833], [0., 0.]],
                                [[[1.414213562373095, 2.1213203435596424],
                                  [0.7071067811865475, 1.414213562373095],
                                  [1.414213562373095, 2.1213203435596424], [0., 0.],
                                  [0.7071067811865475, 1.414213562373095]]]),
    "unsorted_segment_min ties": (lambda a: M.unsorted_segment_min(a, [1, 1, 1], 2),
                                  [[2., 2., 3.]], [BIG, 2.], [[1., 1., 0.]]),
    "segment_min ties": (lambda a: M.segment_min(a, [1, 1, 1]), [[2., 2., 3.]], [0., 2.],
                         [[1., 1., 0.]]),
    "unsorted_segment_prod 2-D ids": (
        lambda a: M.unsorted_segment_prod(a, [[0, 1], [1, 1]], 3), [[[2., 0.], [3., 4.]]],
        [2., 0., 1.], [[[1., 24.], [0., 0.]]]),
}


def _weighted_grads(fn, xs):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = fn(*xs)
        w = tf.reshape(tf.cast(tf.range(tf.size(y)) % 3 + 1, y.dtype), tf.shape(y))
        total = tf.reduce_sum(tf.where(tf.abs(y) < 1e30, y, tf.zeros_like(y)) * w)
    return y, [tape.gradient(total, x) for x in xs]


def _expected(values, dtype):
    big = np.finfo(dtype).max
    return np.array([[big if v == BIG else v for v in row] if isinstance(row, list)
                     else (big if row == BIG else row) for row in values], dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_are_tensorflows(name, traced, dtype):
    fn, inputs, want, want_grads = CASES[name]
    run = tf.function(_weighted_grads) if traced else _weighted_grads
    y, grads = run(fn, [tf.constant(np.array(x, dtype)) for x in inputs])
    tol = dict(rtol=2e-6, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    assert y.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(y.numpy(), _expected(want, dtype), **tol)
    for got, expected in zip(grads, want_grads):
        np.testing.assert_allclose(got.numpy(), np.array(expected, dtype), **tol)


def test_integer_segments_fill_empty_ones_as_tensorflow():
    # TF 2.21: unsorted min -> the dtype's max, prod -> 1, sorted min -> 0, prod -> 1.
    i32 = tf.constant([1, 2], tf.int32)
    assert M.unsorted_segment_min(i32, [1, 1], 3).numpy().tolist() == [2147483647, 1, 2147483647]
    assert M.unsorted_segment_prod(i32, [1, 1], 3).numpy().tolist() == [1, 2, 1]
    assert M.segment_min(i32, [1, 1]).numpy().tolist() == [0, 1]
    out = M.segment_prod(tf.constant([3, 2], tf.int64), [1, 1])
    assert out.dtype == tf.int64 and out.numpy().tolist() == [1, 6]
    half = M.unsorted_segment_sqrt_n(tf.constant([1, 2], tf.float16), [1, 1], 3)
    assert half.dtype == tf.float16 and half.numpy().tolist() == [0.0, 2.12109375, 0.0]
    assert M.xlog1py(2.0, 1.0).dtype == tf.float32


@pytest.mark.parametrize("call", [
    lambda: M.unsorted_segment_sqrt_n(tf.constant([1, 2]), [1, 1], 3),
    lambda: M.log_sigmoid(tf.constant([1, 2])),
    lambda: M.multiply_no_nan(tf.constant([1, 2]), tf.constant([0, 2])),
    lambda: M.xlog1py(tf.constant([1, 2]), tf.constant([0, 2])),
    lambda: M.unsorted_segment_min(tf.constant([1., 2.]), [1, 5], 3),
    lambda: M.segment_min(tf.constant([1., 2.]), [1, 0]),
], ids=["sqrt_n int", "log_sigmoid int", "multiply_no_nan int", "xlog1py int",
        "id out of range", "unsorted ids"])
def test_errors_are_tensorflows_invalid_argument(call):
    with pytest.raises(tf.errors.InvalidArgumentError):
        call()


def test_exported_under_tf_math_only_as_tensorflow():
    names = ["log_sigmoid", "multiply_no_nan", "xlog1py", "segment_min", "segment_prod",
             "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n"]
    for name in names:
        assert callable(getattr(tf.math, name)), name
        assert not hasattr(tf, name), name
