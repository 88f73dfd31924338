"""tools/tape_diff.py's tape programs for Variables: trainable and frozen, watch_accessed_variables, slice
and gather reads, assignments inside the tape, Variables in cond and while."""

import numpy as np

from tape_diff_programs.base import _f64, program


# ---------------------------------------------------------------- Variables

@program
def trainable_and_frozen_variables(tf):
    v, w = tf.Variable(2.0), tf.Variable(5.0, trainable=False)

    def run():
        with tf.GradientTape() as tape:
            y = v * v * w
        return tape.gradient(y, [v, w]), [x.name for x in tape.watched_variables()]
    return run


@program
def watch_accessed_variables_false(tf):
    v, w = tf.Variable(2.0), tf.Variable(3.0)

    def run():
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(w)
            y = v * w
        return tape.gradient(y, [v, w]), len(tape.watched_variables())
    return run


@program
def variable_slice_read(tf):
    v = tf.Variable(np.arange(6.0).reshape(2, 3))

    def run():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v[1, 1:] * 3.0) + v[0, 0]
        return tape.gradient(y, v)
    return run


@program
def variable_gather_read(tf):
    v = tf.Variable(np.arange(6.0).reshape(3, 2))

    def run():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [2, 0, 2]) * 2.0)
        return tape.gradient(y, v)
    return run


@program
def assign_inside_the_tape(tf):
    v = tf.Variable(np.array([1.0, 2.0]))
    x = _f64(tf, [3.0, 4.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            v.assign(x * 2.0)
            y = tf.reduce_sum(v * 3.0)
        return tape.gradient(y, [x, v])
    return run


@program
def assign_add_between_reads(tf):
    v = tf.Variable(2.0)

    def run():
        v.assign(2.0)
        with tf.GradientTape() as tape:
            a = v * 1.0
            v.assign_add(1.0)
            b = v * v
            y = a * b
        return tape.gradient(y, v)
    return run


@program
def variable_target(tf):
    v = tf.Variable(np.array([1.0, 2.0]))

    def run():
        with tf.GradientTape() as tape:
            pass
        return tape.gradient(v, v)
    return run


@program
def variables_in_cond_branches(tf):
    v, w = tf.Variable(2.0, dtype=tf.float64), tf.Variable(3.0, dtype=tf.float64)
    x = _f64(tf, 1.5)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 1.0, lambda: v * x * x, lambda: w * x)
        return tape.gradient(y, [x, v, w])
    return run


@program
def variable_in_a_while_loop(tf):
    v = tf.Variable(0.9, dtype=tf.float64)
    x = _f64(tf, 1.5)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: y < 10.0, lambda i, y: (i + 1, y * (1.0 + v) + x),
                              (0, x), maximum_iterations=20)[1]
        return tape.gradient(y, [x, v])
    return run
