"""A TensorArray as an autograph loop variable: for and while loops, element
shapes, several arrays, arrays in branches and nested loops, defined in the
body, break, read-only use, through an `if` then a range loop. Each case runs
three ways: the original Python function (eager tensors), the
autograph-converted function, and the traced graph."""

import numpy as np
import pytest

import runtime as tf


def _three_ways(fn, *args):
    """Results of the original, the converted function and the traced graph."""
    converted = tf.autograph.to_graph(fn)
    return fn(*args), converted(*args), tf.function(fn)(*args)


def ta_for(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        a = a.write(i, i * 2)
    return a.stack()


def ta_while(n):
    a = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    i = tf.constant(0)
    while i < n:
        a = a.write(i, tf.cast(i, tf.float32) * 0.5)
        i += 1
    return a.stack(), a.size()


def ta_element_shape(n):
    a = tf.TensorArray(tf.int32, size=n, element_shape=[2])
    for i in tf.range(n):
        a = a.write(i, tf.stack([i, -i]))
    return a.stack()


def ta_several(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    b = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        a = a.write(i, i)
        b = b.write(i, tf.cast(i * i, tf.float32))
    return a.stack(), b.stack()


def ta_and_list(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    items = []
    for i in tf.range(n):
        a = a.write(i, i + 10)
        items.append(i * 3)
    return a.stack(), items


def ta_in_branches(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        if i % 2 == 0:
            a = a.write(i, i)
        else:
            a = a.write(i, -i)
    return a.stack()


def ta_nested(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    k = 0
    for i in tf.range(n):
        for j in tf.range(i):
            a = a.write(k, i * 10 + j)
            k += 1
    return a.stack(), a.size()


def ta_first_defined_in_body(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        y = i * 2
        a = a.write(i, y)
    return a.stack()


def ta_break(n):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        if i > 2:
            break
        a = a.write(i, i)
    return a.stack()


def ta_read_only(x):
    a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    a = a.unstack(x)
    s = 0
    for i in tf.range(a.size()):
        s += a.read(i)
    return s


def _values(result):
    if isinstance(result, (tuple, list)):
        return [np.asarray(r).tolist() for r in result]
    return np.asarray(result).tolist()


@pytest.mark.parametrize("fn, arg, expected", [
    (ta_for, 4, [0, 2, 4, 6]),
    (ta_for, 0, []),
    (ta_while, 4, [[0.0, 0.5, 1.0, 1.5], 4]),
    (ta_while, 0, [[], 0]),
    (ta_element_shape, 3, [[0, 0], [1, -1], [2, -2]]),
    (ta_several, 3, [[0, 1, 2], [0.0, 1.0, 4.0]]),
    (ta_and_list, 3, [[10, 11, 12], [0, 3, 6]]),
    (ta_in_branches, 4, [0, -1, 2, -3]),
    (ta_nested, 4, [[10, 20, 21, 30, 31, 32], 6]),
    (ta_first_defined_in_body, 4, [0, 2, 4, 6]),
    (ta_break, 6, [0, 1, 2]),
    (ta_read_only, [1, 2, 3], 6),
], ids=["for", "for-zero-trips", "while-size", "while-zero-trips", "element-shape",
        "several", "with-list-append", "in-branches", "nested", "probe", "break",
        "read-only"])
def test_tensor_array_loop_variable_three_ways(fn, arg, expected):
    original, converted, traced = _three_ways(fn, tf.constant(arg))
    assert _values(original) == expected
    assert _values(converted) == expected
    assert _values(traced) == expected


def test_tensor_array_loop_dtypes_and_shapes():
    f = tf.function(ta_element_shape)
    concrete = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    out = concrete.structured_outputs
    assert out.dtype == tf.int32
    assert out.shape.as_list() == [None, 2]
    stacked, size = tf.function(ta_while)(tf.constant(2))
    assert stacked.dtype == tf.float32 and size.dtype == tf.int32


def test_tensor_array_loop_is_one_while_op():
    f = tf.function(ta_for)
    graph = f.get_concrete_function(tf.constant(3)).graph
    ops = [op.type for op in graph.get_operations()]
    assert ops.count("While") == 1
    assert "TensorArrayStackV3" in ops
    assert f(tf.constant(5)).numpy().tolist() == [0, 2, 4, 6, 8]
    assert f.experimental_get_tracing_count() == 1


def test_tensor_array_wrong_dtype_in_loop_names_it():
    def bad(n):
        a = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            a = a.write(i, tf.cast(i, tf.float32))
        return a.stack()
    with pytest.raises(TypeError, match="TensorArray.write: value has dtype float32"):
        tf.function(bad)(tf.constant(3))


def ta_branch_then_range(x, n):
    a = tf.TensorArray(tf.int32, size=1, dynamic_size=True)
    if x > 0:
        a = a.write(0, x)
    else:
        a = a.write(0, -x)
    for i in range(n):
        a = a.write(i + 1, i)
    return a.stack(), a.size()


def test_tensor_array_through_if_and_range_loop_three_ways():
    for x in (-5, 7):
        results = _three_ways(ta_branch_then_range, tf.constant(x), tf.constant(3))
        for stacked, size in results:
            assert stacked.numpy().tolist() == [abs(x), 0, 1, 2]
            assert size.numpy() == 4
