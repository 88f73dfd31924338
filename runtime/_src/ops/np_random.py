"""`tf.experimental.numpy.random`: NumPy-named draws over our stateful
random ops (so `seed` is `tf.random.set_seed` and the draws follow its
rules: new values on every call and on every run of a traced function).

Floats are float64 (also under prefer_float32, as in TF 2.21), integers int64.

    seed(1); rand(2, 3)          # shape (2, 3), float64, in [0, 1)
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.ops import random_dist_ops, random_ops, shape_ops
from runtime._src.ops.np_dtypes import asarray, result_type

__all__ = ["seed", "rand", "randn", "randint", "random", "standard_normal", "uniform",
           "poisson"]


def seed(s):
    """`tnp.random.seed(s)`: tf.random.set_seed(s); s must be an integer."""
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"tnp.random.seed: s must be an integer, got {s!r}") from None
    random_ops.set_seed(s)


def _size(size):
    if size is None:
        return []
    return [int(size)] if np.ndim(size) == 0 else [int(n) for n in size]


def _float():
    return dtypes.float64        # NumPy's `float`, which prefer_float32 leaves as it is


def standard_normal(size=None):
    """`tnp.random.standard_normal(size=None)`: N(0, 1) draws of shape `size`."""
    return random_ops.normal(_size(size), dtype=_float())


def randn(*args):
    """`tnp.random.randn(*shape)`: N(0, 1) draws."""
    return standard_normal(size=args)


def uniform(low=0.0, high=1.0, size=None):
    """`tnp.random.uniform(low=0.0, high=1.0, size=None)`: draws in [low, high),
    of the broadcast shape of low and high when size is None."""
    dtype = _float()
    low, high = asarray(low, dtype), asarray(high, dtype)
    if size is None:
        shape = shape_ops.broadcast_static_shape(low.shape, high.shape).as_list()
    else:
        shape = _size(size)
    unit = random_ops.uniform(shape, dtype=dtype)
    return low + unit * (high - low)


def random(size=None):
    """`tnp.random.random(size=None)`: uniform draws in [0, 1)."""
    return uniform(0.0, 1.0, size)


def rand(*size):
    """`tnp.random.rand(*shape)`: uniform draws in [0, 1)."""
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype=np.int64):
    """`tnp.random.randint(low, high=None, size=None, dtype=int64)`: integers
    in [low, high) ([0, low) without high); dtype int32 or int64."""
    low = int(low)
    if high is None:
        low, high = 0, low
    out_dtype = result_type(dtype)
    if out_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"tnp.random.randint: dtype must be int32 or int64, got {dtype!r}")
    return random_ops.uniform(_size(size), minval=low, maxval=int(high), dtype=out_dtype)


def poisson(lam=1.0, size=None):
    """`tnp.random.poisson(lam=1.0, size=None)`: int64 Poisson draws of rate lam."""
    return random_dist_ops.poisson(_size(size), lam, dtype=dtypes.int64)
