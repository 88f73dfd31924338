"""`tf.keras.models`: `Model` and `Sequential`."""

from runtime._src.keras.models import Model, Sequential

__all__ = ["Model", "Sequential"]
