"""A numpy-backed tensor engine with TensorFlow's public names.

`import runtime as tf` runs code written for `tf.function`: tensors, ops,
tracing into graphs, polymorphic functions and a graph executor.
"""

from . import tensor as _tensor  # first: it completes the tensor/graph/ops import cycle
from . import dtypes, errors
from . import ops as _ops  # registers every op
from .dtypes import (DType, bool, float16, float32, float64, int8, int16,  # noqa: A004
                     int32, int64, string, uint8)
from .tensor import Tensor, convert_to_tensor
from .tensor_shape import TensorShape, TensorSpec
from .ops.math_ops import (abs, add, cast, divide, equal, exp, floordiv,  # noqa: A004
                           greater, greater_equal, identity, less, less_equal,
                           logical_and, logical_not, logical_or, matmul, maximum, minimum,
                           multiply, negative, not_equal, pow, sign, sqrt, square,
                           subtract, tanh, truediv, where)
from .ops.reduction_ops import (argmax, argmin, reduce_all, reduce_any, reduce_max,
                                reduce_mean, reduce_min, reduce_prod, reduce_sum)
from .ops.array_ops import (concat, constant, expand_dims, eye, fill, gather,  # noqa: A004
                            one_hot, ones, ones_like, range, rank, reshape, shape, size,
                            squeeze, stack, tile, transpose, unstack, zeros, zeros_like)
from . import math, nn, bitwise  # noqa: A004 - tf.math, tf.nn, tf.bitwise
from .control_flow import cond, while_loop
from .tensor_array import TensorArray
from .variables import Variable, init_scope
from .ops.logging_ops import print_v2 as print  # noqa: A001 - tf.print
from .ops.check_ops import Assert
from .ops.script_ops import py_function, numpy_function
from . import debugging, random

from .visualize import visualize
from .module import Module
from . import saved_model
from . import config
from .function import function, Function, ConcreteFunction
from . import autograph_backend as _autograph_backend  # registers runtime with autograph
from . import autograph  # tf.autograph

__version__ = "0.1.0"
