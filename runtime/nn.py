"""The `tf.nn` namespace: activations (and `dropout`, from the random ops).

    >>> import runtime as tf
    >>> tf.nn.relu(tf.constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
"""

from .ops.nn_ops import relu, sigmoid, softmax  # noqa: F401

# DROPOUT (owner of runtime/ops/random_ops.py): add the re-export on the next line.
from .ops.random_ops import dropout  # noqa: F401
