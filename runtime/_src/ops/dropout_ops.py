"""`tf.nn.experimental.stateless_dropout` and `general_dropout`: dropout whose
keep/drop decision comes from a seed (a stateless uniform draw, TF's Philox
numbers) or from a sampler the caller gives, with TF's arithmetic: `x`
scaled by `1 / (1 - rate)` (computed in Python for a float rate, as TF
does), then zeroed where the uniform number is below `rate`.

    >>> import runtime as tf
    >>> x = tf.reshape(tf.range(12.0), [3, 4])
    >>> tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]).numpy()[1]
    array([ 0., 10.,  0.,  0.], dtype=float32)
"""

import functools
import numbers

from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import shape as shape_of
from runtime._src.ops.stateless_random_ops import stateless_uniform

__all__ = ["stateless_dropout", "general_dropout"]


def _noise_shape(x, noise_shape):
    """TF's noise shape: x's shape, or `noise_shape` with its None dims taken from x."""
    if noise_shape is None:
        return x.shape.as_list() if x.shape.is_fully_defined() else shape_of(x)
    if isinstance(noise_shape, Tensor):
        return noise_shape
    dims = list(noise_shape)
    if x.shape.rank is not None and len(dims) == x.shape.rank:
        dims = [x.shape[i] if d is None else int(d) for i, d in enumerate(dims)]
    return dims


def _scaled(x, rate):
    """x / (1 - rate): a float rate's scale computed in Python, as TF."""
    if isinstance(rate, numbers.Real):
        return math_ops.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
    rate = convert_to_tensor(rate)
    if rate.shape.rank not in (None, 0):
        raise ValueError(f"Shapes must be equal rank, but are {rate.shape.rank} and 0: `rate` "
                         "must be a scalar")
    if rate.dtype != x.dtype:
        raise ValueError("`x.dtype` must be compatible with `rate.dtype`. Received: "
                         f"x.dtype={x.dtype.name} and rate.dtype={rate.dtype.name}")
    return math_ops.truediv(x, math_ops.subtract(convert_to_tensor(1, dtype=x.dtype), rate))


def _dropout(x, rate, noise_shape, uniform_sampler):
    if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
        raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={x.dtype.name}")
    if isinstance(rate, numbers.Real) and rate == 0:
        return x
    scaled = _scaled(x, rate)
    uniform = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
    keep = math_ops.greater_equal(uniform, rate)
    return math_ops.where(keep, scaled, convert_to_tensor(0, dtype=x.dtype))


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """Dropout decided by `seed` (a shape [2] integer tensor): the same seed
    drops the same entries, as TF's (its Philox numbers)."""
    sampler = functools.partial(stateless_uniform, seed=seed, alg=rng_alg or "auto_select")
    return _dropout(x, rate, noise_shape, sampler)


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """Dropout with the uniform [0, 1) numbers from
    `uniform_sampler(shape=..., dtype=...)`."""
    return _dropout(x, rate, noise_shape, uniform_sampler)


