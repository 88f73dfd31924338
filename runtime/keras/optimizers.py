"""`tf.keras.optimizers`: `SGD`, `Adam`, `RMSprop`, and `get`."""

from runtime._src.keras.optimizers import SGD, Adam, Optimizer, RMSprop, get

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "get"]
