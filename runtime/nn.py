"""The `tf.nn` namespace: activations (and `dropout`, from the random ops).

    >>> import runtime as tf
    >>> tf.nn.relu(tf.constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
"""

from runtime._src.ops.reduction_ops import l2_normalize, moments  # noqa: F401
from runtime._src.ops.nn_ops import relu, sigmoid, softmax, softplus, softsign  # noqa: F401

# tf.nn.dropout is defined with the random ops (runtime/ops/random_ops.py).
from runtime._src.ops.random_ops import dropout  # noqa: F401
