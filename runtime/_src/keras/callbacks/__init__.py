"""`keras.callbacks`: the hooks `fit`, `evaluate` and `predict` call."""
