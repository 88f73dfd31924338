"""tf.math's elementwise ops, comparisons, logic, matmul, `where` and `cast`,
gathered from the modules that define them:

- arithmetic_ops: add, subtract, multiply, the divisions, pow, maximum and
  minimum, the basic unary ops, atan2, squared_difference, add_n, clip_by_value;
- unary_math_ops: trigonometric and hyperbolic functions, rounding, erf, the
  is_* predicates;
- comparison_ops: comparisons and logic;
- matmul_ops: matmul;
- where_cast_ops: where, cast, identity.

Importing from here keeps working for every name below.

    >>> add(constant([1, 2]), 1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
"""

from runtime._src.ops.arithmetic_ops import (  # noqa: F401 - the family's one import path
    _conj, abs, add, add_n, atan2, clip_by_value, divide, exp, floordiv, floormod, log,
    maximum, minimum, mod, multiply, negative, pow, realdiv, scalar_mul, sign, sqrt, square,
    squared_difference, subtract, tanh, truediv, truncatediv, truncatemod)
from runtime._src.ops.base_ops import convert_pair, run_kernel_now
from runtime._src.ops.comparison_ops import (equal, greater, greater_equal, less, less_equal,
                                             logical_and, logical_not, logical_or, not_equal)
from runtime._src.ops.matmul_ops import matmul
from runtime._src.ops.unary_math_ops import (acos, acosh, asin, asinh, atan, atanh, ceil, cos,
                                             cosh, erf, erfc, expm1, floor, is_finite, is_inf,
                                             is_nan, log1p, reciprocal, rint, round, rsqrt,
                                             sin, sinh, tan)
from runtime._src.ops.where_cast_ops import cast, identity, where

__all__ = ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod",
           "mod", "pow", "square", "sqrt", "exp", "log", "tanh", "abs", "negative", "sign",
           "maximum", "minimum", "matmul", "less", "less_equal", "greater",
           "greater_equal", "equal", "not_equal", "logical_and", "logical_or",
           "logical_not", "where", "cast", "identity", "convert_pair", "run_kernel_now",
           "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
           "atanh", "expm1", "log1p", "rsqrt", "reciprocal", "floor", "ceil", "round", "rint",
           "erf", "erfc", "is_nan", "is_inf", "is_finite", "atan2", "squared_difference",
           "add_n", "clip_by_value", "truncatediv", "truncatemod", "realdiv", "scalar_mul"]
