"""Gradients through TensorArrays (write, read, stack, unstack, gather,
scatter, split, concat) and the higher-order functions built on them
(map_fn, scan, foldl, foldr), eagerly and in tf.function, against finite
differences (float64); plus the values of gather/scatter/split."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients, check_second_order

F64 = tf.float64


def write_read_stack(x):
    ta = tf.TensorArray(F64, size=2).write(0, x * 2.0).write(1, tf.sin(x))
    return ta.stack() * tf.constant([[1.0], [3.0]], F64) + ta.read(0)


def unstack_reads(m):
    ta = tf.TensorArray(F64, size=3).unstack(m)
    return ta.read(0) * ta.read(2) + ta.stack()[1]


def dynamic_writes_in_python_loop(x):
    ta = tf.TensorArray(F64, size=0, dynamic_size=True)
    for i in range(3):
        ta = ta.write(i, tf.tanh(x) * float(i + 1))
    return ta.stack() * ta.read(1)


def split_concat(x):
    ta = tf.TensorArray(F64, size=3, infer_shape=False).split(x * x, [1, 2, 1])
    return ta.concat() * 2.0 + tf.reduce_sum(ta.read(1))


def unstack_gather_with_repeats(x):
    return tf.TensorArray(F64, size=4).unstack(x * x).gather([2, 0, 2])


def scatter_then_writes(x):
    ta = tf.TensorArray(F64, size=4).scatter([3, 1], tf.sin(x[:2]))
    return ta.write(0, x[2] * 3.0).write(2, x[3] * x[0]).stack()


def write_concat(x):
    return tf.TensorArray(F64, size=2).write(0, x[:2]).write(1, x[2:] * x[:2]).concat()


def overwritten_element(x):
    # the first value written at 0 is overwritten: only its read before that counts
    ta = tf.TensorArray(F64, size=2).write(0, x * 5.0)
    first = ta.read(0)
    ta = ta.write(0, x * x).write(1, x)
    return ta.stack() + first


def tensor_loop_over_captured(x):
    ta = tf.TensorArray(F64, size=0, dynamic_size=True)
    for i in tf.range(3):
        ta = ta.write(i, x * tf.cast(i + 1, F64))
    return ta.stack() * ta.read(1)


def gather_in_a_loop(x):
    ta = tf.TensorArray(F64, size=4).unstack(x * x)
    out = tf.TensorArray(F64, size=2)
    for i in tf.range(2):
        out = out.write(i, tf.reduce_sum(ta.gather(tf.stack([i, i + 2]))))
    return out.stack()


VECTOR = np.array([0.3, -0.6, 1.1, 0.7])
CASES = [
    ("write_read_stack", write_read_stack, [VECTOR[:2]]),
    ("unstack_reads", unstack_reads, [VECTOR.reshape(2, 2).repeat([2, 1], axis=0)]),
    ("dynamic_writes", dynamic_writes_in_python_loop, [VECTOR]),
    ("split_concat", split_concat, [VECTOR]),
    ("gather_repeats", unstack_gather_with_repeats, [VECTOR]),
    ("scatter_writes", scatter_then_writes, [VECTOR]),
    ("write_concat", write_concat, [VECTOR]),
    ("overwritten", overwritten_element, [VECTOR]),
    ("tensor_loop", tensor_loop_over_captured, [VECTOR]),
    ("gather_loop", gather_in_a_loop, [VECTOR]),
]


@pytest.mark.parametrize("name,fn,values", CASES, ids=[c[0] for c in CASES])
def test_tensor_array_gradients(name, fn, values):
    check_gradients(fn, values)


HIGHER_ORDER = [
    ("map_fn", lambda x: tf.map_fn(lambda e: e * tf.sin(e), x)),
    ("map_fn_rows", lambda x: tf.map_fn(lambda r: tf.reduce_sum(r * r), tf.reshape(x, [2, 2]))),
    ("scan", lambda x: tf.scan(lambda a, e: a * e + 1.0, x, initializer=tf.constant(0.5, F64))),
    ("scan_reverse", lambda x: tf.scan(lambda a, e: tf.tanh(a + e), x, reverse=True)),
    ("foldl", lambda x: tf.foldl(lambda a, e: a * e + 1.0, x, initializer=tf.constant(0.5, F64))),
    ("foldr", lambda x: tf.foldr(lambda a, e: a * tf.cos(e), x)),
]


@pytest.mark.parametrize("name,fn", HIGHER_ORDER, ids=[c[0] for c in HIGHER_ORDER])
def test_higher_order_gradients(name, fn):
    check_gradients(fn, [VECTOR])


def test_watched_eager_tensor_captured_by_a_loop_in_tf_function():
    x = tf.constant(VECTOR)

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tensor_loop_over_captured(x))
        return tape.gradient(y, x)
    # y = sum_i (i+1) * 2 x^2 = 12 x^2
    np.testing.assert_allclose(grad().numpy(), 24 * VECTOR)


def test_gather_scatter_split_values():
    def f(x):
        ta = tf.TensorArray(tf.int32, size=4).scatter([3, 1, 0, 2], x)
        parts = tf.TensorArray(tf.int32, size=2, infer_shape=False).split(x, [1, 3])
        return ta.gather([0, 3, 0]), ta.stack(), parts.read(1), parts.concat(), parts.size()
    x = tf.constant([10, 20, 30, 40])
    for out in (f(x), tf.function(f)(x)):
        gathered, stacked, piece, concat, size = [t.numpy() for t in out]
        np.testing.assert_array_equal(gathered, [30, 10, 30])
        np.testing.assert_array_equal(stacked, [30, 20, 40, 10])
        np.testing.assert_array_equal(piece, [20, 30, 40])
        np.testing.assert_array_equal(concat, [10, 20, 30, 40])
        assert size == 2


def test_split_and_scatter_errors():
    ta = tf.TensorArray(F64, size=2)
    with pytest.raises(ValueError, match="TensorArray.split: value must have at least one "
                                         "dimension, got a scalar"):
        ta.split(tf.constant(1.0, F64), [1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"the lengths \[1, 1\] must be non-negative and add up to the "
                             "value's first dimension 3"):
        ta.split(tf.constant([1.0, 2.0, 3.0], F64), [1, 1])
    with pytest.raises(TypeError, match="TensorArray: indices must be a vector of integers"):
        ta.scatter([0.5], tf.constant([1.0], F64))
    with pytest.raises(ValueError, match="TensorArray: indices must be a vector, got shape"):
        ta.gather(0)


def all_tensor_array_ops(x):
    ta = tf.TensorArray(F64, size=4).scatter([3, 1, 0, 1], tf.sin(x) * x)
    ta = ta.write(2, x[0] * x[3])
    parts = tf.TensorArray(F64, size=2, infer_shape=False).split(ta.stack() * x, [1, 3])
    pieces = tf.TensorArray(F64, size=2).unstack(tf.reshape(x * x, [2, 2]))
    return (tf.reduce_sum(ta.gather([0, 2, 2, 3]) * parts.concat()) + tf.reduce_sum(parts.read(1))
            + tf.reduce_sum(pieces.stack() * pieces.read(0)))


def test_first_and_second_order_through_all_tensor_array_ops():
    check_gradients(all_tensor_array_ops, [VECTOR])
    check_second_order(all_tensor_array_ops, [VECTOR])
