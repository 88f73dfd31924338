"""`keras.ops.nn`: see runtime/_src/keras/ops/nn.py."""

from runtime._src.keras.ops import nn as _impl

__all__ = list(_impl.__all__)
globals().update({_n: getattr(_impl, _n) for _n in __all__})
