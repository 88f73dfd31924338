"""Sizes numpy would misread or reject in its own words: a reshape size below
-1 (numpy takes any negative size as -1), dimensions beyond what numpy can
allocate or int32 can hold, a negative one_hot depth. Each is an error that
names the op and the argument, eagerly and while tracing."""

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

HUGE = 10 ** 30


def c(value):
    return tf.constant(value)


@pytest.mark.parametrize("make, error, message", [
    (lambda: tf.reshape(c([1, 2]), [-2]), InvalidArgumentError,
     "Reshape: size 0 must be non-negative (or -1 to infer it), not -2"),
    (lambda: tf.reshape(c([1, 2]), c([1, -3])), InvalidArgumentError,
     "Reshape: size 1 must be non-negative (or -1 to infer it), not -3"),
    (lambda: tf.zeros([HUGE]), ValueError, f"zeros: a dimension is too large, got [{HUGE}]"),
    (lambda: tf.ones([2, HUGE]), ValueError, f"ones: a dimension is too large, got [2, {HUGE}]"),
    (lambda: tf.eye(HUGE), ValueError, f"eye: num_rows is too large, got {HUGE}"),
    (lambda: tf.eye(2, HUGE), ValueError, f"eye: num_columns is too large, got {HUGE}"),
    (lambda: tf.tile(c([1]), [HUGE]), ValueError,
     f"Tile: multiples has a dimension outside the int32 range, got [{HUGE}]"),
    (lambda: tf.fill([HUGE], 1), ValueError,
     f"Fill: shape has a dimension outside the int32 range, got [{HUGE}]"),
    (lambda: tf.one_hot(c([1]), -1), ValueError, "OneHot: depth must be >= 0, got -1"),
])
def test_eager_size_errors_name_the_op(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


def test_reshape_to_minus_one_still_infers():
    np.testing.assert_array_equal(tf.reshape(c([[1, 2], [3, 4]]), [-1]).numpy(), [1, 2, 3, 4])


def reshape_static(x):
    return tf.reshape(x, [2, -2])


def reshape_dynamic(x, shape):
    return tf.reshape(x, shape)


def test_reshape_size_below_minus_one_while_tracing():
    with pytest.raises(ValueError, match=r"Reshape: size 1 must be non-negative \(or -1 to "
                                         r"infer it\), not -2"):
        tf.function(reshape_static)(c([1, 2, 3, 4]))


def test_reshape_size_below_minus_one_at_graph_run_time():
    f = tf.function(reshape_dynamic)
    np.testing.assert_array_equal(f(c([1, 2]), c([-1])).numpy(), [1, 2])
    with pytest.raises(InvalidArgumentError, match=r"Reshape: size 0 must be non-negative "
                                                   r"\(or -1 to infer it\), not -5"):
        f(c([1, 2]), c([-5]))
    assert f.experimental_get_tracing_count() == 1
