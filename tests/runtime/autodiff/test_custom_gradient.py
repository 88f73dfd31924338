"""`tf.custom_gradient`, `tf.recompute_grad`, `tf.grad_pass_through`:
values and gradients eagerly and in tf.function, against hand-computed ones
and finite differences; Variables, nested tapes, loops and conds, errors
(TensorFlow 2.21's behaviour)."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients, check_second_order


def both(fn):
    """Run `fn` eagerly and as a tf.function; return both results as numpy."""
    def numpy(r):
        return tf.nest.map_structure(lambda t: None if t is None else np.asarray(t), r)
    return numpy(fn()), numpy(tf.function(fn)())


def grad_of(f, *args, variables=()):
    """(f(*args), the tape's gradient with respect to args and variables)."""
    with tf.GradientTape() as tape:
        tape.watch(list(args))
        y = f(*args)
    return y, tape.gradient(y, list(args) + list(variables))


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


@tf.custom_gradient
def cube(x):
    def grad(dy):
        return dy * 3.0 * x * x
    return x * x * x, grad


@tf.custom_gradient
def clip_gradient_by_norm(x, norm):
    y = tf.identity(x)

    def grad_fn(dresult):
        return [tf.clip_by_norm(dresult, norm), None]
    return y, grad_fn


@tf.custom_gradient
def straight_through_round(x):
    def grad(dy):
        return dy
    return tf.round(x), grad


# --- the classic examples --------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_log1pexp_gradient_is_stable_at_100():
    x = tf.constant(100.0)
    (y, (g,)), (y2, (g2,)) = both(lambda: grad_of(log1pexp, x))
    assert np.isinf(y) and np.isinf(y2)
    assert g == 1.0 and g2 == 1.0


def test_log1pexp_matches_finite_differences():
    check_gradients(log1pexp, [np.array([-2.0, 0.0, 0.5, 3.0])])


def test_clip_gradient_by_norm():
    def f():
        a = tf.constant([3.0, 4.0])
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.reduce_sum(clip_gradient_by_norm(a * 10.0, 1.0) * a)
        return tape.gradient(y, a)
    eager, staged = both(f)
    # through the clip: 10 * clip([3, 4]) = [6, 8]; directly: 10 * a
    np.testing.assert_allclose(eager, [36.0, 48.0], rtol=1e-6)
    np.testing.assert_allclose(staged, [36.0, 48.0], rtol=1e-6)


def test_straight_through_estimator():
    x = tf.constant([0.2, 1.7, -0.6])

    def f():
        return grad_of(lambda a: tf.reduce_sum(straight_through_round(a) * a), x)
    for y, (g,) in both(f):
        assert y == pytest.approx(0 * 0.2 + 2 * 1.7 + -1 * -0.6)
        np.testing.assert_allclose(g, [0.2 + 0.0, 1.7 + 2.0, -0.6 - 1.0], rtol=1e-6)


def test_custom_gradient_replaces_the_true_one():
    @tf.custom_gradient
    def f(x):
        return tf.sin(x), lambda dy: dy * 100.0
    x = tf.constant([0.5, 1.0])
    for y, (g,) in both(lambda: grad_of(f, x)):
        np.testing.assert_allclose(y, np.sin([0.5, 1.0]), rtol=1e-6)
        np.testing.assert_allclose(g, [100.0, 100.0])


def test_true_gradient_matches_finite_differences_float64():
    @tf.custom_gradient
    def f(x, y):
        s = tf.sin(x)

        def grad(dz):
            return dz * tf.cos(x) * y, dz * s
        return s * y, grad
    check_gradients(f, [np.array([0.3, -1.2, 2.0]), np.array([1.5, 0.5, -0.7])])


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_gradient_is_graph_ops_in_python_source():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp(x)
        return tape.gradient(y, x)
    source = step.get_concrete_function().graph.python_source()
    assert "CustomGradient" in source and "RealDiv" in source
    np.testing.assert_allclose(step(tf.constant([0.0, 100.0])).numpy(), [0.5, 1.0])


# --- structures, several inputs and outputs --------------------------------------------

def test_nested_outputs_get_one_upstream_each():
    @tf.custom_gradient
    def f(a):
        def grad(d1, d2):
            return d1 * 2.0 + d2 * 3.0
        return [a * 2.0, {"k": a * 3.0}], grad
    x = tf.constant(10.0)
    for (y, (g,)) in both(lambda: grad_of(f, x)):
        assert y[0] == 20.0 and y[1]["k"] == 30.0
        assert g == 5.0


def test_unused_output_gets_zero_upstream():
    @tf.custom_gradient
    def f(a):
        def grad(d1, d2):
            return d1 * 2.0 + d2 * 3.0 + 1.0
        return (a * 2.0, a * 3.0), grad
    x = tf.constant(10.0)
    assert both(lambda: grad_of(lambda a: f(a)[0], x)[1]) == ([3.0], [3.0])


def test_integer_output_passes_through():
    @tf.custom_gradient
    def f(a):
        return (a * 2.0, tf.constant(3)), lambda d1, d2: d1 * 7.0
    x = tf.constant(1.0)
    for (y, (g,)) in both(lambda: grad_of(lambda a: f(a)[0], x)):
        assert g == 7.0


def test_none_gradient_for_an_input():
    @tf.custom_gradient
    def f(a, b):
        return a * b, lambda dy: (dy, None)
    a, b = tf.constant(2.0), tf.constant(3.0)
    assert both(lambda: grad_of(f, a, b)[1]) == ([1.0, None], [1.0, None])


def test_single_input_gradient_may_be_a_list_or_a_python_number():
    @tf.custom_gradient
    def f(a):
        return a * 2.0, lambda dy: [dy * 7.0]

    @tf.custom_gradient
    def g(a):
        return a * 2.0, lambda dy: 5.0
    x = tf.constant(1.0)
    assert both(lambda: grad_of(f, x)[1]) == ([7.0], [7.0])
    assert both(lambda: grad_of(g, x)[1]) == ([5.0], [5.0])


def test_python_number_argument():
    np.testing.assert_allclose(log1pexp(1.0).numpy(), np.log1p(np.e), rtol=1e-6)
    np.testing.assert_allclose(tf.function(lambda: log1pexp(1.0))().numpy(),
                               np.log1p(np.e), rtol=1e-6)


def test_unwatched_input_has_no_gradient():
    x = tf.constant(2.0)

    def f():
        with tf.GradientTape() as tape:
            y = cube(x)
        return tape.gradient(y, x)
    assert both(f) == (None, None)


def test_keyword_arguments_eager_are_not_differentiated():
    @tf.custom_gradient
    def f(a, scale=1.0):
        return a * scale, lambda dy: dy * scale
    x = tf.constant(2.0)
    y, (g,) = grad_of(lambda a: f(a, scale=3.0), x)
    assert y.numpy() == 6.0 and g.numpy() == 3.0


def test_tf_gradients_in_a_graph():
    x = tf.constant(2.0)
    assert tf.function(lambda: tf.gradients(cube(x), x))()[0].numpy() == 12.0


def test_jacobian_and_persistent_tape():
    a = tf.constant([1.0, 2.0])

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(a)
            y = cube(a)
        return tape.jacobian(y, a), tape.gradient(y, a)
    for jac, grad in both(f):
        np.testing.assert_allclose(jac, [[3.0, 0.0], [0.0, 12.0]])
        np.testing.assert_allclose(grad, [3.0, 12.0])


# --- Variables ---------------------------------------------------------------------

def test_variables_get_their_gradients():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            assert len(variables) == 1 and variables[0] is v
            return dy * v * 10.0, [dy * x * 100.0]
        return x * v, grad
    x = tf.constant(3.0)
    for y, (gx, gv) in both(lambda: grad_of(f, x, variables=[v])):
        assert y == 6.0 and gx == 20.0 and gv == 300.0


def test_non_trainable_variables_are_not_passed():
    v = tf.Variable(2.0, trainable=False)

    @tf.custom_gradient
    def f(x):
        return x * v, lambda dy: dy * v
    x = tf.constant(3.0)
    assert both(lambda: grad_of(f, x)[1]) == ([2.0], [2.0])


def test_method_decorator_with_a_variable():
    class Scale(tf.Module):
        def __init__(self):
            self.w = tf.Variable(3.0)

        @tf.custom_gradient
        def __call__(self, a):
            def grad(dy, variables=None):
                return dy * self.w * 10.0, [dy * a * 100.0]
            return a * self.w, grad
    m = Scale()
    x = tf.constant(2.0)
    for y, (gx, gw) in both(lambda: grad_of(m, x, variables=[m.w])):
        assert y == 6.0 and gx == 30.0 and gw == 200.0


def test_grad_fn_without_variables_argument_is_a_type_error():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        return x * v, lambda dy: dy * v
    x = tf.constant(1.0)
    for run in (lambda: f(x), tf.function(lambda: f(x))):
        with pytest.raises(TypeError, match="@tf.custom_gradient grad_fn must accept keyword "
                                            "argument 'variables', since function uses "
                                            "variables"):
            run()


def test_wrong_number_of_variable_gradients():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        return x * v, lambda dy, variables=None: (dy * v, [])
    x = tf.constant(1.0)
    for run in (lambda: grad_of(f, x, variables=[v]),
                tf.function(lambda: grad_of(f, x, variables=[v]))):
        with pytest.raises(ValueError, match="Must return gradient for each variable from "
                                             "@custom_gradient grad_fn."):
            run()


# --- errors -----------------------------------------------------------------------

def test_wrong_number_of_gradients():
    @tf.custom_gradient
    def two(a, b):
        return a * b, lambda dy: dy

    @tf.custom_gradient
    def three(a):
        return a * 2.0, lambda dy: (dy, dy, dy)
    a, b = tf.constant(2.0), tf.constant(3.0)
    for run in (lambda: grad_of(two, a, b), tf.function(lambda: grad_of(two, a, b))):
        with pytest.raises(ValueError, match="custom_gradient function expected to return 2 "
                                             "gradients, but returned 1 instead."):
            run()
    with pytest.raises(ValueError, match="expected to return 1 gradients, but returned 3"):
        grad_of(three, a)


def test_keyword_arguments_in_a_graph_are_a_value_error():
    @tf.custom_gradient
    def f(a, scale=1.0):
        return a * scale, lambda dy: dy * scale
    with pytest.raises(ValueError, match="The custom_gradient decorator currently supports "
                                         "keywords arguments only when eager execution is "
                                         "enabled."):
        tf.function(lambda: f(tf.constant(1.0), scale=2.0))()


def test_function_must_return_a_pair():
    @tf.custom_gradient
    def f(a):
        return a * 2.0
    with pytest.raises(TypeError, match="must return a pair"):
        f(tf.constant(1.0))


# --- nested tapes, control flow --------------------------------------------------------

def test_second_order_matches_finite_differences():
    @tf.custom_gradient
    def f(x):
        s = tf.sin(x)

        def grad(dy):
            return dy * tf.cos(x) * 2.0 * s
        return s * s, grad
    # Wrapped in plain functions: autograph caches its conversion of
    # check_second_order's closures by code, and a callable object it does not
    # convert, seen first there, would leave later user functions unconverted.
    check_second_order(lambda x: f(x), [np.array([0.3, -1.1, 2.0])])
    check_second_order(lambda x: cube(x), [np.array([2.0, -0.5])])


def test_inside_a_while_loop_body():
    x = tf.constant(1.5)

    def f():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, cube(a) * 0.5),
                              [0, x])[1]
        return y, tape.gradient(y, x)
    # y = x**27 / 2**13, dy/dx = 27 x**26 / 2**13
    for y, g in both(f):
        assert y == pytest.approx(1.5 ** 27 / 2 ** 13, rel=1e-5)
        assert g == pytest.approx(27 * 1.5 ** 26 / 2 ** 13, rel=1e-5)


def test_inside_a_while_loop_body_with_a_variable():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(a):
        def grad(dy, variables=None):
            return dy * v, [dy * a]
        return a * v, grad
    x = tf.constant(1.0)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, f(a)), [0, x])[1]
        return y, tape.gradient(y, [x, v])
    y, (gx, gv) = step()
    assert y.numpy() == 4.0 and gx.numpy() == 4.0 and gv.numpy() == 4.0   # x v**2


def test_inside_a_cond_branch():
    x = tf.constant(2.0)

    @tf.function
    def f(c):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(c > 0, lambda: cube(x), lambda: x * 2.0)
        return y, tape.gradient(y, x)
    assert [t.numpy() for t in f(tf.constant(1))] == [8.0, 12.0]
    assert [t.numpy() for t in f(tf.constant(-1))] == [4.0, 2.0]


def test_python_control_flow_in_the_function_is_converted():
    @tf.custom_gradient
    def f(x):
        if x > 0:
            y = x * 2.0
        else:
            y = x * 3.0
        return y, lambda dy: dy * 10.0

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return y, tape.gradient(y, x)
    assert [t.numpy() for t in step(tf.constant(1.0))] == [2.0, 10.0]
    assert [t.numpy() for t in step(tf.constant(-1.0))] == [-3.0, 10.0]


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_saved_model_keeps_the_forward(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def grad(self, x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = log1pexp(x)
            return tape.gradient(y, x)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def value(self, x):
            return log1pexp(x)
    tf.saved_model.save(M(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded.value(tf.constant([0.0])).numpy(), [np.log(2.0)],
                               rtol=1e-6)
    np.testing.assert_allclose(loaded.grad(tf.constant([0.0, 100.0])).numpy(), [0.5, 1.0])


# --- recompute_grad, grad_pass_through -----------------------------------------------

def test_recompute_grad_equals_the_plain_gradient():
    def block(a):
        return tf.reduce_sum(tf.sin(a) * a)
    x = tf.constant([1.0, 2.0])
    recomputed = tf.recompute_grad(block)
    for (y, (g,)), (y0, (g0,)) in zip(both(lambda: grad_of(recomputed, x)),
                                      both(lambda: grad_of(block, x))):
        np.testing.assert_allclose(y, y0, rtol=1e-6)
        np.testing.assert_allclose(g, g0, rtol=1e-6)


def test_recompute_grad_runs_the_forward_again_and_sees_variables():
    calls = []
    w = tf.Variable([0.5, -1.0])

    def block(a):
        calls.append(1)
        return tf.reduce_sum(tf.tanh(a * w))
    x = tf.constant([1.0, 2.0])
    _, (gx, gw) = grad_of(tf.recompute_grad(block), x, variables=[w])
    assert len(calls) == 2
    _, (gx0, gw0) = grad_of(block, x, variables=[w])
    np.testing.assert_allclose(gx.numpy(), gx0.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gw.numpy(), gw0.numpy(), rtol=1e-6)


def test_recompute_grad_matches_finite_differences():
    check_gradients(tf.recompute_grad(lambda a, b: tf.exp(a) * b),
                    [np.array([0.1, -0.4]), np.array([2.0, 3.0])])


def test_grad_pass_through():
    x = tf.constant(2.0)

    def f():
        return grad_of(lambda a: tf.grad_pass_through(tf.round)(a * 1.3), x)
    for y, (g,) in both(f):
        assert y == 3.0
        assert g == pytest.approx(1.3)
