"""Weight initializers: `GlorotUniform` (Dense's kernel), `Zeros` (its bias),
`RandomUniform` (Embedding), and a few more.

An initializer is called as `init(shape, dtype)` and returns a tensor. Random
ones draw from `tf.random`'s global generator, so `tf.random.set_seed(s)`
before building a model makes its weights the same on every run (TF's
semantics); an initializer's own `seed` gives it a fixed stream instead.
"""

import math

from runtime._src.core import dtypes
from runtime._src.keras import serialization
from runtime._src.ops import array_ops, random_ops

__all__ = ["Initializer", "GlorotUniform", "HeUniform",
           "RandomUniform", "RandomNormal", "Zeros", "Ones", "Constant", "get"]


def compute_fans(shape):
    """(fan_in, fan_out) of a weight shape: a matrix's rows and columns; for a
    convolution kernel (..., in, out) each times the receptive field size."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class: `__call__(shape, dtype=None)` returns the initial tensor."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(shape, dtype)")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return array_ops.zeros(shape, dtype or dtypes.float32)


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return array_ops.ones(shape, dtype or dtypes.float32)


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def get_config(self):
        return {"value": self.value}

    def __call__(self, shape, dtype=None):
        return array_ops.fill(list(shape), array_ops.constant(self.value, dtype or dtypes.float32))


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def get_config(self):
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}

    def __call__(self, shape, dtype=None):
        return random_ops.uniform(shape, self.minval, self.maxval, dtype or dtypes.float32,
                                  seed=self.seed)


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def get_config(self):
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}

    def __call__(self, shape, dtype=None):
        return random_ops.normal(shape, self.mean, self.stddev, dtype or dtypes.float32,
                                 seed=self.seed)


class _VarianceScaling(Initializer):
    """Uniform in [-limit, limit] with limit = sqrt(3 * scale / n); n is
    fan_in, fan_out or their average."""

    scale, mode = 1.0, "fan_avg"

    def __init__(self, seed=None, **kwargs):
        self.seed = seed          # Keras 3's input_axes / output_axes (None) are accepted

    def get_config(self):
        return {"seed": self.seed}

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        variance = self.scale / max(1.0, n)
        limit = math.sqrt(3.0 * variance)
        return random_ops.uniform(shape, -limit, limit, dtype or dtypes.float32, seed=self.seed)


class GlorotUniform(_VarianceScaling):
    """Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out))."""


class HeUniform(_VarianceScaling):
    scale, mode = 2.0, "fan_in"


_BY_NAME = {
    "glorot_uniform": GlorotUniform, "he_uniform": HeUniform,
    "random_uniform": RandomUniform, "uniform": RandomUniform,
    "random_normal": RandomNormal, "normal": RandomNormal, "zeros": Zeros, "ones": Ones,
}


for _cls in (Initializer, Zeros, Ones, Constant, RandomUniform, RandomNormal, GlorotUniform,
             HeUniform):
    serialization.register_builtin("keras.initializers", _cls)


def serialize(initializer):
    """A config dict of an initializer (a name is resolved first)."""
    return serialization.serialize_keras_object(get(initializer))


def get(identifier):
    """An initializer from a name ("glorot_uniform", "zeros", ...), a config
    dict, an Initializer, or a callable taking (shape, dtype)."""
    if isinstance(identifier, dict):
        return serialization.deserialize_keras_object(identifier, module="keras.initializers")
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret initializer identifier: {identifier!r}. "
                             f"Known names: {', '.join(sorted(_BY_NAME))}")
        return cls()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
