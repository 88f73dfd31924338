"""`keras.quantizers`: see runtime/_src/keras/quantizers/quantizers.py."""

from runtime._src.keras.quantizers import quantizers as _impl

__all__ = list(_impl.__all__)
globals().update({_n: getattr(_impl, _n) for _n in __all__})
