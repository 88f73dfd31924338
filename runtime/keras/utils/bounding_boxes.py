"""`keras.utils.bounding_boxes`: see runtime/_src/keras/utils/bounding_boxes.py."""

from runtime._src.keras.utils import bounding_boxes as _impl

__all__ = list(_impl.__all__)
globals().update({_n: getattr(_impl, _n) for _n in __all__})
