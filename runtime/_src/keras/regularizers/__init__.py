"""`keras.regularizers`: weight penalties."""
