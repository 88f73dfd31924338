"""Bitwise ops on integer tensors (`tf.bitwise`), and the Python operators
`~ & | ^ << >>` on tensors.

    >>> bitwise_and(constant([5, 6]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    >>> ~constant(5)
    <tf.Tensor: shape=(), dtype=int32, numpy=-6>

As in TensorFlow, `~ & | ^` on a bool tensor are logical not/and/or/xor and
on an integer tensor are bitwise (`invert`, `bitwise_and`, ...), so integer
tensors behave like Python ints under these operators. Shifts are integer
only; `>>` is arithmetic (sign-extending) on signed types, like Python's.
Float tensors raise `TypeError` naming the op.
"""

import numpy as np

from runtime._src.core.tensor import Tensor, unwrap_variable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import BOOL, INTEGERS, binary, dtype_error, unary
from runtime._src.ops.math_ops import logical_and, logical_not, logical_or, not_equal
from runtime._src.graph.op_registry import define_op
from runtime._src.graph.op_registry import not_differentiable  # gradients

__all__ = ["invert", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
           "right_shift", "logical_xor", "invert_", "and_", "or_", "xor_"]


# --- the ops ---------------------------------------------------------------------

@define_op("Invert", infer=rules.same_as_first)
def _invert(x):
    return np.invert(x)


@define_op("BitwiseAnd", infer=rules.elementwise)
def _bitwise_and(x, y):
    return np.bitwise_and(x, y)


@define_op("BitwiseOr", infer=rules.elementwise)
def _bitwise_or(x, y):
    return np.bitwise_or(x, y)


@define_op("BitwiseXor", infer=rules.elementwise)
def _bitwise_xor(x, y):
    return np.bitwise_xor(x, y)


@define_op("LeftShift", infer=rules.elementwise)
def _left_shift(x, y):
    return np.left_shift(x, y)


@define_op("RightShift", infer=rules.elementwise)
def _right_shift(x, y):
    return np.right_shift(x, y)


not_differentiable("Invert", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift")


def invert(x, name=None):
    """~x: every bit flipped (for signed integers, -x - 1)."""
    return unary("Invert", x, INTEGERS)


def bitwise_and(x, y, name=None):
    """x & y bitwise on integer tensors."""
    return binary("BitwiseAnd", x, y, INTEGERS)


def bitwise_or(x, y, name=None):
    """x | y bitwise on integer tensors."""
    return binary("BitwiseOr", x, y, INTEGERS)


def bitwise_xor(x, y, name=None):
    """x ^ y bitwise on integer tensors."""
    return binary("BitwiseXor", x, y, INTEGERS)


def left_shift(x, y, name=None):
    """x << y on integer tensors (bits shifted out are lost)."""
    return binary("LeftShift", x, y, INTEGERS)


def right_shift(x, y, name=None):
    """x >> y on integer tensors; arithmetic (sign-extending) for signed types."""
    return binary("RightShift", x, y, INTEGERS)


def logical_xor(x, y, name=None):
    """x XOR y elementwise on bool tensors (also `x ^ y`)."""
    x, y = unwrap_variable(x), unwrap_variable(y)
    for t in (x, y):
        if isinstance(t, Tensor) and t.dtype not in BOOL:
            raise dtype_error("LogicalXor", t.dtype, BOOL)
    return not_equal(x, y)          # on bools, x != y is x XOR y


# --- the Python operators ----------------------------------------------------------

def _bool_operands(x, y=None):
    """True when the tensor operand (the first one that is a tensor) is bool."""
    for v in (x, y):
        v = unwrap_variable(v)
        if isinstance(v, Tensor):
            return v.dtype in BOOL
    return False


def invert_(x):
    """`~x`: logical not of a bool tensor, bitwise invert of an integer one."""
    return logical_not(x) if _bool_operands(x) else invert(x)


def and_(x, y):
    """`x & y`: logical and of bool tensors, bitwise and of integer ones."""
    return logical_and(x, y) if _bool_operands(x, y) else bitwise_and(x, y)


def or_(x, y):
    """`x | y`: logical or of bool tensors, bitwise or of integer ones."""
    return logical_or(x, y) if _bool_operands(x, y) else bitwise_or(x, y)


def xor_(x, y):
    """`x ^ y`: logical xor of bool tensors, bitwise xor of integer ones."""
    return logical_xor(x, y) if _bool_operands(x, y) else bitwise_xor(x, y)
