"""`tf.experimental`: `numpy`, a NumPy-style API over the runtime's ops;
`ExtensionType` and `BatchableExtensionType` (user-defined composite values)
with their specs; dispatch of TensorFlow's APIs to user functions; and the
ragged shape types (`DynamicRaggedShape`, `RowPartition`); tf.data's `Optional`."""

from runtime._src.extension.dispatch import (dispatch_for_api,
                                             dispatch_for_binary_elementwise_apis,
                                             dispatch_for_binary_elementwise_assert_apis,
                                             dispatch_for_unary_elementwise_apis,
                                             unregister_dispatch_for)
from runtime._src.extension.extension_type import (BatchableExtensionType, ExtensionType,
                                                   ExtensionTypeBatchEncoder, ExtensionTypeSpec)
from runtime._src.data.iterator import Optional
from runtime._src.ragged.dynamic_ragged_shape import DynamicRaggedShape, RowPartition
from runtime.experimental import extension_type, numpy

__all__ = ["numpy", "extension_type", "ExtensionType", "BatchableExtensionType",
           "ExtensionTypeSpec", "ExtensionTypeBatchEncoder", "dispatch_for_api",
           "dispatch_for_unary_elementwise_apis", "dispatch_for_binary_elementwise_apis",
           "dispatch_for_binary_elementwise_assert_apis", "unregister_dispatch_for",
           "DynamicRaggedShape", "RowPartition", "Optional"]
