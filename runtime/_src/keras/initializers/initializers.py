"""Weight initializers: `GlorotUniform` (Dense's kernel), `Zeros` (its bias),
`RandomUniform` (Embedding), and a few more.

An initializer is called as `init(shape, dtype)` and returns a tensor. Random
ones draw from `tf.random`'s global generator, so `tf.random.set_seed(s)`
before building a model makes its weights the same on every run (TF's
semantics); an initializer's own `seed` makes it draw the same values on
every call (stateless random ops seeded with (seed, 0)), as Keras 3's seeded
initializers do.

`Identity(gain=1.0)` (also `IdentityInitializer`, `identity`): gain times the
identity matrix of a 2-D shape (ones on the main diagonal of a non-square one).
Keras 3 names each initializer class in lower case too
(`keras.initializers.glorot_uniform is GlorotUniform`); runtime/keras/initializers.py
gives those names.
"""

import math
import random

from runtime._src.core import determinism, dtypes
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import (array_ops, linalg_ops, math_ops, matrix_diag_ops, random_ops,
                              shape_ops, stateless_random_ops)

__all__ = ["Initializer", "GlorotUniform", "HeUniform", "GlorotNormal", "HeNormal",
           "LecunUniform", "LecunNormal", "TruncatedNormal", "Orthogonal", "VarianceScaling",
           "RandomUniform", "RandomNormal", "Zeros", "Ones", "Constant", "get", "Identity",
           "deserialize"]


def _draw(kind, shape, a, b, dtype, seed):
    """A random tensor: from the global generator when seed is None, else the
    same values on every call for the same seed. Under op determinism with no
    global seed, a seed from Python's `random`, as Keras 3's unseeded
    initializers take theirs (TF's random ops would refuse to run unseeded)."""
    if seed is None and determinism.enabled() and random_ops.global_seed() is None:
        seed = random.randint(1, 10 ** 9)
    if seed is None:
        return getattr(random_ops, kind)(shape, a, b, dtype)
    stateless = getattr(stateless_random_ops, "stateless_" + kind)
    return stateless(shape, [int(seed), 0], a, b, dtype)


def compute_fans(shape, input_axes=None, output_axes=None):
    """(fan_in, fan_out) of a weight shape: a matrix's rows and columns; for a
    convolution kernel (..., in, out) each times the receptive field size; with
    input_axes and output_axes the products of those axes' sizes (EinsumDense)."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return (math.prod(shape[a] for a in input_axes),
                math.prod(shape[a] for a in output_axes))
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
        value = array_ops.constant(self.value, dtype or dtypes.float32)
        if value.shape.rank:                  # Keras 3 broadcasts an array value to shape
            return shape_ops.broadcast_to(value, list(shape))
        return array_ops.fill(list(shape), value)


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def get_config(self):
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}

    def __call__(self, shape, dtype=None):
        return _draw("uniform", shape, self.minval, self.maxval, dtype or dtypes.float32,
                     self.seed)


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def get_config(self):
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}

    def __call__(self, shape, dtype=None):
        return _draw("normal", shape, self.mean, self.stddev, dtype or dtypes.float32,
                     self.seed)


_TRUNCATED_STDDEV = 0.87962566103423978    # stddev of a unit normal cut at +-2


class VarianceScaling(Initializer):
    """`VarianceScaling(scale=1.0, mode="fan_in", distribution="truncated_normal")`:
    variance scale / n, n being fan_in, fan_out or their average; drawn from a
    normal cut at two standard deviations (its stddev corrected, as Keras), an
    uncut normal ("untruncated_normal") or a uniform."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 input_axes=None, output_axes=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of "
                             "{'fan_in', 'fan_out', 'fan_avg'}")
        distribution = "truncated_normal" if distribution.lower() == "normal" \
            else distribution.lower()
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"Invalid `distribution` argument: {distribution}. Please use "
                             "one of {'uniform', 'truncated_normal', 'untruncated_normal'}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.input_axes, self.output_axes = input_axes, output_axes

    def get_config(self):
        return {"seed": self.seed, "scale": self.scale, "mode": self.mode,
                "distribution": self.distribution, "input_axes": self.input_axes,
                "output_axes": self.output_axes}

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        variance = self.scale / max(1.0, n)
        dtype = dtype or dtypes.float32
        if self.distribution == "truncated_normal":
            return _draw("truncated_normal", shape, 0.0,
                         math.sqrt(variance) / _TRUNCATED_STDDEV, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return _draw("normal", shape, 0.0, math.sqrt(variance), dtype, self.seed)
        limit = math.sqrt(3.0 * variance)
        return _draw("uniform", shape, -limit, limit, dtype, self.seed)


class _Preset(VarianceScaling):
    """A VarianceScaling with fixed arguments; its config is the seed and axes."""

    preset = {}

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(seed=seed, input_axes=input_axes, output_axes=output_axes,
                         **self.preset)

    def get_config(self):
        return {"seed": self.seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


class GlorotUniform(_Preset):
    """Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out))."""
    preset = {"scale": 1.0, "mode": "fan_avg", "distribution": "uniform"}


class GlorotNormal(_Preset):
    preset = {"scale": 1.0, "mode": "fan_avg", "distribution": "truncated_normal"}


class HeUniform(_Preset):
    preset = {"scale": 2.0, "mode": "fan_in", "distribution": "uniform"}


class HeNormal(_Preset):
    preset = {"scale": 2.0, "mode": "fan_in", "distribution": "truncated_normal"}


class LecunUniform(_Preset):
    preset = {"scale": 1.0, "mode": "fan_in", "distribution": "uniform"}


class LecunNormal(_Preset):
    preset = {"scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal"}


class TruncatedNormal(Initializer):
    """Normal(mean, stddev) with draws beyond two stddevs drawn again."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def get_config(self):
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}

    def __call__(self, shape, dtype=None):
        return _draw("truncated_normal", shape, self.mean, self.stddev,
                     dtype or dtypes.float32, self.seed)


class Orthogonal(Initializer):
    """`gain` times a random orthogonal matrix (the Q of a normal matrix's QR,
    its columns' signs fixed by R's diagonal), reshaped to `shape`."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def get_config(self):
        return {"seed": self.seed, "gain": self.gain}

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = _draw("normal", (max(rows, cols), min(rows, cols)), 0.0, 1.0,
                  dtype or dtypes.float32, self.seed)
        q, r = linalg_ops.qr(a)
        q = q * math_ops.sign(matrix_diag_ops.diag_part(r))
        if rows < cols:
            q = array_ops.transpose(q)
        return self.gain * array_ops.reshape(q, shape)


_BY_NAME = {
    "glorot_uniform": GlorotUniform, "he_uniform": HeUniform, "glorot_normal": GlorotNormal,
    "he_normal": HeNormal, "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
    "truncated_normal": TruncatedNormal, "orthogonal": Orthogonal,
    "variance_scaling": VarianceScaling,
    "random_uniform": RandomUniform, "uniform": RandomUniform,
    "random_normal": RandomNormal, "normal": RandomNormal, "zeros": Zeros, "ones": Ones,
}


for _cls in (Initializer, Zeros, Ones, Constant, RandomUniform, RandomNormal, GlorotUniform,
             HeUniform, GlorotNormal, HeNormal, LecunUniform, LecunNormal, TruncatedNormal,
             Orthogonal, VarianceScaling):
    serialization.register_builtin("keras.initializers", _cls)


def serialize(initializer):
    """A config dict of an initializer (a name is resolved first)."""
    return serialization.serialize_keras_object(get(initializer))


def get(identifier):
    """An initializer from a name ("glorot_uniform", "zeros", ...), a config
    dict, an Initializer, or a callable taking (shape, dtype)."""
    return serialization.get_by_identifier(identifier, "initializer", _BY_NAME,
                                           "keras.initializers", none=serialization.REJECT)


class Identity(Initializer):
    """`keras.initializers.Identity(gain=1.0)`: gain * eye(rows, cols)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        dtype = dtypes.as_dtype(dtype or "float32")
        eye = array_ops.eye(shape[0], shape[1], dtype=dtype)
        return eye if self.gain == 1 else eye * array_ops.constant(self.gain, dtype)


serialization.register_builtin("keras.initializers", Identity)
serialization.register_builtin("keras.initializers", Identity, "IdentityInitializer")
_BY_NAME["identity"] = Identity


def deserialize(config, custom_objects=None):
    """The initializer a `serialize` dict (or a name) describes."""
    if isinstance(config, str):
        return serialization.deserialize_name(config, custom_objects, _BY_NAME,
                                              "keras.initializers")
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.initializers")
