"""Weight constraints: applied to a variable after each optimizer step.

    Dense(4, kernel_constraint=constraints.MaxNorm(2.0))    # or "max_norm"

    MaxNorm(max_value=2, axis=0)      norms along `axis` capped at max_value
    MinMaxNorm(min_value=0.0, max_value=1.0, rate=1.0, axis=0)
    NonNeg()                          negative entries set to 0
    UnitNorm(axis=0)                  norms along `axis` set to 1

Keras 3's formulas, with its epsilon (1e-7) in the divisions.
"""

from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.function.variables import Variable
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import math_ops, reduction_ops

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "max_norm",
           "min_max_norm", "non_neg", "unit_norm", "get", "serialize", "deserialize"]


def _tensor(w):
    if isinstance(w, Variable):
        return w.read_value()
    return w if isinstance(w, Tensor) else convert_to_tensor(w)


def _norms(w, axis):
    return math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(w), axis=axis,
                                                  keepdims=True))


def _scaled(w, norms, desired):
    eps = math_ops.cast(backend_config.epsilon(), w.dtype)
    return math_ops.multiply(w, math_ops.truediv(desired, math_ops.add(eps, norms)))


class Constraint:
    """Base class: `__call__(w)` returns the constrained value; `get_config()`."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Each slice along `axis` with a norm above `max_value` scaled down to it."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = _tensor(w)
        norms = _norms(w, self.axis)
        desired = math_ops.clip_by_value(norms, 0.0, float(self.max_value))
        return _scaled(w, norms, desired)

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Norms moved into [min_value, max_value], by `rate` (1.0: all the way)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = _tensor(w)
        norms = _norms(w, self.axis)
        clipped = math_ops.clip_by_value(norms, float(self.min_value), float(self.max_value))
        rate = math_ops.cast(self.rate, w.dtype)
        desired = math_ops.add(math_ops.multiply(rate, clipped),
                               math_ops.multiply(math_ops.subtract(1.0, rate), norms))
        return _scaled(w, norms, desired)

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class NonNeg(Constraint):
    """Negative entries set to 0."""

    def __call__(self, w):
        w = _tensor(w)
        return math_ops.maximum(w, math_ops.cast(0, w.dtype))


class UnitNorm(Constraint):
    """Each slice along `axis` divided by its norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = _tensor(w)
        eps = math_ops.cast(backend_config.epsilon(), w.dtype)
        return math_ops.truediv(w, math_ops.add(eps, _norms(w, self.axis)))

    def get_config(self):
        return {"axis": self.axis}


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm

for _cls in (Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm):
    serialization.register_builtin("keras.constraints", _cls)

_BY_NAME = {"max_norm": MaxNorm, "min_max_norm": MinMaxNorm, "non_neg": NonNeg,
            "unit_norm": UnitNorm, "maxnorm": MaxNorm, "minmaxnorm": MinMaxNorm,
            "nonneg": NonNeg, "unitnorm": UnitNorm}     # names, and class names lowercased


def serialize(constraint):
    return serialization.serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    if isinstance(config, str):
        return serialization.deserialize_name(config, custom_objects, _BY_NAME,
                                              "keras.constraints")
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.constraints")


def get(identifier):
    """A constraint from None, a name ("max_norm", "non_neg", ...), a config
    dict, a Constraint, or a callable taking a weight."""
    return serialization.get_by_identifier(identifier, "constraint", _BY_NAME,
                                           "keras.constraints", fold_case=True)
