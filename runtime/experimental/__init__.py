"""`tf.experimental`: `numpy`, a NumPy-style API over the runtime's ops."""

from runtime.experimental import numpy

__all__ = ["numpy"]
