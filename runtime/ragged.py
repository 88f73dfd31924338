"""`tf.ragged`: ragged tensors (defined in runtime/_src/ragged/).

    rt = tf.ragged.constant([[1, 2], [3]])
    tf.ragged.map_flat_values(tf.math.square, rt)    # <tf.RaggedTensor [[1, 4], [9]]>
"""

from runtime._src.ragged.ragged_factory import constant, map_flat_values
from runtime._src.ragged.ragged_tensor import RaggedTensorSpec

__all__ = ["constant", "map_flat_values", "RaggedTensorSpec"]
