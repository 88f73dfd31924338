"""Gradients through staged control flow (cond, while_loop, loops autograph
converts, with break and early return) against finite differences, float64."""

import numpy as np

import runtime as tf
from tests.runtime.gradient_check import check_gradients

W = tf.Variable(0.8, dtype=tf.float64)


def branchy(x):
    if tf.reduce_sum(x) > 0:
        y = x * x * W
    else:
        y = tf.sin(x) + W
    return y


def loop_data_dependent(x):
    # the trip count depends on the data: double until the sum passes 5
    y = x
    while tf.reduce_sum(tf.abs(y)) < 5.0:
        y = y * 1.5 + tf.sin(y) * W
    return y


def for_range_with_break(x):
    y = x
    for i in tf.range(10):
        if tf.reduce_max(y) > 3.0:
            break
        y = y * 1.3 + tf.cast(i, tf.float64) * 0.1
    return y


def for_range_with_continue(x):
    y = x
    for i in tf.range(6):
        if i % 2 == 0:
            continue
        y = tf.tanh(y) * W + x
    return y


def early_return(x):
    for i in tf.range(5):
        if tf.reduce_sum(x) > 2.0:
            return x * 2.0
        x = x * 1.5
    return x


def test_cond_both_branches():
    check_gradients(branchy, [np.array([0.5, 0.7])])
    check_gradients(branchy, [np.array([-0.5, -0.7])])


def test_while_with_data_dependent_trip_count():
    check_gradients(loop_data_dependent, [np.array([0.3, 0.2])])


def test_break_inside_a_tensor_loop():
    check_gradients(for_range_with_break, [np.array([0.5, 0.9])])


def test_continue_inside_a_tensor_loop():
    check_gradients(for_range_with_continue, [np.array([0.5, -0.9])])


def test_early_return_inside_a_tensor_loop():
    check_gradients(early_return, [np.array([0.4, 0.3])])


def test_variable_gradient_through_cond_and_loop():
    x = tf.constant(np.array([0.3, 0.2]))

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(loop_data_dependent(x)) + tf.reduce_sum(branchy(x))
        return tape.gradient(y, W)

    def value(w):
        W.assign(w)
        return float(tf.reduce_sum(loop_data_dependent(x)) + tf.reduce_sum(branchy(x)))
    g = float(grads(x))
    eps = 1e-6
    numeric = (value(0.8 + eps) - value(0.8 - eps)) / (2 * eps)
    W.assign(0.8)
    np.testing.assert_allclose(g, numeric, rtol=1e-5)


def test_backward_loop_runs_the_forward_trip_count():
    @tf.function
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * 2.0), [0, x])[1]
        return tape.gradient(y, x)
    for n in (0, 1, 7):
        assert float(f(tf.constant(1.0), tf.constant(n))) == 2.0 ** n
