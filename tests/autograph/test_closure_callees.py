"""Closures of one code object share one conversion, so a callee held in a
closure cell is decided when it is called: the cell of a later closure may hold
a user function (to convert) where the first held a library function."""

import numpy as np

import autograph
import runtime as tf


def _apply(fn):
    def inner(v):
        return fn(v) * 2.0
    return inner


def _loops(v):
    total = v * 0.0
    while tf.reduce_sum(total) < 10.0:           # a tensor condition: needs converting
        total += v
    return total


def _halve_until_small(x):
    steps = 0
    while x > 1:                                 # plain Python on Python values
        x = x / 2
        steps += 1
    return steps


def test_library_function_first_then_user_function_in_a_graph():
    assert np.isclose(float(tf.function(_apply(tf.sin))(tf.constant(1.0))), 2 * np.sin(1.0))
    assert float(tf.function(_apply(_loops))(tf.constant(1.0))) == 20.0


def test_library_function_first_then_user_function_on_python_values():
    assert autograph.to_graph(_apply(abs))(-3.0) == 6.0
    assert autograph.to_graph(_apply(_halve_until_small))(8.0) == 6.0
    assert autograph.to_graph(_apply(_loops))(tf.constant(1.0)).numpy() == 20.0
