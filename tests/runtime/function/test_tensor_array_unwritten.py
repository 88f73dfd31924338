"""TensorArray elements never written read, stack, gather and concatenate as
zeros of the element shape, as in TensorFlow 2.21, eagerly and inside
tf.function; the gradient flows to the written ones.
Every expected value below is TF 2.21's, recorded eagerly and in a
tf.function (the two agree)."""

import numpy as np
import pytest

import runtime as tf


def _both(fn):
    """fn's result eagerly and traced, as numpy values (they must agree)."""
    eager = fn()
    graph = tf.function(fn)()
    assert eager.dtype == graph.dtype and eager.shape == graph.shape
    np.testing.assert_array_equal(eager.numpy(), graph.numpy())
    return eager


def write_one_of_three():
    return tf.TensorArray(tf.float32, size=3).write(1, [1., 2.]).stack()


def write_scalar_int():
    return tf.TensorArray(tf.int32, size=3).write(2, 5).stack()


def nothing_written_known_shape():
    return tf.TensorArray(tf.float32, size=3, element_shape=[2]).stack()


def nothing_written_scalar_shape():
    return tf.TensorArray(tf.float32, size=3, element_shape=[]).stack()


def dynamic_size_gap():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    return ta.write(0, [1., 2.]).write(3, [3., 4.]).stack()


def partly_known_shape():
    return tf.TensorArray(tf.float32, size=3, element_shape=[None]).write(1, [1., 2.]).stack()


def matrix_elements():
    ta = tf.TensorArray(tf.float32, size=3, element_shape=[2, 2])
    return ta.write(1, [[1., 2.], [3., 4.]]).stack()


def read_unwritten():
    return tf.TensorArray(tf.float32, size=3).write(1, [1., 2.]).read(0)


def read_nothing_written_known_shape():
    return tf.TensorArray(tf.float32, size=3, element_shape=[2]).read(0)


def concat_unwritten():
    return tf.TensorArray(tf.float32, size=3).write(1, [1., 2.]).concat()


def gather_unwritten():
    return tf.TensorArray(tf.float32, size=3).write(1, [1., 2.]).gather([0, 1])


def bool_elements():
    return tf.TensorArray(tf.bool, size=2).write(0, True).stack()


def string_elements():
    return tf.TensorArray(tf.string, size=2).write(1, "a").stack()


def loop_writes_every_other():
    ta = tf.TensorArray(tf.float32, size=4)
    _, ta = tf.while_loop(lambda i, ta: i < 4,
                          lambda i, ta: (i + 2, ta.write(i, tf.cast(tf.stack([i, i]), tf.float32))),
                          [0, ta])
    return ta.stack()


CASES = [
    (write_one_of_three, np.array([[0, 0], [1, 2], [0, 0]], np.float32)),
    (write_scalar_int, np.array([0, 0, 5], np.int32)),
    (nothing_written_known_shape, np.zeros((3, 2), np.float32)),
    (nothing_written_scalar_shape, np.zeros(3, np.float32)),
    (dynamic_size_gap, np.array([[1, 2], [0, 0], [0, 0], [3, 4]], np.float32)),
    (partly_known_shape, np.array([[0, 0], [1, 2], [0, 0]], np.float32)),
    (matrix_elements, np.array([[[0, 0], [0, 0]], [[1, 2], [3, 4]], [[0, 0], [0, 0]]],
                               np.float32)),
    (read_unwritten, np.zeros(2, np.float32)),
    (read_nothing_written_known_shape, np.zeros(2, np.float32)),
    (concat_unwritten, np.array([0, 0, 1, 2, 0, 0], np.float32)),
    (gather_unwritten, np.array([[0, 0], [1, 2]], np.float32)),
    (bool_elements, np.array([True, False])),
    (string_elements, np.array([b"", b"a"], object)),
    (loop_writes_every_other, np.array([[0, 0], [0, 0], [2, 2], [0, 0]], np.float32)),
]


@pytest.mark.parametrize("fn, want", CASES, ids=[c[0].__name__ for c in CASES])
def test_unwritten_elements_are_zeros_of_the_element_shape(fn, want):
    got = _both(fn)
    assert got.dtype.as_numpy_dtype == want.dtype or (want.dtype == object and
                                                      got.dtype == tf.string)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def stacked_sum(x):
    ta = tf.TensorArray(tf.float32, size=3).write(1, x * 3.0)
    return tf.reduce_sum(ta.stack() * tf.constant([[1., 1.], [2., 2.], [3., 3.]]))


@pytest.mark.parametrize("run", [stacked_sum, tf.function(stacked_sum)], ids=["eager", "graph"])
def test_the_gradient_reaches_the_written_element_only(run):
    # TF 2.21: 18.0 and the gradient [6., 6.], eagerly and in a tf.function
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(x)
    assert y.numpy() == 18.0
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [6., 6.])


def nothing_written_unknown_shape():
    return tf.TensorArray(tf.float32, size=3).stack()


def read_nothing_written_unknown_shape():
    return tf.TensorArray(tf.float32, size=3).read(0)


@pytest.mark.parametrize("fn", [nothing_written_unknown_shape, read_nothing_written_unknown_shape])
def test_no_element_shape_known_is_an_error(fn):
    """TF 2.21 in a tf.function: InvalidArgumentError "Tried to stack list
    which only contains uninitialized tensors and has a non-fully-defined
    element_shape: <unknown>" (eagerly a ValueError, "Cannot convert a
    partially known TensorShape <unknown> to a Tensor")."""
    for run in (fn, tf.function(fn)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="uninitialized elements, and the element shape <unknown> is "
                                 "not fully defined"):
            run()
