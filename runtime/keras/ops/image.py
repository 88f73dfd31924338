"""`keras.ops.image`: see runtime/_src/keras/ops/image.py."""

from runtime._src.keras.ops import image as _impl

from runtime._src.keras.random.elastic_transform import elastic_transform

__all__ = sorted(list(_impl.__all__) + ["elastic_transform"])
globals().update({_n: getattr(_impl, _n) for _n in _impl.__all__})
