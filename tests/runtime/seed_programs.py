"""The programs of the seed examples (the tf.function guide), built fresh for
each test: several test files check the same program from different angles
(test_seeds_runtime.py as the guide states it, the others next to the feature
they exercise)."""

import runtime as tf


def mean_of_squares(x, y):
    """Seed 001: a plain Python function to compare with its tf.function."""
    return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)


def counter_function():
    """Seed 001: `f(x) = x + c` after `c += 1`, for a captured Variable c = 0.
    Returns (c, f)."""
    c = tf.Variable(0)

    @tf.function
    def f(x):
        c.assign_add(1)
        return x + tf.cast(c, tf.float32)
    return c, f


def print_function():
    """Seed 002: Python `print` (runs while tracing) next to `tf.print` (runs
    at every call)."""
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)
    return f


def iterator_function():
    """Seed 002: a function that advances a Python iterator and adds its value
    to a Variable (var = 0). Returns (var, side_effect)."""
    var = tf.Variable(0)

    @tf.function
    def side_effect(iterator):
        var.assign_add(next(iterator))
        tf.print("Value of variable:", var)
    return var, side_effect
