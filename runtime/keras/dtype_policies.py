"""`tf.keras.dtype_policies`: `DTypePolicy` (the float policies and
"mixed_float16" / "mixed_bfloat16"), `DTypePolicyMap`, `get`, `serialize`,
`deserialize`, and the policies of quantized layers, `QuantizedDTypePolicy`
("int8_from_float32"), `Int4DTypePolicy` ("int4/128_from_float32") and
`QuantizedFloat8DTypePolicy` ("float8_from_float32")
(runtime/_src/keras/dtype_policies/). Keras's GPTQ and AWQ policies are absent."""

from runtime._src.keras.dtype_policies.dtype_policy import (DTypePolicy, FloatDTypePolicy,
                                                            Int4DTypePolicy,
                                                            QuantizedDTypePolicy,
                                                            QuantizedFloat8DTypePolicy,
                                                            deserialize, get, serialize)
from runtime._src.keras.dtype_policies.dtype_policy_map import DTypePolicyMap

__all__ = ["DTypePolicy", "DTypePolicyMap", "FloatDTypePolicy", "Int4DTypePolicy",
           "QuantizedDTypePolicy", "QuantizedFloat8DTypePolicy", "deserialize", "get",
           "serialize"]
