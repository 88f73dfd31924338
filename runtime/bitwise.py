"""The `tf.bitwise` namespace: bitwise ops on integer tensors.

    >>> import runtime as tf
    >>> tf.bitwise.left_shift(tf.constant([1, 2]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 8, 16], dtype=int32)>

Every name is defined in `runtime._src.ops.bitwise_ops`; this module only gathers
them under TensorFlow's `tf.bitwise.` spelling.
"""

from runtime._src.ops.bitwise_ops import (bitwise_and, bitwise_or, bitwise_xor, invert,
                                          left_shift, right_shift)
