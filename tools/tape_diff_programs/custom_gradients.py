"""tools/tape_diff.py's tape programs for custom gradients: custom_gradient (nested outputs, None, Variables,
second order, a wrong count), recompute_grad, grad_pass_through."""

import numpy as np

from tape_diff_programs.base import _f64, gradient_of, program


# ---------------------------------------------------------------- custom gradients

def _log1pexp(tf):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    return log1pexp


@gradient_of([0.0, 3.0, 100.0], np.float32)
def custom_gradient_log1pexp(tf, x):
    return _log1pexp(tf)(x)


@gradient_of([3.0, 4.0])
def custom_gradient_clip_by_norm(tf, x):
    @tf.custom_gradient
    def clip(a, norm):
        return tf.identity(a), lambda dy: [tf.clip_by_norm(dy, norm), None]
    return tf.reduce_sum(clip(x * 10.0, 1.0) * x)


@gradient_of(2.0)
def custom_gradient_nested_outputs(tf, x):
    @tf.custom_gradient
    def f(a):
        return [a * 2.0, {"k": a * 3.0}], lambda d1, d2: d1 * 5.0 + d2 * 7.0
    out = f(x)
    return out[0] + out[1]["k"]


@program
def custom_gradient_none_and_two_inputs(tf):
    a, b = _f64(tf, 2.0), _f64(tf, 3.0)

    @tf.custom_gradient
    def f(p, q):
        return p * q, lambda dy: (dy * q, None)

    def run():
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = f(a, b)
        return tape.gradient(y, [a, b])
    return run


@program
def custom_gradient_variables(tf):
    v = tf.Variable(np.float64(2.0))
    x = _f64(tf, 3.0)

    @tf.custom_gradient
    def f(a):
        return a * v, lambda dy, variables=None: (dy * v * 10.0, [dy * a * 100.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, [x, v])
    return run


@program
def custom_gradient_second_order(tf):
    x = _f64(tf, 2.0)

    @tf.custom_gradient
    def cube(a):
        return a * a * a, lambda dy: dy * 3.0 * a * a

    def run():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = cube(x)
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)
    return run


@program
def custom_gradient_wrong_count(tf):
    x = _f64(tf, 2.0)

    @tf.custom_gradient
    def f(a, b):
        return a * b, lambda dy: dy

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, x)
        return tape.gradient(y, x)
    return run


@gradient_of([1.0, 2.0])
def recompute_grad_block(tf, x):
    return tf.recompute_grad(lambda a: tf.reduce_sum(tf.sin(a) * a))(x)


@gradient_of(2.0)
def grad_pass_through_round(tf, x):
    return tf.grad_pass_through(tf.round)(x * 1.3)
