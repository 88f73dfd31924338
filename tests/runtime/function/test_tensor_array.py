"""TensorArray: eager and graph behaviour, growth inside while_loop, fresh
state on every run, and clear errors for bad indices, dtypes and shapes."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph

from tests.runtime.function.cf_helpers import assert_same, eagerly, in_graph, trace

I32, F32 = np.int32, np.float32


# --- eager and graph agree -------------------------------------------------------

def _write_read(x):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, x).write(2, x * 3).write(1, x + 1)
    return ta.read(1), ta.stack(), ta.size()


def _unstack_concat(v):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True).unstack(v)
    return ta.read(1), ta.concat(), ta.size(), ta.stack()


def _squares(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i * i)),
                          (0, ta))
    return ta.stack(), ta.size()


def _rows(v, n):
    ta = tf.TensorArray(tf.float32, size=n)
    _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, v * 2)),
                          (0, ta))
    return ta.stack()


def _in_cond(p, x):
    ta = tf.TensorArray(tf.int32, size=2).write(0, x)
    ta = tf.cond(p > 0, lambda: ta.write(1, x * 10), lambda: ta.write(1, x - 1))
    return ta.stack()


CASES = [
    ("write_read_stack", _write_read, [(F32(2.0),)]),
    ("unstack_concat", _unstack_concat, [(np.array([[1, 2], [3, 4], [5, 6]], I32),)]),
    ("grow_in_while_loop", _squares, [(I32(0),), (I32(1),), (I32(6),)]),
    ("fixed_size_rows", _rows, [(np.array([1.0, 2.5], F32), I32(3))]),
    ("in_cond_branches", _in_cond, [(I32(1), I32(7)), (I32(0), I32(7))]),
]


@pytest.mark.parametrize("name,fn,arg_sets", CASES, ids=[c[0] for c in CASES])
def test_graph_matches_eager(name, fn, arg_sets):
    for args in arg_sets:
        assert_same(in_graph(fn, *args), eagerly(fn, *args))


def test_values():
    stack, size = eagerly(_squares, I32(5))
    np.testing.assert_array_equal(stack, [0, 1, 4, 9, 16])
    assert size == 5 and size.dtype == np.int32
    read, stack, size = eagerly(_write_read, F32(2.0))
    assert read == F32(3.0) and read.dtype == np.float32
    np.testing.assert_array_equal(stack, [2.0, 3.0, 6.0])
    read, concat, size, stack = eagerly(_unstack_concat, np.array([[1, 2], [3, 4]], I32))
    np.testing.assert_array_equal(read, [3, 4])
    np.testing.assert_array_equal(concat, [1, 2, 3, 4])
    assert stack.shape == (2, 2)
    np.testing.assert_array_equal(in_graph(_in_cond, I32(0), I32(7)), [7, 6])


def test_static_shapes_and_dtypes_in_graph():
    g, out, _ = trace(_squares, I32(3))
    stack, size = out
    assert stack.dtype == tf.int32 and stack.shape == tf.TensorShape([None])
    assert size.dtype == tf.int32 and size.shape == tf.TensorShape([])
    _, out, _ = trace(_rows, np.array([1.0, 2.5], F32), I32(3))
    assert out.shape == tf.TensorShape([None, 2])
    ta = _traced_ta(lambda: tf.TensorArray(tf.float32, size=2, element_shape=[3]))
    assert ta.element_shape == tf.TensorShape([3])


def _traced_ta(make):
    g = Graph("f")
    with g.as_default():
        return make()


def test_each_graph_run_starts_from_a_fresh_array():
    g, _, _ = trace(_squares, I32(0))
    first = executor.run(g, [I32(4)])
    second = executor.run(g, [I32(2)])
    np.testing.assert_array_equal(first[0], [0, 1, 4, 9])
    np.testing.assert_array_equal(second[0], [0, 1])
    creation = next(n for n in g.nodes if n.op == "TensorArrayV3")
    assert creation.stateful


def test_optimized_graph_still_creates_a_fresh_array():
    from runtime._src import optimizer
    g, _, _ = trace(lambda n: _squares(n * 0 + 3), I32(0))
    optimizer.optimize(g)
    assert any(n.op == "TensorArrayV3" for n in g.nodes)
    for _ in range(2):
        np.testing.assert_array_equal(executor.run(g, [I32(9)])[0], [0, 1, 4])


def test_empty_stack():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
    assert ta.stack().numpy().shape == (0, 2)
    np.testing.assert_array_equal(in_graph(_squares, I32(0))[0], np.zeros((0,), I32))


# --- errors ------------------------------------------------------------------------

def _read_at(i):
    ta = tf.TensorArray(tf.int32, size=3).write(0, 5)
    return ta.read(i)


@pytest.mark.parametrize("index,message", [
    (I32(3), "index 3 is out of range for a TensorArray of size 3"),
    (I32(-1), "index -1 is out of range"),
])
def test_bad_reads_raise_invalid_argument(index, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        eagerly(_read_at, index)
    g, _, _ = trace(_read_at, I32(0))
    assert executor.run(g, [I32(0)]) == [5]
    with pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
        executor.run(g, [index])
    assert "test_tensor_array.py" in str(info.value)  # the user's line


def test_writing_past_a_fixed_size_raises():
    def f(n):
        ta = tf.TensorArray(tf.int32, size=2)
        _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i)),
                              (0, ta))
        return ta.stack()
    np.testing.assert_array_equal(in_graph(f, I32(2)), [0, 1])
    for run in (in_graph, eagerly):
        with pytest.raises(tf.errors.InvalidArgumentError, match="dynamic_size=True"):
            run(f, I32(3))


def test_write_dtype_mismatch_is_a_type_error():
    ta = tf.TensorArray(tf.int32, size=1)
    with pytest.raises(TypeError, match="value has dtype float32 but the TensorArray "
                                        "holds int32"):
        ta.write(0, tf.convert_to_tensor(1.5))
    with pytest.raises(TypeError, match="cannot convert 1.5 to int32"):
        ta.write(0, 1.5)


def test_elements_must_share_one_shape():
    ta = tf.TensorArray(tf.int32, size=2).write(0, [1, 2])
    with pytest.raises(ValueError, match=r"value of shape \(3,\) does not match the element "
                                         r"shape \(2,\)"):
        ta.write(1, [1, 2, 3])

    def f(v, w):
        ta = tf.TensorArray(tf.int32, size=2).write(0, v)
        return ta.write(1, w).stack()
    g = Graph("f")
    with g.as_default():
        v = g.add_placeholder(tf.int32, [None], "v")
        w = g.add_placeholder(tf.int32, [None], "w")
        g.outputs = [f(v, w)]
    np.testing.assert_array_equal(executor.run(g, [np.array([1], I32), np.array([2], I32)])[0],
                                  [[1], [2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="all elements must have one shape"):
        executor.run(g, [np.array([1], I32), np.array([2, 3], I32)])


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match="size must be given"):
        tf.TensorArray(tf.int32)
    with pytest.raises(TypeError, match="size must be an integer"):
        tf.TensorArray(tf.int32, size=1.5)
    with pytest.raises(TypeError, match="index must be an integer"):
        tf.TensorArray(tf.int32, size=1).read(tf.convert_to_tensor(0.0))


def test_loop_var_tensor_array_must_stay_a_tensor_array():
    def f(n):
        ta = tf.TensorArray(tf.int32, size=1)
        return tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, i), (0, ta),
                             names=("i", "ta"))
    with pytest.raises(TypeError, match="'ta' is a TensorArray of int32 before the loop but "
                                        "an int32 tensor after the loop body"):
        trace(f, I32(1))
