"""`tf.keras.activations`: activation functions and `get` (name -> function)."""

from runtime._src.keras.activations import get, linear, relu, serialize, sigmoid, softmax, tanh

__all__ = ["get", "serialize", "linear", "relu", "sigmoid", "softmax", "tanh"]
