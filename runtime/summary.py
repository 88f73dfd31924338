"""tf.summary."""
