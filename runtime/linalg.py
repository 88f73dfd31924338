"""`tf.linalg`: linear algebra (defined in runtime/_src/ops/math_ops.py).

    >>> import runtime as tf
    >>> tf.linalg.matmul(tf.eye(2), tf.ones([2, 1])).shape
    TensorShape([2, 1])
"""

from runtime._src.ops.math_ops import matmul  # noqa: F401
from runtime._src.ops.reduction_ops import l2_normalize, norm  # noqa: F401

__all__ = ["l2_normalize", "matmul", "norm"]
