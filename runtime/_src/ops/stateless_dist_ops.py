"""`tf.random.stateless_poisson` and `stateless_parameterized_truncated_normal`
(the stateless gamma and binomial draws are in stateless_random_ops.py).

Their numbers are numpy's (a PCG64 stream per seed and op), not TF's Philox
ones; shapes, dtypes and the broadcasting rule of the parameters are TF's.
The truncated normal is drawn by inverting the normal CDF between the bounds
(on the side of the mean nearer the interval, so far tails keep their
precision):

    stateless_parameterized_truncated_normal([3], seed=[1, 2], minvals=0.0, maxvals=1.0)
"""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.random_ops import _check_dtype, _shape_tensor
from runtime._src.ops.special_kernels import ndtri
from runtime._src.ops.stateless_random_ops import (_check_suffix, _infer_stateless, _rng,
                                                   _seed_tensor)

__all__ = ["stateless_poisson", "stateless_parameterized_truncated_normal"]

_POISSON = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_erfc = np.frompyfunc(math.erfc, 1, 1)


@define_op("StatelessRandomPoisson", infer=_infer_stateless)
def _stateless_poisson(shape, seed, lam, *, dtype):
    shape = _check_suffix(shape, [lam], "StatelessRandomPoisson")
    rng = _rng(seed, "StatelessRandomPoisson")
    return rng.poisson(np.broadcast_to(np.asarray(lam, np.float64), shape)).astype(
        dtype.np_dtype)


def _upper_tail(z):
    """1 - Phi(z), accurate in the upper tail."""
    return np.asarray(_erfc(np.asarray(z, np.float64) / math.sqrt(2.0)), np.float64) / 2.0


@define_op("StatelessParameterizedTruncatedNormal", infer=_infer_stateless)
def _stateless_ptn(shape, seed, means, stddevs, minvals, maxvals, *, dtype):
    shape = tuple(int(d) for d in np.asarray(shape).ravel())
    params = [np.broadcast_to(np.asarray(v, np.float64), shape)
              for v in (means, stddevs, minvals, maxvals)]
    mean, std, low, high = params
    a, b = (low - mean) / std, (high - mean) / std
    flip = a > 0                        # draw from the tail below the mean, then reflect
    lo, hi = np.where(flip, -b, a), np.where(flip, -a, b)
    upper_lo, upper_hi = _upper_tail(lo), _upper_tail(hi)
    u = _rng(seed, "StatelessParameterizedTruncatedNormal").random(shape)
    tail = upper_lo - u * (upper_lo - upper_hi)           # 1 - Phi(z), between the bounds
    with np.errstate(all="ignore"):
        z = -ndtri(tail)
    z = np.clip(np.where(flip, -z, z), a, b)
    return (mean + std * z).astype(dtype.np_dtype)


not_differentiable("StatelessRandomPoisson", "StatelessParameterizedTruncatedNormal")


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """`tf.random.stateless_poisson`: Poisson(lam) draws of `shape` (ending
    with lam's shape), determined by `seed`."""
    dtype = _check_dtype(dtype, _POISSON, "random.stateless_poisson")
    lam = convert_to_tensor(lam, dtypes.float32 if not hasattr(lam, "dtype") else None)
    return apply("StatelessRandomPoisson",
                 [_shape_tensor(shape, "random.stateless_poisson"), _seed_tensor(seed), lam],
                 {"dtype": dtype})


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None):
    """`tf.random.stateless_parameterized_truncated_normal`: normal draws of
    mean `means` and deviation `stddevs` kept within [minvals, maxvals] (each
    broadcast to `shape`), determined by `seed`; float32 unless the
    parameters are float64 or float16."""
    first = convert_to_tensor(means)
    dtype = first.dtype if first.dtype in (dtypes.float16, dtypes.float64) else dtypes.float32
    values = [convert_to_tensor(v, dtype) for v in (means, stddevs, minvals, maxvals)]
    return apply("StatelessParameterizedTruncatedNormal",
                 [_shape_tensor(shape, "random.stateless_parameterized_truncated_normal"),
                  _seed_tensor(seed), *values], {"dtype": dtype})
