"""`tf.keras.optimizers`: `SGD`, `Adam`, `RMSprop`, `get`, and `schedules`."""

from runtime._src.keras.optimizers import SGD, Adam, Optimizer, RMSprop, get
from runtime.keras.optimizers import schedules

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "get", "schedules"]
