"""`keras.ops.image`: see runtime/_src/keras/ops/image.py."""

from runtime._src.keras.ops import image as _impl

__all__ = list(_impl.__all__)
globals().update({_n: getattr(_impl, _n) for _n in __all__})
