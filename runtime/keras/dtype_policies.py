"""`tf.keras.dtype_policies`: `DTypePolicy` (the float policies and
"mixed_float16" / "mixed_bfloat16"), `get`, `serialize`, `deserialize`
(runtime/_src/keras/dtype_policies/dtype_policy.py). The quantized policies are absent."""

from runtime._src.keras.dtype_policies.dtype_policy import (DTypePolicy, FloatDTypePolicy,
                                                            deserialize, get, serialize)

__all__ = ["DTypePolicy", "FloatDTypePolicy", "deserialize", "get", "serialize"]
