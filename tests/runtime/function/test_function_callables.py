"""`function` of callables that are not plain functions: numpy ufuncs,
functools.partial, callable objects and builtins (abs; max on tensors is
TF's clear error). Each case runs three ways: the original Python function
(eager tensors), the autograph-converted function, and the traced graph."""

import functools

import pytest

import runtime as tf


def _three_ways(fn, *args):
    """Results of the original, the converted function and the traced graph."""
    converted = tf.autograph.to_graph(fn)
    return fn(*args), converted(*args), tf.function(fn)(*args)


def clipped_difference(a, b, scale=1):
    if a > b:
        return (a - b) * scale
    return (b - a) * scale


class Model:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        if x > 0:
            return x * self.w
        return -x


@pytest.mark.parametrize("make", [
    lambda: functools.partial(clipped_difference, scale=3),
    lambda: functools.partial(clipped_difference, tf.constant(4), scale=3),
], ids=["keyword", "bound-tensor"])
def test_function_of_partial_three_ways(make):
    p = make()
    args = (tf.constant(1),) if p.args else (tf.constant(5), tf.constant(2))
    original, converted, traced = _three_ways(p, *args)
    assert original.numpy() == converted.numpy() == traced.numpy() == 9
    f = tf.function(p)
    other = (tf.constant(7),) if p.args else (tf.constant(1), tf.constant(2))
    assert f(*other).numpy() == (9 if p.args else 3)
    assert f(*args).numpy() == 9
    assert f.experimental_get_tracing_count() == 1


def test_function_of_callable_object_three_ways():
    model = Model(3)
    for x, expected in [(2, 6), (-2, 2)]:
        original, converted, traced = _three_ways(model, tf.constant(x))
        assert original.numpy() == converted.numpy() == traced.numpy() == expected
    f = tf.function(model)
    f(tf.constant(1))
    f(tf.constant(-1))
    assert f.experimental_get_tracing_count() == 1
    ops = [op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "If" in ops


@pytest.mark.parametrize("arg, expected", [(-3, 3), (2.5, 2.5)])
def test_function_of_builtin_abs(arg, expected):
    f = tf.function(abs)
    out = f(tf.constant(arg))
    assert out.numpy() == expected
    assert out.dtype == tf.constant(arg).dtype
    assert f(arg).numpy() == expected


def test_function_of_builtin_max_on_tensors_is_a_clear_error():
    # As in TensorFlow: the builtin runs unconverted and compares tensors.
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="symbolic tf.Tensor"):
        tf.function(max)(tf.constant(1), tf.constant(3))
    assert tf.function(max)(1, 3).numpy() == 3
