"""Comparisons (`less`, `equal`, ...: bool tensors, no gradient) and the
logical ops on bool tensors (`logical_and`, `logical_or`, `logical_not`)."""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.graph.op_registry import define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import ANY, BOOL, ORDERED
from runtime._src.ops.base_ops import binary as _binary, unary as _unary  # short local names

__all__ = ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "logical_and",
           "logical_or", "logical_not"]


# --- comparisons ---------------------------------------------------------------

@define_op("Less", infer=rules.compare)
def _less(x, y):
    return np.less(x, y)


@define_op("LessEqual", infer=rules.compare)
def _less_equal(x, y):
    return np.less_equal(x, y)


@define_op("Greater", infer=rules.compare)
def _greater(x, y):
    return np.greater(x, y)


@define_op("GreaterEqual", infer=rules.compare)
def _greater_equal(x, y):
    return np.greater_equal(x, y)


@define_op("Equal", infer=rules.compare)
def _equal(x, y):
    return np.equal(x, y)


@define_op("NotEqual", infer=rules.compare)
def _not_equal(x, y):
    return np.not_equal(x, y)


not_differentiable("Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual")


def less(x, y, name=None):
    """x < y elementwise, as a bool tensor."""
    return _binary("Less", x, y, ORDERED, dtypes.bool)


def less_equal(x, y, name=None):
    """x <= y elementwise, as a bool tensor."""
    return _binary("LessEqual", x, y, ORDERED, dtypes.bool)


def greater(x, y, name=None):
    """x > y elementwise, as a bool tensor."""
    return _binary("Greater", x, y, ORDERED, dtypes.bool)


def greater_equal(x, y, name=None):
    """x >= y elementwise, as a bool tensor."""
    return _binary("GreaterEqual", x, y, ORDERED, dtypes.bool)


def equal(x, y, name=None):
    """x == y elementwise. Comparing with None gives False (`tensor == None`)."""
    if x is None or y is None:
        return False
    return _binary("Equal", x, y, ANY, dtypes.bool)


def not_equal(x, y, name=None):
    """x != y elementwise. Comparing with None gives True (`tensor != None`)."""
    if x is None or y is None:
        return True
    return _binary("NotEqual", x, y, ANY, dtypes.bool)


# --- logic ---------------------------------------------------------------------

@define_op("LogicalAnd", infer=rules.logical)
def _logical_and(x, y):
    return np.logical_and(x, y)


@define_op("LogicalOr", infer=rules.logical)
def _logical_or(x, y):
    return np.logical_or(x, y)


@define_op("LogicalNot", infer=rules.logical)
def _logical_not(x):
    return np.logical_not(x)


not_differentiable("LogicalAnd", "LogicalOr", "LogicalNot")


def logical_and(x, y, name=None):
    """x AND y elementwise on bool tensors (also `x & y`)."""
    return _binary("LogicalAnd", x, y, BOOL)


def logical_or(x, y, name=None):
    """x OR y elementwise on bool tensors (also `x | y`)."""
    return _binary("LogicalOr", x, y, BOOL)


def logical_not(x, name=None):
    """NOT x elementwise on a bool tensor (also `~x`)."""
    return _unary("LogicalNot", x, BOOL)
