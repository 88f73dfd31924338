"""tools/tape_diff.py's tape programs for watching and sources: watched integers, intermediate, duplicate and
nested sources and targets, unconnected sources, output_gradients."""

import numpy as np

from tape_diff_programs.base import _f64, gradient_of, program


# ---------------------------------------------------------------- watching and sources

@gradient_of(3, np.int32)
def watch_int_tensor(tf, x):
    return tf.cast(x, tf.float32) * 2.0


@program
def int_source_zero(tf):
    x = tf.constant([1, 2])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.cast(x, tf.float32))
        return tape.gradient(y, x, unconnected_gradients="zero")
    return run


@program
def integer_variable(tf):
    v = tf.Variable(3)

    def run():
        with tf.GradientTape(persistent=True) as tape:
            y = tf.cast(v, tf.float32) * 2.0
        return (tape.gradient(y, v), tape.gradient(y, v, unconnected_gradients="zero"),
                len(tape.watched_variables()))
    return run


@program
def intermediate_source(tf):
    x = _f64(tf, [1.0, 2.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * 2.0
            z = y * y
        return tape.gradient(z, [y, x])
    return run


@program
def source_computed_before_the_tape(tf):
    x = _f64(tf, 2.0)

    def run():
        y = x * 3.0
        with tf.GradientTape() as tape:
            tape.watch(x)
            z = y * x
        return tape.gradient(z, [x, y])
    return run


@program
def duplicate_and_nested_sources(tf):
    x, w = _f64(tf, 2.0), _f64(tf, [1.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = x * x * tf.reduce_sum(w)
        return tape.gradient(y, {"a": [x, x], "b": (w,)})
    return run


@program
def target_is_the_source(tf):
    x = _f64(tf, [1.0, 2.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
        return tape.gradient(x, x)
    return run


@program
def nested_targets(tf):
    x = _f64(tf, 2.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, z = x * x, x * 3.0
        return tape.gradient({"y": y, "z": [z, z]}, x)
    return run


@program
def unconnected_zero_and_none(tf):
    x, z = _f64(tf, 3.0), _f64(tf, [1.0, 2.0])
    v = tf.Variable(np.ones((2, 2)))

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            y = x * x
        return (tape.gradient(y, [x, z, v]),
                tape.gradient(y, [x, z, v], unconnected_gradients=tf.UnconnectedGradients.ZERO))
    return run


@program
def output_gradients(tf):
    x = _f64(tf, [1.0, 2.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            z = tf.reduce_sum(x)
        return tape.gradient([y, z], x, output_gradients=[_f64(tf, [1.0, 0.5, 2.0]), None])
    return run


@program
def output_gradients_wrong_shape(tf):
    x = _f64(tf, [1.0, 2.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, x, output_gradients=_f64(tf, [1.0, 2.0]))
    return run
