"""`tf.executing_eagerly()` and `tf.inside_function()`, as in TensorFlow 2.21."""

import runtime as tf


def test_eager_outside_functions_and_in_init_scope():
    seen = []

    @tf.function
    def f(x):
        seen.append((tf.executing_eagerly(), tf.inside_function()))
        with tf.init_scope():
            seen.append((tf.executing_eagerly(), tf.inside_function()))
        return x + 1

    assert (tf.executing_eagerly(), tf.inside_function()) == (True, False)
    assert int(f(tf.constant(1))) == 2
    assert seen == [(False, True), (True, False)]
