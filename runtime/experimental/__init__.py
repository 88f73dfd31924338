"""`tf.experimental`: `numpy`, a NumPy-style API over the runtime's ops."""

from runtime.experimental import numpy  # noqa: F401

__all__ = ["numpy"]
