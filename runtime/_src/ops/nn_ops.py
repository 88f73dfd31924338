"""Neural-network activations: `relu`, `sigmoid`, `softplus`, `softsign`,
`softmax` (`tf.nn.*`).

    >>> relu(constant([-1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>

`dropout` lives with the random ops (runtime/ops/random_ops.py).
"""

import numpy as np

from runtime._src.graph.op_registry import apply, define_op
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.math_ops import FLOATS, NUMERIC, dtype_error

__all__ = ["relu", "sigmoid", "softplus", "softsign", "softmax"]


@define_op("Relu", infer=rules.same_as_first)
def _relu(x):
    return np.maximum(x, x.dtype.type(0))


@define_op("Sigmoid", infer=rules.same_as_first)
def _sigmoid(x):
    # 1 / (1 + exp(-x)) written with tanh: no overflow for large |x|.
    half = x.dtype.type(0.5)
    return half * np.tanh(half * x) + half


@define_op("Softplus", infer=rules.same_as_first)
def _softplus(x):
    # log(1 + exp(x)) as logaddexp(0, x): no overflow for large x, exact for small.
    return np.logaddexp(x.dtype.type(0), x)


@define_op("Softsign", infer=rules.same_as_first)
def _softsign(x):
    return x / (x.dtype.type(1) + np.abs(x))


def _infer_softmax(inputs, attrs):
    x = inputs[0]
    if x.shape.rank == 0:
        raise ValueError("softmax needs a tensor of rank >= 1, got a scalar")
    rules.normalize_axis(attrs["axis"], x.shape.rank)
    return [(x.dtype, x.shape)]


@define_op("Softmax", infer=_infer_softmax)
def _softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def _checked(op_name, x, allowed):
    x = convert_to_tensor(x)
    if x.dtype not in allowed:
        raise dtype_error(op_name, x.dtype, allowed)
    return x


def relu(features, name=None):
    """max(features, 0) elementwise."""
    return apply("Relu", (_checked("Relu", features, NUMERIC),))


def sigmoid(x, name=None):
    """1 / (1 + exp(-x)); floating-point inputs only."""
    return apply("Sigmoid", (_checked("Sigmoid", x, FLOATS),))


def softplus(features, name=None):
    """log(exp(features) + 1); floating-point inputs only."""
    return apply("Softplus", (_checked("Softplus", features, FLOATS),))


def softsign(features, name=None):
    """features / (abs(features) + 1); floating-point inputs only."""
    return apply("Softsign", (_checked("Softsign", features, FLOATS),))


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along `axis` (the last one when None)."""
    logits = _checked("Softmax", logits, FLOATS)
    axis = -1 if axis is None else rules.static_int(axis, "Softmax", "axis")
    return apply("Softmax", (logits,), {"axis": axis})
