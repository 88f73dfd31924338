"""The eager-versus-graph check mode (runtime.equivalence)."""

import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.check.equivalence import EquivalenceError


@pytest.fixture(autouse=True)
def check_mode_off():
    yield
    tf.config.experimental_check_equivalence(False)
    tf.config.run_functions_eagerly(False)


def triangle(n):
    s = 0
    for i in tf.range(n):
        if i % 2 == 0:
            s += i
        else:
            s -= 1
    return s


def test_agreeing_function_reports_ok():
    report = tf.debugging.check_equivalence(tf.function(triangle), tf.constant(6))
    assert report.ok
    assert str(report) == "triangle: eager and graph agree (returned 3)"
    assert report.eager.result == report.graph.result == 3
    report.raise_if_different()


def test_plain_python_function_is_wrapped():
    report = tf.debugging.check_equivalence(triangle, tf.constant(5))
    assert report.ok and report.graph.result == 4


def test_python_side_effect_frozen_at_trace_time_is_a_difference():
    calls = []

    def counts(x):
        calls.append(1)
        return x + len(calls)

    report = tf.debugging.check_equivalence(tf.function(counts), tf.constant(10))
    # trace appends (1), eager appends (2); the graph kept the value seen while tracing
    assert not report.ok
    assert report.differences == ["result: eager 12, graph 11"]
    with pytest.raises(EquivalenceError, match=r"counts: eager and graph differ\n  - result"):
        report.raise_if_different()


def test_python_scalar_and_tensor_results_agree_by_value():
    report = tf.debugging.check_equivalence(tf.function(lambda x: x), 3)
    assert report.ok, str(report)


def test_dtype_difference_is_reported():
    def halve(x):
        return x / 2 if isinstance(x, int) else tf.cast(x, tf.float32) / 2
    report = tf.debugging.check_equivalence(tf.function(halve), tf.constant(3))
    assert report.ok      # both take the tensor branch
    eager = np.float64(1.5)
    from runtime._src.check.equivalence import _leaf_difference
    assert _leaf_difference(eager, np.float32(1.5)) == "eager dtype float64, graph dtype float32"
    assert _leaf_difference(np.zeros(2), np.zeros(3)) == "eager shape (2,), graph shape (3,)"
    assert _leaf_difference(np.array([1.0, np.nan]), np.array([1.0, np.nan])) is None


def test_variables_start_equal_and_are_updated_once():
    v = tf.Variable(10)

    @tf.function
    def bump(x):
        v.assign_add(x)
        return v.read_value()

    report = tf.debugging.check_equivalence(bump, tf.constant(5))
    assert report.ok, str(report)
    assert report.eager.result == report.graph.result == 15
    assert v.numpy() == 15                      # applied once, by the graph run


def test_variable_difference_is_reported():
    v = tf.Variable(0)
    seen = []

    @tf.function
    def store(x):
        seen.append(x)
        v.assign(len(seen))
        return x

    report = tf.debugging.check_equivalence(store, tf.constant(1))
    assert report.differences == [f"Variable {v.name!r} afterwards: eager 2, graph 1"]


def test_printed_output_difference_is_a_note_not_a_failure():
    @tf.function
    def shout(x):
        print("python print", x.dtype.name)
        tf.print("tf.print", x)
        return x * 2

    first = tf.debugging.check_equivalence(shout, tf.constant(4))
    assert first.ok and not first.output_differences       # traced now: both printed
    assert first.eager.stderr == first.graph.stderr == "tf.print 4\n"
    second = tf.debugging.check_equivalence(shout, tf.constant(4))
    assert second.ok
    assert second.output_differences == [
        "stdout: eager printed 'python print int32\\n', graph printed '' "
        "(Python print runs only while tracing; tf.print runs every call)"]
    assert "eager and graph differ" in str(second)


def test_exceptions_of_the_same_type_agree_different_types_differ():
    @tf.function
    def picks(x, i):
        return tf.gather(x, i)

    same = tf.debugging.check_equivalence(picks, tf.constant([1, 2]), tf.constant(5))
    assert same.ok
    assert isinstance(same.graph.error, tf.errors.InvalidArgumentError)

    @tf.function
    def checks(x):
        assert x > 3, "x too small"
        return x

    differ = tf.debugging.check_equivalence(checks, tf.constant(1))
    assert not differ.ok
    assert differ.differences[0].startswith("eager raised AssertionError: x too small; "
                                            "graph raised InvalidArgumentError")


def test_check_mode_returns_graph_results_and_raises_on_difference(capsys):
    f = tf.function(triangle)
    tf.config.experimental_check_equivalence(True)
    assert not tf.config.functions_run_eagerly()
    assert f(tf.constant(6)).numpy() == 3
    assert f.experimental_get_tracing_count() == 1

    calls = []

    @tf.function
    def counts(x):
        calls.append(1)
        return x + len(calls)

    with pytest.raises(EquivalenceError, match="counts: eager and graph differ"):
        counts(tf.constant(0))
    tf.config.experimental_check_equivalence(False)
    assert counts(tf.constant(0)).numpy() == 1          # back to the plain graph call


def test_check_mode_replays_output_and_warns_on_output_difference(capsys):
    @tf.function
    def shout(x):
        print("traced")
        tf.print("value", x)
        return x

    tf.config.experimental_check_equivalence(True)
    shout(tf.constant(1))
    captured = capsys.readouterr()
    assert captured.out == "traced\n" and captured.err == "value 1\n"
    with pytest.warns(UserWarning, match="Python print runs only while tracing"):
        shout(tf.constant(2))
    assert capsys.readouterr().err == "value 2\n"


def test_check_mode_reraises_the_graph_error():
    @tf.function
    def picks(x, i):
        return tf.gather(x, i)

    tf.config.experimental_check_equivalence(True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="GatherV2"):
        picks(tf.constant([1, 2]), tf.constant(5))


def test_run_functions_eagerly_takes_precedence():
    traced = []

    @tf.function
    def f(x):
        traced.append(1)
        return x

    tf.config.experimental_check_equivalence(True)
    tf.config.run_functions_eagerly(True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(tf.constant(1)).numpy() == 1
    assert len(traced) == 1 and f.experimental_get_tracing_count() == 0
    tf.config.run_functions_eagerly(False)
    assert f(tf.constant(1)).numpy() == 1                # still checking: trace + eager
    assert f.experimental_get_tracing_count() == 1


def test_bad_switch_value_is_a_type_error():
    with pytest.raises(TypeError, match="experimental_check_equivalence: expected a bool, got str"):
        tf.config.experimental_check_equivalence("yes")
