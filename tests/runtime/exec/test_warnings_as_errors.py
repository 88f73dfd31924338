"""TF gives inf and NaN silently where numpy warns (1/0, log(0), overflow, NaN
cast to an integer): our kernels run with numpy's floating-point errors off
(runtime/_src/core/fp_quiet.py), eagerly and in graphs, so nothing is printed,
a user's warnings filter that makes warnings errors (`-W error`, pytest's
`filterwarnings = error`) does not change results, and the user's own numpy
code still warns."""

import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.op_registry import OPS


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


def test_a_stateful_graph_gives_inf_and_runs_once(warnings_are_errors):
    v = tf.Variable([1.0])

    @tf.function
    def g(x):
        v.assign_add([1.0])
        return tf.math.log(x)

    assert g(tf.constant([0.0])).numpy().tolist() == [-np.inf]
    assert v.numpy().tolist() == [2.0]


def test_no_floating_point_warning_escapes_with_default_filters():
    @tf.function
    def f(x):
        return tf.exp(x * 1000.0) + tf.math.log(x) + 1.0 / x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.isnan(f(tf.constant([0.0, -1.0])).numpy()).tolist() == [True, True]
        assert tf.cast(tf.constant(np.nan), tf.int32).dtype == tf.int32
        assert (tf.constant([1.0]) / 0.0).numpy().tolist() == [np.inf]
    assert [str(w.message) for w in caught] == []


def test_the_users_own_numpy_still_warns():
    tf.constant(1.0) / 0.0
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        np.float32(1.0) / np.float32(0.0)


def test_a_stateful_graph_says_what_happened(warnings_are_errors, monkeypatch):
    """numpy's floating-point errors are off in kernels, but a kernel calling a
    numpy function that warns in Python ("Mean of empty slice") still raises
    under `-W error`; a graph with state is not run twice to hide it."""
    log = OPS["Log"]
    plain = log.kernel

    def warns_in_python(x):
        warnings.warn("Mean of empty slice", RuntimeWarning)
        return plain(x)

    monkeypatch.setattr(log, "kernel", warns_in_python)
    v = tf.Variable([1.0])

    @tf.function
    def g(x):
        v.assign_add([1.0])
        return tf.math.log(x)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Mean of empty slice") as info:
        g(tf.constant([0.0]))
    assert "turned numpy's RuntimeWarning into an exception" in "\n".join(
        info.value.__notes__)
    assert v.numpy().tolist() == [2.0]
