"""Gradients through staged control flow (cond, while_loop, loops autograph
converts, with break and early return) against finite differences, float64."""

import numpy as np

import runtime as tf
from tests.runtime.gradient_check import check_gradients, check_second_order

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


def _check_variable_gradient(fns, x):
    """d/dW of sum(f(x) for f in fns), traced, against central differences in W."""
    def total(x):
        return tf.add_n([tf.reduce_sum(f(x)) for f in fns])

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            y = total(x)
        return tape.gradient(y, W)

    def value(w):
        W.assign(w)
        return float(total(x))
    g = float(grad(x))
    eps = 1e-6
    numeric = (value(0.8 + eps) - value(0.8 - eps)) / (2 * eps)
    W.assign(0.8)
    np.testing.assert_allclose(g, numeric, rtol=1e-5)


def test_variable_gradient_through_cond_and_loop():
    _check_variable_gradient([loop_data_dependent, branchy], tf.constant(np.array([0.3, 0.2])))


def test_backward_loop_runs_the_forward_trip_count():
    @tf.function
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * 2.0), [0, x])[1]
        return tape.gradient(y, x)
    for n in (0, 1, 7):
        assert float(f(tf.constant(1.0), tf.constant(n))) == 2.0 ** n


def tensor_array_loop(x):
    ta = tf.TensorArray(tf.float64, size=3)
    for i in tf.range(3):
        ta = ta.write(i, tf.sin(x) * tf.cast(i + 1, tf.float64))
    return ta.stack() * 2.0 + ta.read(1)


def tensor_array_unstack(x):
    ta = tf.TensorArray(tf.float64, size=3).unstack(x)
    y = ta.read(0) * 0.0
    for i in tf.range(3):
        y = y + ta.read(i) * ta.read(i)
    return y


def nested_loops(x):
    y = x
    for i in tf.range(3):
        for j in tf.range(2):
            y = tf.tanh(y) + x * 0.5
    return y


def test_tensor_array_write_read_stack_in_a_loop():
    check_gradients(tensor_array_loop, [np.array([0.3, -0.6])])


def test_tensor_array_unstack_and_reads():
    check_gradients(tensor_array_unstack, [np.array([[0.3, 0.1], [0.5, -0.2], [0.7, 0.4]])])


def test_nested_while_loops():
    check_gradients(nested_loops, [np.array([0.3, -0.6])])


def test_while_gradient_memory_is_one_state_per_iteration():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: i < 1000, lambda i, y: (i + 1, y * 0.999), [0, x])[1]
        return tape.gradient(y, x)
    np.testing.assert_allclose(float(f(tf.constant(2.0, tf.float64))), 0.999 ** 1000)


def cond_in_loop(x):
    y = x
    for i in tf.range(4):
        if tf.reduce_sum(y) > 1.0:
            y = y * 0.5 * W
        else:
            y = tf.sin(y) + 1.0
    return y


def loop_in_cond(x):
    if tf.reduce_sum(x) > 0:
        y = x
        for i in tf.range(3):
            y = y * y * W + 0.1
    else:
        y = x
    return y


def test_cond_inside_a_loop_and_a_loop_inside_a_cond():
    check_gradients(cond_in_loop, [np.array([0.3, 0.4])])
    check_gradients(loop_in_cond, [np.array([0.3, 0.4])])


def test_variable_read_in_nested_control_flow():
    _check_variable_gradient([cond_in_loop, loop_in_cond], tf.constant(np.array([0.3, 0.4])))


def test_saved_model_keeps_a_gradient_through_a_loop(tmp_path):
    class Model(tf.Module):
        def __init__(self):
            self.w = tf.Variable(np.ones((3, 2), np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def grad(self, x):
            with tf.GradientTape() as tape:
                y = tf.reduce_mean(tf.nn.relu(tf.matmul(x, self.w)))
                s = 0.0
                for i in tf.range(3):
                    s += y * tf.cast(i, tf.float32)
            return tape.gradient(s, self.w)
    model = Model()
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    expected = model.grad(x).numpy()
    np.testing.assert_allclose(expected, np.full((3, 2), 0.75) * [[3], [5], [7]])
    tf.saved_model.save(model, str(tmp_path))
    np.testing.assert_allclose(tf.saved_model.load(str(tmp_path)).grad(x).numpy(), expected)


# --- higher order through staged loops ------------------------------------------------

def power_loop(x):
    # x ** n by a loop whose trip count depends on the data (n = 3 here)
    n = tf.cast(tf.round(tf.reduce_max(tf.abs(x)) * 2.0), tf.int32)
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * tf.sin(x) + x),
                         [0, tf.ones_like(x)])[1]


def test_second_order_through_a_while_loop():
    check_second_order(power_loop, [np.array([1.4, -0.9])])
    check_second_order(nested_loops, [np.array([0.3, -0.6])])
    check_second_order(lambda x: tf.map_fn(lambda e: e * tf.sin(e), x), [np.array([0.3, 0.8])])


def test_third_derivative_of_a_cube_computed_by_a_loop():
    @tf.function
    def derivatives(x):
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.while_loop(lambda i, y: i < tf.cast(x, tf.int32) + 1,
                                      lambda i, y: (i + 1, y * x), [0, tf.ones_like(x)])[1]
                d1 = t1.gradient(y, x)
            d2 = t2.gradient(d1, x)
        return y, d1, d2, t3.gradient(d2, x)
    values = [float(v) for v in derivatives(tf.constant(2.5, tf.float64))]
    assert values == [2.5 ** 3, 3 * 2.5 ** 2, 6 * 2.5, 6.0]


def test_second_order_with_a_persistent_tape_in_tf_function():
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = power_loop(x)
            g = tape.gradient(tf.reduce_sum(y), x)
            s = tf.reduce_sum(g * g)
        return tape.gradient(s, x)

    def first(v):
        return _numeric_grad(lambda u: float(tf.reduce_sum(power_loop(tf.constant(u)))), v)
    x = np.array([1.4, -0.9])
    expected = _numeric_grad(lambda u: float(np.sum(first(u) ** 2)), x, eps=1e-4)
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), expected, rtol=1e-4)


def _numeric_grad(fn, x, eps=1e-6):
    out = np.zeros_like(x)
    for k in range(x.size):
        up, down = x.copy(), x.copy()
        up[k] += eps
        down[k] -= eps
        out[k] = (fn(up) - fn(down)) / (2 * eps)
    return out


def test_jacobian_and_hessian_through_a_loop():
    x0 = np.array([0.5, -0.3, 0.8])

    def f(x):
        return tf.while_loop(lambda i, y: tf.logical_and(i < 10, tf.reduce_sum(y) < 3.0),
                             lambda i, y: (i + 1, tf.sin(y) * x + y), [0, x])[1]

    def jacobians(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape(persistent=True) as inner:
                inner.watch(x)
                y = f(x)
                s = tf.reduce_sum(y)
            jacobian = inner.jacobian(y, x)
            g = inner.gradient(s, x)
        return jacobian, outer.jacobian(g, x)
    jac = np.stack([_numeric_grad(lambda u: float(f(tf.constant(u))[i]), x0) for i in range(3)])
    hess = np.stack([_numeric_grad(lambda u: _numeric_grad(
        lambda w: float(tf.reduce_sum(f(tf.constant(w)))), u, 1e-4)[i], x0, 1e-4)
        for i in range(3)])
    for found_jac, found_hess in (jacobians(tf.constant(x0)),
                                  tf.function(jacobians)(tf.constant(x0))):
        np.testing.assert_allclose(found_jac.numpy(), jac, rtol=1e-5, atol=1e-8)
        np.testing.assert_allclose(found_hess.numpy(), hess, rtol=1e-3, atol=1e-5)
