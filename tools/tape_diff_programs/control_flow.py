"""tools/tape_diff.py's tape programs for ops and control flow: stop_gradient, where, casts, TensorArrays,
map_fn and scan, second order through loops, jacobians."""

import numpy as np

from tape_diff_programs.base import _f64, gradient_of, program


# ---------------------------------------------------------------- ops and control flow

@gradient_of([1.0, -2.0])
def stop_gradient_and_identity(tf, x):
    return tf.reduce_sum(tf.stop_gradient(x * x) * x + tf.identity(x) * 2.0)


@gradient_of([0.0, 4.0])
def where_with_nan_in_the_other_branch(tf, x):
    return tf.reduce_sum(tf.where(x > 0.0, tf.sqrt(x), tf.zeros_like(x)))


@gradient_of([1.5, 2.5], np.float32)
def cast_float32_to_float64(tf, x):
    return tf.reduce_sum(tf.cast(x, tf.float64) ** 2)


@gradient_of([0.5, -1.0])
def tensor_array_in_a_loop(tf, x):
    ta = tf.TensorArray(tf.float64, size=3)
    for i in range(3):
        ta = ta.write(i, x * float(i + 1))
    return tf.reduce_sum(ta.stack() * ta.read(1))


@gradient_of([0.5, -1.0, 2.0])
def map_fn_and_scan(tf, x):
    return tf.reduce_sum(tf.map_fn(tf.sin, x)) + tf.reduce_sum(tf.scan(lambda a, e: a * e, x))


@program
def second_order_through_a_loop(tf):
    x = _f64(tf, 1.5)

    def run():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x])[1]
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)
    return run


@program
def jacobians(tf):
    x = _f64(tf, [[0.1, 0.2], [0.3, 0.4]])

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.sin(x) * x
        return tape.jacobian(y, x), tape.batch_jacobian(y, x)
    return run
