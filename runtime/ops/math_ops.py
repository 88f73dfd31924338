"""Math and logic ops: elementwise arithmetic, comparisons, matmul.

Binary ops follow TensorFlow's dtype rules: a Python scalar, list or numpy
value takes the dtype of the tensor it meets; two tensors of different dtypes
raise (`TypeError` while tracing, `InvalidArgumentError` eagerly).
"""

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..graph import current_graph
from ..op_registry import apply, define_op
from ..tensor import Tensor, convert_to_tensor
from .shape_rules import compare, elementwise, same_as_first

__all__ = ["add", "subtract", "multiply", "truediv", "floordiv", "floormod", "pow",
           "matmul", "negative", "abs", "less", "less_equal", "greater",
           "greater_equal", "equal", "not_equal", "logical_and", "logical_or",
           "logical_not", "convert_pair"]


def convert_pair(x, y, op_name):
    """Convert two operands of a binary op to tensors of one dtype."""
    if not isinstance(x, Tensor) and hasattr(x, "_as_tensor"):
        x = x._as_tensor()
    if not isinstance(y, Tensor) and hasattr(y, "_as_tensor"):
        y = y._as_tensor()
    if isinstance(x, Tensor):
        if not isinstance(y, Tensor):
            y = convert_to_tensor(y, x.dtype)
        elif x.dtype is not y.dtype and current_graph() is None:
            raise InvalidArgumentError(
                f"{op_name}: cannot compute {op_name} of a {x.dtype.name} tensor and a "
                f"{y.dtype.name} tensor; use tf.cast to convert one of them", op_name)
    elif isinstance(y, Tensor):
        x = convert_to_tensor(x, y.dtype)
    else:
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, x.dtype)
    return x, y


def _binary(name, x, y):
    x, y = convert_pair(x, y, name)
    return apply(name, (x, y))


def _unary(name, x):
    return apply(name, (convert_to_tensor(x),))


# --- arithmetic ----------------------------------------------------------------

@define_op("AddV2", infer=elementwise)
def _add(x, y):
    return np.add(x, y)


@define_op("Sub", infer=elementwise)
def _sub(x, y):
    return np.subtract(x, y)


@define_op("Mul", infer=elementwise)
def _mul(x, y):
    return np.multiply(x, y)


@define_op("Neg", infer=same_as_first)
def _neg(x):
    return np.negative(x)


def add(x, y, name=None):
    """x + y elementwise, with broadcasting."""
    return _binary("AddV2", x, y)


def subtract(x, y, name=None):
    """x - y elementwise, with broadcasting."""
    return _binary("Sub", x, y)


def multiply(x, y, name=None):
    """x * y elementwise, with broadcasting."""
    return _binary("Mul", x, y)


def negative(x, name=None):
    """-x elementwise."""
    return _unary("Neg", x)


# --- comparisons ---------------------------------------------------------------

@define_op("Less", infer=compare)
def _less(x, y):
    return np.less(x, y)


@define_op("Greater", infer=compare)
def _greater(x, y):
    return np.greater(x, y)


def less(x, y, name=None):
    return _binary("Less", x, y)


def greater(x, y, name=None):
    return _binary("Greater", x, y)
