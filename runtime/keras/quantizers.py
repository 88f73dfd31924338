"""`keras.quantizers`: see runtime/_src/keras/quantizers/quantizers.py and
quantization_config.py (the int8 / int4 / float8 configs of `model.quantize`)."""

from runtime._src.keras.quantizers import quantization_config as _config
from runtime._src.keras.quantizers import quantizers as _impl

__all__ = sorted(list(_impl.__all__) + ["Float8QuantizationConfig", "Int4QuantizationConfig",
                                        "Int8QuantizationConfig", "QuantizationConfig"])
globals().update({_n: getattr(_impl, _n) for _n in _impl.__all__})
Float8QuantizationConfig = _config.Float8QuantizationConfig
Int4QuantizationConfig = _config.Int4QuantizationConfig
Int8QuantizationConfig = _config.Int8QuantizationConfig
QuantizationConfig = _config.QuantizationConfig
