"""`keras.ops.numpy`: see runtime/_src/keras/ops/numpy.py."""

from runtime._src.keras.ops import numpy as _impl

__all__ = list(_impl.__all__)
globals().update({_n: getattr(_impl, _n) for _n in __all__})
