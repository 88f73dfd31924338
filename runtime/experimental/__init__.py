"""`tf.experimental`: `numpy`, a NumPy-style API over the runtime's ops;
`ExtensionType` and `BatchableExtensionType` (user-defined composite values)
with their specs; dispatch of TensorFlow's APIs to user functions; and the
ragged shape types (`DynamicRaggedShape`, `RowPartition`); tf.data's `Optional`;
the narrow floats and integers (`float8_e4m3fn`, `int4`, `float4_e2m1fn`, `int2`, ...);
`async_scope`, `async_clear_error` and `function_executor_type`; `dlpack`
(tensors shared with other frameworks)."""

from runtime._src.core.dtypes import (float4_e2m1fn, float8_e4m3b11fnuz, float8_e4m3fn,
                                      float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, int2, int4,
                                      uint2, uint4)

from runtime._src.extension.dispatch import (dispatch_for_api,
                                             dispatch_for_binary_elementwise_apis,
                                             dispatch_for_binary_elementwise_assert_apis,
                                             dispatch_for_unary_elementwise_apis,
                                             unregister_dispatch_for)
from runtime._src.extension.extension_type import (BatchableExtensionType, ExtensionType,
                                                   ExtensionTypeBatchEncoder, ExtensionTypeSpec)
from runtime._src.core.async_scopes import (async_clear_error, async_scope,
                                            function_executor_type)
from runtime._src.data.iterator import Optional
from runtime._src.ragged.dynamic_ragged_shape import DynamicRaggedShape, RowPartition
from runtime.experimental import dlpack, extension_type, numpy

__all__ = ["numpy", "dlpack", "extension_type", "ExtensionType", "BatchableExtensionType",
           "ExtensionTypeSpec", "ExtensionTypeBatchEncoder", "dispatch_for_api",
           "dispatch_for_unary_elementwise_apis", "dispatch_for_binary_elementwise_apis",
           "dispatch_for_binary_elementwise_assert_apis", "unregister_dispatch_for",
           "DynamicRaggedShape", "RowPartition", "Optional", "float8_e4m3fn", "float8_e5m2",
           "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float4_e2m1fn", "int4", "uint4", "int2", "uint2",
           "async_scope", "async_clear_error", "function_executor_type"]
