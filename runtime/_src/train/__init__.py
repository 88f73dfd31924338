"""Layer: checkpoints (tf.train)."""
