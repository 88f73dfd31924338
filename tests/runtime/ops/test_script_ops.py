"""py_function / numpy_function: Python called at every run, Tout conversion, errors."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph
from runtime._src.core.tensor import EagerTensor

InvalidArgumentError = tf.errors.InvalidArgumentError


def trace(fn, *specs):
    g = Graph("f")
    with g.as_default():
        args = [g.add_placeholder(d, s, f"x{i}") for i, (d, s) in enumerate(specs)]
        out = fn(*args)
    g.outputs = [] if out is None else list(out) if isinstance(out, (list, tuple)) else [out]
    return g


def test_py_function_eager_gets_eager_tensors():
    seen = []

    def double(x):
        seen.append(type(x))
        return x * 2
    y = tf.py_function(double, [tf.convert_to_tensor([1, 2])], tf.int32)
    assert isinstance(y, EagerTensor) and y.dtype == tf.int32
    np.testing.assert_array_equal(y.numpy(), [2, 4])
    assert seen == [EagerTensor]


def test_py_function_called_every_graph_run():
    calls = []

    def log(x):
        calls.append(int(x))
        return x + 1
    g = trace(lambda x: tf.py_function(log, [x], tf.int32), (tf.int32, []))
    assert calls == []
    assert executor.run(g, [np.int32(1)])[0] == 2
    assert executor.run(g, [np.int32(5)])[0] == 6
    assert calls == [1, 5]
    assert g.outputs[0].shape.rank is None and g.outputs[0].dtype == tf.int32


def test_py_function_runs_even_when_unused():
    calls = []

    def body(x):
        tf.py_function(lambda: calls.append("hit"), [], [])
        return x
    g = trace(body, (tf.int32, []))
    executor.run(g, [np.int32(0)])
    executor.run(g, [np.int32(0)])
    assert calls == ["hit", "hit"]


@pytest.mark.parametrize("func, tout, expected", [
    (lambda a, b: (a + b, a * b), [tf.int32, tf.int32], [5, 6]),
    (lambda a, b: [3, 4.5], [tf.int32, tf.float32], [3, 4.5]),
    (lambda a, b: np.float64(0.5), tf.float32, 0.5),
    (lambda a, b: "text", tf.string, b"text"),
])
def test_tout_conversion_eager_and_graph(func, tout, expected):
    args = [tf.convert_to_tensor(2), tf.convert_to_tensor(3)]
    eager = tf.py_function(func, args, tout)
    g = trace(lambda a, b: tf.py_function(func, [a, b], tout), (tf.int32, []), (tf.int32, []))
    graph = executor.run(g, [np.int32(2), np.int32(3)])
    if isinstance(tout, list):
        assert [t.numpy() for t in eager] == expected == list(graph)
        assert [t.dtype for t in eager] == tout
    else:
        assert eager.numpy() == expected == graph[0]
        assert eager.dtype == tout


def test_numpy_function_gets_numpy_arrays():
    seen = []

    def rev_sort(x):
        seen.append(type(x))
        return np.sort(x)[::-1]
    g = trace(lambda x: tf.numpy_function(rev_sort, [x], tf.int32), (tf.int32, [None]))
    out = executor.run(g, [np.array([3, 1, 2], np.int32)])[0]
    np.testing.assert_array_equal(out, [3, 2, 1])
    assert seen == [np.ndarray]
    eager = tf.numpy_function(rev_sort, [tf.convert_to_tensor([1, 5])], tf.int32)
    np.testing.assert_array_equal(eager.numpy(), [5, 1])


def test_numpy_function_casts_same_kind_numbers():
    y = tf.numpy_function(lambda x: x.astype(np.int64) + 1, [tf.convert_to_tensor([1])],
                          tf.int32)
    assert y.dtype == tf.int32 and y.numpy().dtype == np.int32


def test_errors_keep_the_original_message_eager():
    def bad(x):
        raise ValueError("x is not welcome")
    with pytest.raises(InvalidArgumentError,
                       match=r"EagerPyFunc.*py_function 'bad' raised ValueError: x is not welcome"):
        tf.py_function(bad, [tf.convert_to_tensor(1)], tf.int32)


def test_errors_in_graph_name_op_and_line():
    def bad(x):
        raise KeyError("missing")
    g = trace(lambda x: tf.numpy_function(bad, [x], tf.int32), (tf.int32, []))
    with pytest.raises(InvalidArgumentError) as info:
        executor.run(g, [np.int32(1)])
    message = str(info.value)
    assert "numpy_function 'bad' raised KeyError: 'missing'" in message
    assert "PyFunc" in message and "test_script_ops.py:" in message
    assert isinstance(info.value.__cause__.__cause__, KeyError)


@pytest.mark.parametrize("func, tout, match", [
    (lambda: (1, 2), [tf.int32], r"returned 2 value\(s\), but Tout has 1"),
    (lambda: tf.convert_to_tensor(1.5), tf.int32, "output 0 has dtype float32, but Tout expects int32"),
    (lambda: 1.5, tf.int32, "1.5 is not an integer"),
])
def test_output_errors(func, tout, match):
    with pytest.raises(InvalidArgumentError, match=match):
        tf.py_function(func, [], tout)


def test_func_must_be_callable():
    with pytest.raises(TypeError, match="func must be callable"):
        tf.py_function(3, [], tf.int32)


def test_side_effects_in_program_order_with_print(capsys):
    def body(x):
        tf.print("first")
        tf.py_function(lambda v: print("python", int(v)), [x], [])
        tf.print("last")
    g = trace(body, (tf.int32, []))
    executor.run(g, [np.int32(9)])
    captured = capsys.readouterr()
    assert captured.err == "first\nlast\n" and captured.out == "python 9\n"


def test_py_function_can_read_variables_eagerly_inside():
    v = tf.Variable(10)
    g = trace(lambda x: tf.py_function(lambda a: a + v, [x], tf.int32), (tf.int32, []))
    assert executor.run(g, [np.int32(1)])[0] == 11
    v.assign(20)
    assert executor.run(g, [np.int32(1)])[0] == 21


def test_py_function_and_numpy_function_as_decorators():
    # TF 2.21: func=None gives a decorator (the TFRecord tutorial decorates
    # serialize_example with @tf.py_function(Tout=tf.string)).
    @tf.py_function(Tout=tf.int32)
    def double(x):
        return x * 2

    @tf.numpy_function(Tout=tf.int32)
    def triple(x):
        return x * 3

    assert double.__name__ == "double" and int(double(tf.constant(3))) == 6
    assert int(tf.function(lambda x: double(x) + triple(x))(tf.constant(2))) == 10
