"""Weight regularizers: a penalty on a weight's values, added to the loss.

    Dense(4, kernel_regularizer=regularizers.l2(0.01))   # or "l2" (0.01)
    model.losses     # [0.01 * sum(kernel ** 2)], recomputed on every read

    L1(l1=0.01)             l1 * sum(|x|)
    L2(l2=0.01)             l2 * sum(x ** 2)
    L1L2(l1=0.0, l2=0.0)    both; `l1`, `l2`, `l1_l2` are the same classes

The factors are stored as float32 values (Keras 3 does too, so
`L1(0.3).get_config()` is {"l1": 0.30000001192092896}).
"""

import numpy as np

from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.function.variables import Variable
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import math_ops, reduction_ops

__all__ = ["Regularizer", "L1", "L2", "L1L2", "OrthogonalRegularizer", "l1", "l2", "l1_l2",
           "orthogonal_regularizer", "get", "serialize", "deserialize"]


def _factor(value, name, as_float32=True):
    """`value` checked; as Keras 3 keeps it: a float32 tensor in `L1` and
    `OrthogonalRegularizer` (their configs show float32's rounding, 0.3 is
    0.30000001192092896), a Python float in `L2` and `L1L2`."""
    value = float(np.float32(value)) if as_float32 else float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"Value for argument `{name}` must be a non-negative finite float. "
                         f"Received: {name}={value}")
    return value


def _tensor(x):
    if isinstance(x, Variable):
        return x.read_value()
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


class Regularizer:
    """Base class: `__call__(x)` returns a scalar penalty; `get_config()`."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} must implement get_config()")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1(Regularizer):
    """`tf.keras.regularizers.L1(l1=0.01)`: l1 * sum(|x|)."""

    def __init__(self, l1=0.01):
        self.l1 = _factor(l1, "l1")

    def __call__(self, x):
        x = _tensor(x)
        return math_ops.multiply(math_ops.cast(self.l1, x.dtype),
                                 reduction_ops.reduce_sum(math_ops.abs(x)))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """`tf.keras.regularizers.L2(l2=0.01)`: l2 * sum(x ** 2)."""

    def __init__(self, l2=0.01):
        self.l2 = _factor(l2, "l2", as_float32=False)

    def __call__(self, x):
        x = _tensor(x)
        return math_ops.multiply(math_ops.cast(self.l2, x.dtype),
                                 reduction_ops.reduce_sum(math_ops.square(x)))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """`tf.keras.regularizers.L1L2(l1=0.0, l2=0.0)`: l1 * sum(|x|) + l2 * sum(x ** 2)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _factor(l1, "l1", as_float32=False)
        self.l2 = _factor(l2, "l2", as_float32=False)

    def __call__(self, x):
        x = _tensor(x)
        total = math_ops.cast(0.0, x.dtype)
        if self.l1:
            total = math_ops.add(total, math_ops.multiply(
                math_ops.cast(self.l1, x.dtype), reduction_ops.reduce_sum(math_ops.abs(x))))
        if self.l2:
            total = math_ops.add(total, math_ops.multiply(
                math_ops.cast(self.l2, x.dtype), reduction_ops.reduce_sum(math_ops.square(x))))
        return total

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """`keras.regularizers.OrthogonalRegularizer(factor=0.01, mode="rows")`:
    factor * 0.5 * (mean over pairs i != j of |<r_i, r_j>|) * 2 for the
    L2-normalized rows (or columns) r of a rank-2 weight, i.e. factor * 0.5 *
    sum(|off-diagonal of R R^T|) / (n (n - 1) / 2)."""

    def __init__(self, factor=0.01, mode="rows"):
        self.factor = _factor(factor, "factor")
        if mode not in ("rows", "columns"):
            raise ValueError('Invalid value for argument `mode`. Expected one of {"rows", '
                             f'"columns"}}. Received: mode={mode}')
        self.mode = mode

    def __call__(self, x):
        x = _tensor(x)
        if x.shape.rank != 2:
            raise ValueError("Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={tuple(x.shape.as_list())}")
        axis = 1 if self.mode == "rows" else 0
        eps = backend_config.epsilon()
        inv_norm = math_ops.minimum(math_ops.rsqrt(reduction_ops.reduce_sum(
            math_ops.square(x), axis=axis, keepdims=True)), math_ops.cast(1.0 / eps, x.dtype))
        x = math_ops.multiply(x, inv_norm)
        product = math_ops.matmul(x, x, transpose_b=True) if axis == 1 else \
            math_ops.matmul(x, x, transpose_a=True)
        size = x.shape.as_list()[1 - axis]
        off_diagonal = math_ops.multiply(
            product, math_ops.cast(1.0 - np.eye(size), x.dtype))
        pairs = size * (size - 1.0) / 2.0
        return math_ops.divide(math_ops.multiply(
            math_ops.cast(self.factor * 0.5, x.dtype),
            reduction_ops.reduce_sum(math_ops.abs(off_diagonal))), math_ops.cast(pairs, x.dtype))

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer

for _cls in (Regularizer, L1, L2, L1L2, OrthogonalRegularizer):
    serialization.register_builtin("keras.regularizers", _cls)

_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": L1L2,
            "orthogonal_regularizer": OrthogonalRegularizer}


def serialize(regularizer):
    return serialization.serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    if isinstance(config, str):
        return serialization.deserialize_name(config, custom_objects, _BY_NAME,
                                              "keras.regularizers")
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.regularizers")


def get(identifier):
    """A regularizer from None, a name ("l1", "l2", "l1_l2"), a config dict, a
    Regularizer, or a callable taking a weight."""
    return serialization.get_by_identifier(identifier, "regularizer", _BY_NAME,
                                           "keras.regularizers", fold_case=True)
