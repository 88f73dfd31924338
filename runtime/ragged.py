"""`tf.ragged`: ragged tensors (defined in runtime/_src/ragged/).

    rt = tf.ragged.constant([[1, 2], [3]])
    tf.ragged.map_flat_values(tf.math.square, rt)    # <tf.RaggedTensor [[1, 4], [9]]>
"""

from runtime._src.ragged.ragged_array_ops import (boolean_mask, cross, cross_hashed, range,
                                                  row_splits_to_segment_ids,
                                                  segment_ids_to_row_splits, stack,
                                                  stack_dynamic_partitions)
from runtime._src.ragged.ragged_factory import constant, map_flat_values
from runtime._src.ragged.ragged_tensor import RaggedTensorSpec

__all__ = ["boolean_mask", "constant", "cross", "cross_hashed", "map_flat_values", "range",
           "RaggedTensorSpec", "row_splits_to_segment_ids", "segment_ids_to_row_splits",
           "stack", "stack_dynamic_partitions"]
