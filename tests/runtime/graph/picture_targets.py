"""A realistic function for the picture tests: 15 lines, a loop over a
tensor with a branch inside, a TensorArray and a final `if`."""

import runtime as tf


def running_stats(xs, threshold):
    """Running mean of the values above a threshold, with a capped count."""
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    total = tf.constant(0.0)
    count = tf.constant(0)
    for i in tf.range(tf.shape(xs)[0]):
        x = xs[i]
        if x > threshold:
            total += x
            count += 1
        else:
            total -= 0.5 * x
        ta = ta.write(i, total / tf.maximum(tf.cast(count, tf.float32), 1.0))
    if count > 10:
        count = tf.constant(10)
    return ta.stack(), count


def running_stats_graph():
    """The traced graph of `running_stats` for float32[None] and float32[]."""
    f = tf.function(running_stats)
    return f.get_concrete_function(tf.TensorSpec([None], tf.float32),
                                   tf.TensorSpec([], tf.float32)).graph
