"""tf.debugging.enable_check_numerics / disable_check_numerics, with TF 2.21's
messages: eager ops and ops traced while it is on raise InvalidArgumentError
naming the op, the output, dtype, shape and the counts of Inf and NaN; finite
and integer results pass; gradients still flow; off again, nothing is checked."""

import pytest

import runtime as tf


@pytest.fixture
def checking():
    tf.debugging.enable_check_numerics()
    yield
    tf.debugging.disable_check_numerics()


def test_an_eager_nan_names_the_op_as_tf(checking):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.math.log(tf.constant([-1.0, 1.0]))
    assert str(info.value).endswith(
        "\n\n!!! Detected Infinity or NaN in output 0 of eagerly-executing op \"Log\" (# of "
        "outputs: 1) !!!\n  dtype: <dtype: 'float32'>\n  shape: (2,)\n  # of +NaN elements: 1\n"
        "\n  Input tensor: tf.Tensor([-1.  1.], shape=(2,), dtype=float32)\n\n : Tensor had NaN "
        "values")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"# of \+Inf elements: 1"):
        tf.constant([1.0]) / 0.0


def test_traced_ops_are_checked_and_finite_values_pass(checking):
    @tf.function
    def f(x):
        return tf.sqrt(x) * 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="output 0 of graph op \"Sqrt\""):
        f(tf.constant([-1.0]))
    assert f(tf.constant([4.0])).numpy().tolist() == [4.0]
    assert (tf.constant([1, 2]) // tf.constant([1, 1])).numpy().tolist() == [1, 2]
    with tf.GradientTape() as tape:
        x = tf.constant([4.0])
        tape.watch(x)
        y = tf.sqrt(x)
    assert tape.gradient(y, x).numpy().tolist() == [0.25]


def test_disabled_nothing_is_checked():
    tf.debugging.enable_check_numerics()
    tf.debugging.disable_check_numerics()
    assert str(tf.math.log(tf.constant([-1.0])).numpy()[0]) == "nan"
