"""`keras.random`: Keras 3's random functions and `SeedGenerator`.

Every function is stateless given its seed, as in Keras 3:
  - `seed=42` (an int): the same values on every call, eagerly and in graphs;
  - `seed=SeedGenerator(42)`: new values at each call (the generator's
    `state` variable, [seed, n], advances by one per draw), reproducible from
    its seed; inside a `tf.function` each run of the graph advances it;
  - `seed=None`: a process-wide SeedGenerator (`utils.set_random_seed`
    makes it reproducible; `backend.clear_session` forgets it).

    gen = SeedGenerator(1337)
    a = normal((2, 3), seed=gen)       # float32 (floatx) by default
    b = normal((2, 3), seed=gen)       # different from a
    c = normal((2, 3), seed=7)         # the same for every seed=7 call

The draws are the runtime's stateless ops (`stateless_random_ops`): numpy's
numbers, not TensorFlow's, with Keras's shapes, dtypes and distributions.
"""

import random as python_random

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.utils import naming
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import (array_ops, manipulation_ops, math_ops, shape_ops, sort_ops,
                              stateless_random_ops as stateless)

__all__ = ["SeedGenerator", "beta", "binomial", "categorical", "dropout", "gamma", "normal",
           "randint", "shuffle", "truncated_normal", "uniform"]

_GLOBAL = {}            # "generator": the SeedGenerator of seed=None draws


class SeedGenerator:
    """`keras.random.SeedGenerator(seed=None, name=None)`: the seeds of
    successive draws. `state` is a non-trainable int64 Variable holding
    [seed, n]; `next()` returns it and adds 1 to n."""

    def __init__(self, seed=None, name=None, **kwargs):
        kwargs.pop("backend", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self._initial_seed = seed
        if seed is None:
            seed = python_random.randint(1, int(1e9))
        if not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        with naming.name_scope(self.name, caller=self), init_scope():
            self.state = KerasVariable(np.array([seed, 0], np.int64), dtype=dtypes.int64,
                                       trainable=False, name="seed_generator_state")

    def next(self, ordered=True):
        """The current state (a [2] int64 tensor); then the state moves on:
        [seed, n + 1] when `ordered`, else a scrambled successor."""
        current = self.state.read_value() * 1
        if ordered:
            self.state.assign_add(convert_to_tensor(np.array([0, 1], np.int64)))
        else:
            self.state.assign((current + 1) * 5387 % 933199)
        return current

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def global_seed_generator():
    """The SeedGenerator of unseeded draws, made on first use."""
    generator = _GLOBAL.get("generator")
    if generator is None:
        generator = _GLOBAL["generator"] = SeedGenerator()
    return generator


def reset_global_seed_generator():
    """Forget the global SeedGenerator (`set_random_seed`, `clear_session`)."""
    _GLOBAL.pop("generator", None)


def draw_seed(seed):
    """The [2] int32 seed of one draw, from an int, a SeedGenerator or None
    (folded into int32's range as Keras does for TensorFlow)."""
    if isinstance(seed, SeedGenerator):
        pair = seed.next()
    elif isinstance(seed, int):
        pair = convert_to_tensor(np.array([seed, 0], np.int64))
    elif seed is None:
        pair = global_seed_generator().next(ordered=False)
    else:
        raise ValueError("Argument `seed` must be either an integer or an instance of "
                         f"`SeedGenerator`. Received: seed={seed} (of type {type(seed)})")
    return math_ops.cast(math_ops.floormod(pair, np.int64(2**31 - 2)), dtypes.int32)


def _float_dtype(dtype):
    return dtypes.as_dtype(dtype or backend_config.floatx())


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Draws from a normal distribution (floatx by default)."""
    return stateless.stateless_normal(shape, draw_seed(seed), mean, stddev, _float_dtype(dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws within two standard deviations of the mean."""
    return stateless.stateless_truncated_normal(shape, draw_seed(seed), mean, stddev,
                                                _float_dtype(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Draws in [minval, maxval) of a float dtype (floatx by default)."""
    if dtype and not dtypes.as_dtype(dtype).is_floating:
        raise ValueError("`keras.random.uniform` requires a floating point `dtype`. "
                         f"Received: dtype={dtype} ")
    dtype = _float_dtype(dtype)
    return stateless.stateless_uniform(shape, draw_seed(seed), math_ops.cast(minval, dtype),
                                       math_ops.cast(maxval, dtype), dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in [minval, maxval) (int32 by default)."""
    if dtype and not dtypes.as_dtype(dtype).is_integer:
        raise ValueError("`keras.random.randint` requires an integer `dtype`. "
                         f"Received: dtype={dtype} ")
    dtype = dtypes.as_dtype(dtype)
    draw = dtype if dtype in (dtypes.int32, dtypes.int64) else dtypes.int64
    values = stateless.stateless_uniform(shape, draw_seed(seed), minval, maxval, draw)
    return math_ops.cast(values, dtype)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of the 2-D `logits` (unnormalized
    log-probabilities)."""
    tensor = logits if isinstance(logits, Tensor) else convert_to_tensor(logits)
    if tensor.shape.rank != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, "
                         f"num_classes]. Received: logits={logits}")
    drawn = stateless.stateless_categorical(tensor, num_samples, draw_seed(seed))
    return math_ops.cast(drawn, dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero each entry with probability `rate` and scale the rest by
    1 / (1 - rate); `noise_shape` (None entries: the input's) shares the
    choice along the axes where it is 1."""
    if rate == 1.0:
        return array_ops.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
    shape = array_ops.shape(x)
    if noise_shape is not None:
        shape = array_ops.stack([shape[i] if d is None else d for i, d in enumerate(noise_shape)])
    draws = stateless.stateless_uniform(shape, draw_seed(seed), dtype=x.dtype)
    keep = math_ops.cast(draws >= rate, x.dtype)
    return x * (1.0 / (1.0 - rate)) * keep


def shuffle(x, axis=0, seed=None):
    """`x` with its entries along `axis` in a random order."""
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    size = array_ops.shape(x)[axis]
    order = sort_ops.argsort(stateless.stateless_uniform(array_ops.stack([size]),
                                                         draw_seed(seed)))
    return manipulation_ops.gather(x, order, axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    """Draws from Gamma(alpha, 1); alpha must fit the last dims of `shape`."""
    return stateless.stateless_gamma(shape, draw_seed(seed), alpha, dtype=_float_dtype(dtype))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Successes in `counts` trials of success probability `probabilities`,
    as floats (floatx by default)."""
    return stateless.stateless_binomial(shape, draw_seed(seed), counts, probabilities,
                                        output_dtype=_float_dtype(dtype))


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Draws from Beta(alpha, beta): X / (X + Y) for X ~ Gamma(alpha) and
    Y ~ Gamma(beta), drawn with the seed and the seed + 12."""
    dtype = _float_dtype(dtype)
    seed_1 = draw_seed(seed)
    alpha = shape_ops.broadcast_to(convert_to_tensor(alpha, dtype), shape)
    beta = shape_ops.broadcast_to(convert_to_tensor(beta, dtype), shape)
    gamma_a = stateless.stateless_gamma(shape, seed_1, alpha, dtype=dtype)
    gamma_b = stateless.stateless_gamma(shape, seed_1 + 12, beta, dtype=dtype)
    return gamma_a / (gamma_a + gamma_b)
