"""`tf.nn`'s statistics, small losses and label ops (runtime/_src/ops/nn_stats_ops.py).
Every expected value is TF 2.21's, recorded with the same calls."""

import numpy as np
import pytest

import runtime as tf

X = [[-1., 2., 0.], [3., -4., 0.5]]


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6, atol=1e-7)


def _weighted_grads(fn, *args):
    """Gradients of sum_i (i + 1) * sum(out_i * [1, 2, 3, ...]) for each arg."""
    variables = [tf.Variable(a) for a in args]
    with tf.GradientTape() as tape:
        outs = fn(*variables)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        loss = tf.add_n([tf.reduce_sum(o * (i + 1.) * tf.cast(
            tf.reshape(tf.range(tf.size(o)), tf.shape(o)) + 1, o.dtype))
            for i, o in enumerate(outs)])
    return [g.numpy().tolist() for g in tape.gradient(loss, variables)]


def test_moments_from_sufficient_statistics():
    count, m_ss, v_ss, shift = tf.nn.sufficient_statistics(tf.constant(X), [0])
    assert shift is None
    _close(count, 2.0), _close(m_ss, [2.0, -2.0, 0.5]), _close(v_ss, [10.0, 20.0, 0.25])
    count, m_ss, v_ss, shift = tf.nn.sufficient_statistics(tf.constant(X), [0, 1], shift=1.,
                                                           keepdims=True)
    _close(count, 6.0), _close(m_ss, [[-5.5]]), _close(v_ss, [[35.25]]), _close(shift, 1.0)
    mean, var = tf.nn.normalize_moments(tf.constant(2.), tf.constant([1., 4.]),
                                        tf.constant([3., 20.]), tf.constant(0.5))
    _close(mean, [1.0, 2.5]), _close(var, [1.25, 6.0])
    mean, var = tf.nn.normalize_moments(tf.constant(2.), tf.constant([1., 4.]),
                                        tf.constant([3., 20.]), None)
    _close(mean, [0.5, 2.0]), _close(var, [1.25, 6.0])


def test_weighted_moments_values_and_gradients():
    mean, var = tf.nn.weighted_moments(tf.constant(X), [0], tf.constant([[1.], [3.]]))
    _close(mean, [2.0, -2.5, 0.375]), _close(var, [3.0, 6.75, 0.046875])
    mean, var = tf.function(lambda x: tf.nn.weighted_moments(
        x, [1], tf.constant([1., 0., 2.]), keepdims=True))(tf.constant(X))
    _close(mean, [[-1 / 3], [4 / 3]]), _close(var, [[0.2222222], [1.3888890]])
    mean, var = tf.nn.weighted_moments(tf.constant(X), [1], tf.constant([0., 0., 0.]))
    _close(mean, [0., 0.]), _close(var, [0., 0.])                   # no weight: 0, not NaN
    gx, gw = _weighted_grads(lambda x, w: tf.nn.weighted_moments(x, [0], w), X, [[1.], [3.]])
    _close(gx, [[-2.75, 9.5, -0.375], [3.75, -7.5, 3.375]])
    _close(gw, [[17.859377], [-5.953125]])


def test_zero_fraction():
    _close(tf.nn.zero_fraction(tf.constant(X)), 1 / 6)
    out = tf.function(tf.nn.zero_fraction)(tf.constant([0, 1, 0, 0]))
    assert out.dtype == tf.float32 and out.numpy() == 0.75
    assert np.isnan(tf.nn.zero_fraction(tf.zeros([0])).numpy())


def test_crelu_and_log_poisson_loss():
    _close(tf.nn.crelu(tf.constant(X)), [[0, 2, 0, 1, 0, 0], [3, 0, .5, 0, 4, 0]])
    _close(tf.nn.crelu(tf.constant(X), axis=0), [[0, 2, 0], [3, 0, .5], [1, 0, 0], [0, 4, 0]])
    _close(_weighted_grads(tf.nn.crelu, X)[0], [[-4.0, 2.0, 0.0], [7.0, -11.0, 9.0]])
    targets, logs = [0., 1., 3., 0.5], [0.5, -1., 2., 0.]
    _close(tf.nn.log_poisson_loss(tf.constant(targets[:3]), tf.constant(logs[:3])),
           [1.6487212, 1.3678794, 1.3890562])
    _close(tf.nn.log_poisson_loss(tf.constant(targets), tf.constant(logs),
                                  compute_full_loss=True), [1.6487212, 1.3678794, 3.1531377, 1])
    gt, gl = _weighted_grads(lambda t, lg: tf.nn.log_poisson_loss(t, lg, compute_full_loss=True),
                             targets, logs)
    assert np.isnan(gt[0])                              # log(0) * 0, as TF's
    _close(gt[1:], [2.0, -2.2041631, 0.0])
    _close(gl, [1.648721, -1.264241, 13.167168, 2.0])


def test_batch_norm_with_global_normalization():
    args = [tf.constant([1., 0., 0.]), tf.constant([4., 1., 0.25]), tf.constant([0.5, 0., 1.]),
            tf.constant([2., 1., 3.]), 0.001]
    _close(tf.nn.batch_norm_with_global_normalization(tf.constant(X), *args, True),
           [[-1.49975, 1.999001, 1.0], [2.49975, -3.998002, 3.994018]])
    _close(tf.nn.batch_norm_with_global_normalization(tf.constant(X), *args, False),
           [[-0.499875, 1.999001, 1.0], [1.499875, -3.998002, 1.998006]])


def test_in_top_k_ties_nan_and_bounds():
    p = tf.constant([[0.5, 0.5, 0.1], [1., 2., 3.]])
    assert tf.nn.in_top_k([0, 2], p, 1).numpy().tolist() == [True, True]      # a tie is in
    assert tf.function(lambda t: tf.nn.in_top_k(t, p, 1))(
        tf.constant([1, 0])).numpy().tolist() == [True, False]
    nan_row = tf.constant([[np.nan, 0.5, 0.1]])
    assert tf.nn.in_top_k([1], nan_row, 2).numpy().tolist() == [False]
    assert tf.nn.in_top_k([5], p[:1], 2).numpy().tolist() == [False]           # out of range
    assert tf.nn.in_top_k([1], p[:1], 0).numpy().tolist() == [False]


def test_collapse_repeated():
    labels, lengths = tf.nn.collapse_repeated(
        tf.constant([[1, 1, 2, 2, 2, 3], [4, 4, 4, 4, 5, 5]]), tf.constant([6, 3]))
    assert labels.numpy().tolist() == [[1, 2, 3], [4, 0, 0]]
    assert lengths.numpy().tolist() == [3, 1]


def test_isotonic_regression():
    values, segments = tf.nn.isotonic_regression(tf.constant([[1., 3., 2., 4.],
                                                              [5., 4., 3., 7.]]))
    _close(values, [[2.5, 2.5, 2.5, 2.5], [5.0, 14 / 3, 14 / 3, 14 / 3]])
    assert segments.dtype == tf.int32 and segments.numpy().tolist() == [[0, 0, 0, 0],
                                                                        [0, 1, 1, 1]]
    values, segments = tf.function(lambda x: tf.nn.isotonic_regression(x, decreasing=False))(
        tf.constant([[1., 3., 2., 4.]]))
    _close(values, [[1.0, 2.5, 2.5, 4.0]]), _close(segments, [[0, 1, 1, 2]])
    values, _ = tf.nn.isotonic_regression(tf.constant([[1., 3.], [2., 4.]]), axis=0)
    _close(values, [[1.5, 3.5], [1.5, 3.5]])
    values, segments = tf.nn.isotonic_regression(tf.constant([[3, 1, 2]]))
    assert values.dtype == tf.float64 and values.numpy().tolist() == [[3.0, 1.5, 1.5]]
    _, segments = tf.nn.isotonic_regression(tf.constant([[2., 2., 2.]]))
    assert segments.numpy().tolist() == [[0, 1, 2]]                          # ties stay apart
    grads = _weighted_grads(lambda x: tf.nn.isotonic_regression(x)[0],
                            [[1., 3., 2., 4.], [5., 4., 3., 7.]])
    _close(grads[0], [[2.5, 2.5, 2.5, 2.5], [5.0, 7.0, 7.0, 7.0]])


def test_tanh_is_in_nn():
    _close(tf.nn.tanh(tf.constant([0.5])), [0.46211714])
    with pytest.raises(tf.errors.InvalidArgumentError, match="float32"):
        tf.nn.in_top_k([0], tf.constant([[1, 2]]), 1)
