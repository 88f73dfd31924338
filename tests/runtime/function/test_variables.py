"""Variables: eager use, capture by reference in graphs, assignment checks."""

import re

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph

from tests.runtime.graphdata_helpers import trace_specs as trace
from tests.runtime.seed_programs import counter_function, iterator_function


def test_repr_name_and_properties():
    v = tf.Variable(0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=0>"
    assert v.name == "Variable:0" and v.trainable and v.dtype == tf.int32
    w = tf.Variable([1.0, 2.0], name="w", trainable=False)
    assert repr(w) == ("<tf.Variable 'w:0' shape=(2,) dtype=float32, "
                       "numpy=array([1., 2.], dtype=float32)>")
    assert not w.trainable and w.shape.as_list() == [2]


@pytest.mark.parametrize("method, arg, expected", [
    ("assign", 5, 5),
    ("assign_add", 5, 7),
    ("assign_sub", 5, -3),
])
def test_eager_assignments_return_new_value(method, arg, expected):
    v = tf.Variable(2)
    out = getattr(v, method)(arg)
    assert int(out) == expected and out.dtype == tf.int32
    assert int(v) == expected
    assert v.numpy() == expected


def test_operators_and_numpy_interop():
    v = tf.Variable([1, 2])
    np.testing.assert_array_equal((v + 1).numpy(), [2, 3])
    np.testing.assert_array_equal((10 - v).numpy(), [9, 8])
    np.testing.assert_array_equal((v * v).numpy(), [1, 4])
    np.testing.assert_array_equal((np.array([5, 5]) + v).numpy(), [6, 7])
    np.testing.assert_array_equal(np.asarray(v), [1, 2])
    np.testing.assert_array_equal((v > 1).numpy(), [False, True])
    np.testing.assert_array_equal((-v).numpy(), [-1, -2])
    assert (v + 1).dtype == tf.int32
    assert float(tf.Variable(2.5)) == 2.5


def test_read_value_is_a_snapshot():
    v = tf.Variable(np.array([1, 2], np.int32))
    before = v.read_value()
    v.assign([7, 8])
    np.testing.assert_array_equal(before.numpy(), [1, 2])
    np.testing.assert_array_equal(v.value().numpy(), [7, 8])


def test_initial_value_and_dtype_arguments():
    assert tf.Variable(1, dtype=tf.float32).dtype == tf.float32
    assert tf.Variable(lambda: 3).numpy() == 3
    with pytest.raises(ValueError, match="dtype float32"):
        tf.Variable(tf.convert_to_tensor(1), dtype=tf.float32)
    with pytest.raises(ValueError, match="not compatible"):
        tf.Variable([1, 2], shape=[3])


def test_assign_errors_name_the_variable():
    v = tf.Variable([1, 2], name="v")
    with pytest.raises(TypeError, match="'v:0' has dtype int32; cannot assign a float32"):
        v.assign(tf.convert_to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="1.5 is not an integer"):
        v.assign([1.5, 2])
    # TensorFlow 2.21's message, verbatim
    with pytest.raises(ValueError, match=re.escape(
            "Cannot assign value to variable ' v:0': Shape mismatch.The variable shape (2,), "
            "and the assigned value shape (3,) are incompatible.")):
        v.assign([1, 2, 3])


def test_relaxed_shape_allows_other_shapes():
    v = tf.Variable([1, 2], shape=tf.TensorShape([None]))
    v.assign([1, 2, 3])
    assert v.shape.as_list() == [None]
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])


def test_graph_reads_current_value_each_run():
    v = tf.Variable(10)
    g = trace(lambda x: x + v, (tf.int32, []))
    assert [n.op for n in g.nodes if n.op == "ReadVariableOp"] == ["ReadVariableOp"]
    assert executor.run(g, [np.int32(1)])[0] == 11
    v.assign(20)
    assert executor.run(g, [np.int32(1)])[0] == 21


def test_graph_assign_add_runs_every_time():
    v = tf.Variable(0)
    g = trace(lambda x: v.assign_add(x), (tf.int32, []))
    for expected in (3, 6, 9):
        out = executor.run(g, [np.int32(3)])[0]
        assert out == expected and int(v) == expected
        assert out.dtype == np.int32


def test_graph_assign_without_output_still_runs():
    v = tf.Variable(0)

    def body(x):
        v.assign(x)
        return tf.convert_to_tensor(1)
    g = trace(body, (tf.int32, []))
    executor.run(g, [np.int32(42)])
    assert int(v) == 42


def test_graph_program_order_read_after_write():
    v = tf.Variable(1)

    def body(x):
        before = v.read_value()
        v.assign_add(x)
        after = v.read_value()
        return before, after
    g = trace(body, (tf.int32, []))
    assert [int(a) for a in executor.run(g, [np.int32(5)])] == [1, 6]
    assert [int(a) for a in executor.run(g, [np.int32(5)])] == [6, 11]


def test_graph_matches_eager():
    def step(x):
        v.assign_sub(x)
        return v * 2
    v = tf.Variable([5.0, 6.0])
    eager = step(tf.convert_to_tensor([1.0, 1.0])).numpy()
    v = tf.Variable([5.0, 6.0])
    g = trace(step, (tf.float32, [2]))
    np.testing.assert_array_equal(executor.run(g, [np.float32([1, 1])])[0], eager)


def test_graph_trace_time_assign_errors():
    v = tf.Variable([1, 2])
    with pytest.raises(TypeError, match="cannot assign a float32"):
        trace(lambda x: v.assign(x), (tf.float32, [2]))
    with pytest.raises(ValueError, match="incompatible"):
        trace(lambda x: v.assign(x), (tf.int32, [3]))


def test_graph_run_time_shape_error():
    v = tf.Variable([1, 2])
    g = trace(lambda x: v.assign(x), (tf.int32, [None]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible"):
        executor.run(g, [np.array([1, 2, 3], np.int32)])
    np.testing.assert_array_equal(v.numpy(), [1, 2])


def test_variable_created_while_tracing_is_recorded_on_outermost_graph():
    outer = Graph("outer")
    with outer.as_default():
        inner = Graph("inner", outer=outer)
        with inner.as_default():
            v = tf.Variable(tf.convert_to_tensor([1, 2]) * 3)
    assert outer.variables == [v] and inner.variables == []
    np.testing.assert_array_equal(v.numpy(), [3, 6])


def test_numpy_while_tracing_is_an_error():
    v = tf.Variable(1)
    with pytest.raises(NotImplementedError, match="while tracing"):
        trace(lambda x: x + v.numpy(), (tf.int32, []))


def test_unhashable_but_ref_works():
    v = tf.Variable(1)
    with pytest.raises(TypeError, match="unhashable"):
        {v}
    assert v.ref() in {v.ref()} and v.ref().deref() is v


def test_seed_iterator_side_effect():
    """Seed 002: next(iterator) runs at trace time only; assign_add every run."""
    var = tf.Variable(0)
    iterator = iter([1, 2, 3])
    g = Graph("side_effect")
    with g.as_default():
        var.assign_add(next(iterator))
    for expected in (1, 2, 3):
        executor.run(g, [])
        assert int(var) == expected


def test_seed_function_counter_variable():
    """Seed 001: a captured Variable is read and written at every call."""
    c, f = counter_function()
    assert int(c) == 0
    assert float(f(1.0)) == 2.0 and int(c) == 1
    assert float(f(1.0)) == 3.0 and int(c) == 2


def test_seed_iterator_side_effect_with_function(capsys):
    """Seed 002 verbatim: the iterator advances only while tracing."""
    var, side_effect = iterator_function()
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        side_effect(iterator)
    assert capsys.readouterr().err == "Value of variable: 0\n" * 3
