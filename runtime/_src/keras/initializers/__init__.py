"""`keras.initializers`: weight initializers."""
