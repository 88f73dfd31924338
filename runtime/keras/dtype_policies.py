"""`tf.keras.dtype_policies`: `DTypePolicy` (the float policies and
"mixed_float16" / "mixed_bfloat16"), `DTypePolicyMap`, `get`, `serialize`,
`deserialize` (runtime/_src/keras/dtype_policies/). The quantized policies are absent."""

from runtime._src.keras.dtype_policies.dtype_policy import (DTypePolicy, FloatDTypePolicy,
                                                            deserialize, get, serialize)
from runtime._src.keras.dtype_policies.dtype_policy_map import DTypePolicyMap

__all__ = ["DTypePolicy", "DTypePolicyMap", "FloatDTypePolicy", "deserialize", "get", "serialize"]
