"""A TensorArray returned from a `tf.function` (alone, in a tuple or in a
dict): the caller gets a TensorArray to `stack()`, `read()` and `size()`,
with the same values eagerly (`run_functions_eagerly`) and as a graph."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.check.equivalence import check_equivalence


@pytest.fixture
def run_eagerly():
    """Call `fn(*args)` with `tf.config.run_functions_eagerly(True)`."""
    def call(fn, *args):
        tf.config.run_functions_eagerly(True)
        try:
            return fn(*args)
        finally:
            tf.config.run_functions_eagerly(False)
    return call


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta


@tf.function
def squares_in_tuple(n):
    return squares(n), n + 1      # a tf.function called while tracing is inlined


@tf.function
def rows_in_dict(x, n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, x * tf.cast(i, tf.float32))
    return {"rows": ta, "total": tf.reduce_sum(ta.stack()), "note": "done"}


@tf.function
def written_in_python(x):
    ta = tf.TensorArray(tf.float32, size=2)
    return ta.write(0, x).write(1, x + 1.0)


@tf.function
def partly_written():
    ta = tf.TensorArray(tf.float32, size=3)
    return ta.write(0, 1.5)


def test_returned_tensor_array_stacks_reads_and_sizes():
    ta = squares(tf.constant(5))
    assert isinstance(ta, tf.TensorArray)
    assert ta.dtype == tf.int32
    np.testing.assert_array_equal(ta.stack().numpy(), np.array([0, 1, 4, 9, 16], np.int32))
    assert ta.stack().dtype == tf.int32
    assert ta.read(3).numpy() == 9
    assert ta.size().numpy() == 5


@pytest.mark.parametrize("n", [0, 1, 4])
def test_eager_and_graph_stack_the_same(run_eagerly, n):
    graph = squares(tf.constant(n)).stack().numpy()
    eager = run_eagerly(squares, tf.constant(n)).stack().numpy()
    assert graph.dtype == eager.dtype == np.int32
    np.testing.assert_array_equal(graph, eager)
    np.testing.assert_array_equal(graph, np.arange(n, dtype=np.int32) ** 2)


def test_in_a_tuple(run_eagerly):
    for ta, m in (squares_in_tuple(tf.constant(3)),
                  run_eagerly(squares_in_tuple, tf.constant(3))):
        assert isinstance(ta, tf.TensorArray)
        np.testing.assert_array_equal(ta.stack().numpy(), [0, 1, 4])
        assert m.numpy() == 4


def test_in_a_dict(run_eagerly):
    x = tf.constant([1.0, 2.0])
    graph = rows_in_dict(x, tf.constant(3))
    eager = run_eagerly(rows_in_dict, x, tf.constant(3))
    expected = np.array([[0, 0], [1, 2], [2, 4]], np.float32)
    for out in (graph, eager):
        assert set(out) == {"rows", "total", "note"}
        np.testing.assert_array_equal(out["rows"].stack().numpy(), expected)
        np.testing.assert_array_equal(out["rows"].read(2).numpy(), [2.0, 4.0])
        assert out["total"].numpy() == pytest.approx(9.0)
        assert out["note"] == "done"


def test_written_without_a_loop(run_eagerly):
    for ta in (written_in_python(tf.constant(2.0)),
               run_eagerly(written_in_python, tf.constant(2.0))):
        np.testing.assert_array_equal(ta.stack().numpy(), np.array([2.0, 3.0], np.float32))
        assert ta.element_shape == tf.TensorShape([])


def test_each_call_returns_its_own_array():
    first = squares(tf.constant(2))
    second = squares(tf.constant(4))
    np.testing.assert_array_equal(first.stack().numpy(), [0, 1])
    np.testing.assert_array_equal(second.stack().numpy(), [0, 1, 4, 9])
    assert first.size().numpy() == 2


def test_returned_array_can_grow_eagerly():
    ta = squares(tf.constant(2)).write(2, 7)
    np.testing.assert_array_equal(ta.stack().numpy(), [0, 1, 7])


def test_unwritten_elements_of_a_returned_array_stack_as_zeros():
    # TF 2.21: tf.TensorArray(tf.float32, size=3).write(0, 1.5).stack() is
    # [1.5, 0., 0.] (elements never written are zeros of the element shape)
    ta = partly_written()
    assert ta.read(0).numpy() == 1.5
    assert ta.size().numpy() == 3
    np.testing.assert_array_equal(ta.stack().numpy(), np.array([1.5, 0, 0], np.float32))
    assert ta.read(2).numpy() == 0.0


def test_check_equivalence_compares_the_elements():
    report = check_equivalence(squares_in_tuple, tf.constant(3))
    assert report.ok, str(report)
    assert check_equivalence(partly_written).ok


python_calls = []


@tf.function
def frozen_python_value(n):
    python_calls.append(n)                      # Python: runs while tracing only
    return tf.TensorArray(tf.int32, size=1).write(0, n + len(python_calls))


def test_check_equivalence_reports_differing_elements():
    frozen_python_value(tf.constant(1))           # traced: the graph adds 1
    report = check_equivalence(frozen_python_value, tf.constant(1))
    assert not report.ok
    assert report.differences == ["result: eager 3, graph 2"]


def test_check_equivalence_mode_returns_the_graph_array():
    tf.config.experimental_check_equivalence(True)
    try:
        ta = squares(tf.constant(3))
    finally:
        tf.config.experimental_check_equivalence(False)
    np.testing.assert_array_equal(ta.stack().numpy(), [0, 1, 4])


def test_concrete_function_describes_the_array():
    cf = squares_in_tuple.get_concrete_function(tf.TensorSpec([], tf.int32))
    ta, _ = cf.structured_outputs
    assert isinstance(ta, tf.TensorArray) and ta.dtype == tf.int32
    assert ("Tuple[TensorArraySpec(element_shape=(), dtype=tf.int32, dynamic_size=True), "
            "TensorSpec(shape=(), dtype=tf.int32, name=None)]") in cf.pretty_printed_signature()
    np.testing.assert_array_equal(cf(tf.constant(3))[0].stack().numpy(), [0, 1, 4])


leaked = []


@tf.function
def leaks_an_array():
    leaked.append(tf.TensorArray(tf.int32, size=1).write(0, 1))
    return 0


def test_array_kept_from_a_trace_is_a_clear_error():
    leaks_an_array()
    with pytest.raises(TypeError, match="belongs to graph 'leaks_an_array'.*return it"):
        leaked[-1].stack()
