"""TensorFlow's own initializers: `tf.constant_initializer`,
`tf.zeros_initializer`, `tf.ones_initializer`, `tf.random_normal_initializer`
and `tf.random_uniform_initializer` (not Keras's, which live in
runtime/_src/keras/initializers/initializers.py).

    init = tf.random_normal_initializer(stddev=0.1, seed=3)
    tf.Variable(init(shape=[2, 3]))      # the same values each call, with a seed
    init.get_config()                    # {'mean': 0.0, 'stddev': 0.1, 'seed': 3}

An initializer is called with `(shape, dtype=None, **kwargs)`; a seeded
random one draws from the stateless ops with seed `[seed, 0]`, so every call
gives the same values (an unseeded one draws new values each call). The
numbers are numpy's, not TF's (see docs/tf_differences.md, Random numbers).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.ops import random_ops, stateless_random_ops
from runtime._src.ops.array_ops import constant, ones, zeros

__all__ = ["Initializer", "constant_initializer", "zeros_initializer", "ones_initializer",
           "random_normal_initializer", "random_uniform_initializer"]


def _dtype(dtype, default=dtypes.float32):
    return default if dtype is None else dtypes.as_dtype(dtype)


def _numeric_or_bool(dtype):
    if not (dtype.is_floating or dtype.is_integer or dtype.is_complex or dtype.is_bool):
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received "
                         f"{dtype!r}.")
    return dtype


def _shape(shape, kwargs):
    """The shape to fill: `partition_shape` when TF's partitioned call gives one."""
    return kwargs.get("partition_shape", shape)


class Initializer:
    """The base class: `__call__(shape, dtype=None, **kwargs)`, `get_config`,
    `from_config`."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define __call__")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)


class Zeros(Initializer):
    """`tf.zeros_initializer()`: zeros of the given shape and dtype."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return zeros(_shape(shape, kwargs), _numeric_or_bool(_dtype(dtype)))


class Ones(Initializer):
    """`tf.ones_initializer()`: ones of the given shape and dtype."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return ones(_shape(shape, kwargs), _numeric_or_bool(_dtype(dtype)))


class Constant(Initializer):
    """`tf.constant_initializer(value=0)`: `value` broadcast (a scalar) or
    reshaped (as many elements as the shape) to the shape; without a dtype
    the value's own."""

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))
                or hasattr(value, "numpy")):
            raise TypeError(f"Invalid type for initial value={value} of type: "
                            f"{type(value).__name__}. Expected Python scalar, list or tuple "
                            "of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
        return constant(self.value, dtype=dtype, shape=_shape(shape, kwargs))

    def get_config(self):
        return {"value": self.value}


class RandomNormal(Initializer):
    """`tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f"Argument `dtype` is expected to be floating point. Received: "
                             f"{dtype!r}.")
        shape = _shape(shape, kwargs)
        if self.seed is None:
            return random_ops.normal(shape, self.mean, self.stddev, dtype)
        return stateless_random_ops.stateless_normal(shape, [self.seed, 0], self.mean,
                                                     self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(Initializer):
    """`tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None)`;
    integer dtypes draw integers in `[minval, maxval)`."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"Argument `dtype` is expected to be floating point or integer. "
                             f"Received: {dtype!r}.")
        shape = _shape(shape, kwargs)
        if self.seed is None:
            return random_ops.uniform(shape, self.minval, self.maxval, dtype)
        return stateless_random_ops.stateless_uniform(shape, [self.seed, 0], self.minval,
                                                      self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


# TF's public names are the lower-case aliases of the classes.
constant_initializer = Constant
zeros_initializer = Zeros
ones_initializer = Ones
random_normal_initializer = RandomNormal
random_uniform_initializer = RandomUniform
