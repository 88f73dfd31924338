"""The `tf.math` namespace: elementwise math, comparisons, logic, reductions.

    >>> import runtime as tf
    >>> tf.math.floormod(tf.constant([5, -5]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 1], dtype=int32)>

Every name is defined in `runtime.ops`; this module only gathers them under
TensorFlow's `tf.math.` spelling (explicit imports, one place to grep).
"""

from .ops.math_ops import (abs, add, divide, equal, exp, floordiv, floormod,  # noqa: F401, A004
                           greater, greater_equal, less, less_equal, log, logical_and,
                           logical_not, logical_or, maximum, minimum, mod, multiply,
                           negative, not_equal, pow, sign, sqrt, square, subtract, tanh,
                           truediv)
from .ops.math_ops import matmul  # noqa: F401 - tf.linalg.matmul, also reachable here
from .ops.nn_ops import sigmoid, softmax  # noqa: F401
from .ops.bitwise_ops import logical_xor  # noqa: F401
from .ops.reduction_ops import (argmax, argmin, reduce_all, reduce_any,  # noqa: F401
                                reduce_max, reduce_mean, reduce_min, reduce_prod,
                                reduce_sum)
