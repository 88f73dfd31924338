"""`keras.activations`: activation functions by name."""
