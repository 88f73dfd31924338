"""A user's warnings filter that makes warnings errors (`-W error`, pytest's
`filterwarnings = error`) does not change results: TF gives inf and NaN where
numpy warns, eagerly and in graphs."""

import warnings

import numpy as np
import pytest

import runtime as tf


@pytest.fixture
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_eager_ops_give_inf_and_nan(warnings_are_errors):
    assert np.isinf((tf.constant(1.0) / 0.0).numpy())
    assert tf.math.log(tf.constant(0.0)).numpy() == -np.inf
    assert np.isnan(tf.sqrt(tf.constant(-1.0)).numpy())
    assert np.isnan(tf.reduce_mean(tf.constant([], tf.float32)).numpy())
    assert np.isinf(tf.math.exp(tf.constant([1000.0])).numpy()).all()


def test_a_stateless_graph_gives_inf(warnings_are_errors):
    @tf.function
    def f(x):
        return tf.math.log(x) / x

    assert f(tf.constant([0.0, 1.0])).numpy().tolist() == [-np.inf, 0.0]


def test_a_stateful_graph_says_what_happened(warnings_are_errors):
    v = tf.Variable([1.0])

    @tf.function
    def g(x):
        v.assign_add([1.0])
        return tf.math.log(x)

    with pytest.raises(tf.errors.InvalidArgumentError, match="divide by zero") as info:
        g(tf.constant([0.0]))
    assert "turned numpy's RuntimeWarning into an exception" in "\n".join(
        info.value.__notes__)
