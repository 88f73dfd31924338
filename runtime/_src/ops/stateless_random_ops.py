"""Stateless random ops: `random.stateless_uniform`, `stateless_normal`,
`stateless_truncated_normal`, `stateless_categorical`, `stateless_gamma`,
`stateless_binomial` (also used by `keras.random`); `stateless_poisson` and
the parameterized truncated normal are in stateless_dist_ops.py.

Their values are a function of the inputs alone: the same `seed` (an int32
or int64 vector of shape [2]) gives the same values, eagerly, in any graph,
whatever the global seed or other random ops did.

    stateless_uniform([2], seed=[1, 2])   # the same two values every time

`stateless_uniform` (floats, bounded and full-range integers),
`stateless_normal`, `stateless_truncated_normal`, `split` and `fold_in` give
TensorFlow's Philox numbers (the seed turned into a key and counter as TF's
kernels do, philox_ops.py); categorical, gamma and binomial draws are numpy's
(a PCG64 stream per seed and op). Distributions, dtypes, shapes and errors
follow TensorFlow.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import array_ops
from runtime._src.ops.philox_ops import draw_values, stateless_key_counter
from runtime._src.ops.random_ops import (FLOATS_AND_INTS, _check_dtype, _scalar_arg,
                                         _shape_tensor, _static_shape, categorical_args,
                                         draw_categorical, draw_normal, draw_truncated_normal,
                                         draw_uniform, infer_categorical, normal_inputs,
                                         seeded_rng)

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal",
           "stateless_categorical", "stateless_gamma", "stateless_binomial", "split", "fold_in"]


def _check_seed(seed):
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"seed must be an int32 or int64 tensor, got {seed.dtype.name}")
    if seed.shape.dims is not None and (len(seed.shape.dims) != 1 or
                                        seed.shape.dims[0] not in (None, 2)):
        raise ValueError(f"seed must have shape [2], not {seed.shape.as_list()}")


def _infer_stateless(inputs, attrs):
    _check_seed(inputs[1])
    return [(attrs["dtype"], _static_shape(inputs[0]))]


def _rng(seed, op_name):
    if not np.issubdtype(np.asarray(seed).dtype, np.integer):
        raise TypeError(f"seed must be an int32 or int64 tensor, got {np.asarray(seed).dtype}")
    if np.shape(seed) != (2,):
        raise ValueError(f"seed must have shape [2], not {list(np.shape(seed))}")
    return seeded_rng(seed, op_name)


def _philox(seed, op_name, dims, dist, dtype, bounds=()):
    """TF's Philox values for a stateless op (philox_ops.py)."""
    _rng(seed, op_name)                                   # the seed's checks
    counter, key = stateless_key_counter(seed)
    return draw_values(counter, key, [int(d) for d in np.asarray(dims).ravel()], dist, dtype,
                       bounds)


@define_op("StatelessRandomUniform", infer=_infer_stateless)
def _stateless_uniform(shape, seed, minval, maxval, *, dtype):
    if dtype.is_integer:
        if np.any(minval >= maxval):
            raise ValueError(f"Need minval < maxval, got {minval} >= {maxval}")
        return _philox(seed, "StatelessRandomUniform", shape, "bounded_int", dtype,
                       (minval, maxval))
    unit = _philox(seed, "StatelessRandomUniform", shape, "uniform", dtype)
    span = np.asarray(maxval, dtype.np_dtype) - np.asarray(minval, dtype.np_dtype)
    return (unit * span + np.asarray(minval, dtype.np_dtype)).astype(dtype.np_dtype)


@define_op("StatelessRandomUniformFullInt", infer=_infer_stateless)
def _stateless_uniform_full_int(shape, seed, *, dtype):
    return _philox(seed, "StatelessRandomUniformFullInt", shape, "full_int", dtype)


def _scaled(unit, mean, stddev, dtype):
    return (unit * np.asarray(stddev, dtype.np_dtype) +
            np.asarray(mean, dtype.np_dtype)).astype(dtype.np_dtype)


@define_op("StatelessRandomNormal", infer=_infer_stateless)
def _stateless_normal(shape, seed, mean, stddev, *, dtype):
    return _scaled(_philox(seed, "StatelessRandomNormal", shape, "normal", dtype), mean, stddev,
                   dtype)


@define_op("StatelessTruncatedNormal", infer=_infer_stateless)
def _stateless_truncated_normal(shape, seed, mean, stddev, *, dtype):
    return _scaled(_philox(seed, "StatelessTruncatedNormal", shape, "truncated_normal", dtype),
                   mean, stddev, dtype)


def _infer_stateless_categorical(inputs, attrs):
    _check_seed(inputs[2])
    return infer_categorical(inputs, attrs)


@define_op("StatelessMultinomial", infer=_infer_stateless_categorical)
def _stateless_multinomial(logits, num_samples, seed, *, dtype):
    return draw_categorical(_rng(seed, "StatelessMultinomial"), logits, num_samples, dtype)


def _check_suffix(shape, params, op_name):
    """TF's rule: the parameters, broadcast together, must be the last dims of `shape`."""
    shape = tuple(int(d) for d in shape)
    full = np.broadcast_shapes(*(np.shape(p) for p in params))
    if len(full) > len(shape) or (full and shape[-len(full):] != full):
        raise InvalidArgumentError(f"Shape passed in must end with broadcasted shape. "
                                   f"[Op:{op_name}]")
    return shape


@define_op("StatelessRandomGammaV3", infer=_infer_stateless)
def _stateless_gamma(shape, seed, alpha, *, dtype):
    shape = _check_suffix(shape, [alpha], "StatelessRandomGammaV3")
    rng = _rng(seed, "StatelessRandomGammaV3")
    return np.asarray(rng.gamma(np.broadcast_to(np.asarray(alpha, np.float64), shape)),
                      dtype.np_dtype)           # a scalar shape draws a Python float


@define_op("StatelessRandomBinomial", infer=_infer_stateless)
def _stateless_binomial(shape, seed, counts, probs, *, dtype):
    shape = _check_suffix(shape, [counts, probs], "StatelessRandomBinomial")
    rng = _rng(seed, "StatelessRandomBinomial")
    n = np.broadcast_to(np.asarray(counts, np.float64), shape).astype(np.int64)
    p = np.clip(np.broadcast_to(np.asarray(probs, np.float64), shape), 0.0, 1.0)
    return np.asarray(rng.binomial(n, p), dtype.np_dtype)


not_differentiable("StatelessRandomUniform", "StatelessRandomUniformFullInt",
                   "StatelessRandomNormal", "StatelessTruncatedNormal", "StatelessMultinomial",
                   "StatelessRandomGammaV3", "StatelessRandomBinomial")


def _seed_tensor(seed):
    if reads_as_tensor(seed):
        seed = seed._as_tensor()
    return seed if isinstance(seed, Tensor) else convert_to_tensor(seed)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select"):
    """`tf.random.stateless_uniform`: like `uniform`, determined by `seed`.
    For integers, minval and maxval must both be given, or both be None (the
    whole range of the dtype)."""
    dtype = _check_dtype(dtype, FLOATS_AND_INTS, "random.stateless_uniform")
    shape = _shape_tensor(shape, "random.stateless_uniform")
    seed = _seed_tensor(seed)
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"random.stateless_uniform: For integer `dtype` argument {dtype!r}, "
                             "argument `minval` and `maxval` must be both None or not None. "
                             f"Got `minval`={minval} and `maxval`={maxval}.")
        if minval is None:
            return apply("StatelessRandomUniformFullInt", [shape, seed], {"dtype": dtype})
    elif maxval is None:
        maxval = 1
    minval = _scalar_arg(minval, dtype, "random.stateless_uniform", "minval")
    maxval = _scalar_arg(maxval, dtype, "random.stateless_uniform", "maxval")
    return apply("StatelessRandomUniform", [shape, seed, minval, maxval], {"dtype": dtype})


def _normal_like(op, op_name, shape, seed, mean, stddev, dtype):
    dtype, (shape, mean, stddev) = normal_inputs(shape, mean, stddev, dtype, op_name)
    return apply(op, [shape, _seed_tensor(seed), mean, stddev], {"dtype": dtype})


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg="auto_select"):
    """`tf.random.stateless_normal`: like `normal`, determined by `seed`."""
    return _normal_like("StatelessRandomNormal", "random.stateless_normal", shape, seed, mean,
                        stddev, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    """`tf.random.stateless_truncated_normal`: like `truncated_normal`,
    determined by `seed`."""
    return _normal_like("StatelessTruncatedNormal", "random.stateless_truncated_normal", shape,
                        seed, mean, stddev, dtype)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """`tf.random.stateless_categorical`: like `categorical`, determined by `seed`."""
    logits, num_samples, dtype = categorical_args(logits, num_samples, dtype,
                                                  "random.stateless_categorical")
    return apply("StatelessMultinomial", [logits, num_samples, _seed_tensor(seed)],
                 {"dtype": dtype})


_GAMMA = (dtypes.float16, dtypes.float32, dtypes.float64)
_BINOMIAL = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, rate beta) draws of shape
    `shape`, whose last dims must be alpha and beta broadcast together.
    No gradient reaches alpha (TF's implicit reparameterization is not
    implemented); beta's does, through the division."""
    dtype = _check_dtype(dtype, _GAMMA, "random.stateless_gamma")
    alpha = convert_to_tensor(alpha, dtype)
    shape = _shape_tensor(shape, "random.stateless_gamma")
    if beta is not None:
        beta = convert_to_tensor(beta, dtype)
        alpha = alpha + array_ops.zeros_like(beta)
    draw = apply("StatelessRandomGammaV3", [shape, _seed_tensor(seed), alpha], {"dtype": dtype})
    return draw if beta is None else draw / beta


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """The successes of `counts` trials of
    probability `probs`, shape `shape` (ending with counts and probs
    broadcast together), in `output_dtype`."""
    dtype = _check_dtype(output_dtype, _BINOMIAL, "random.stateless_binomial")
    counts = convert_to_tensor(counts, dtypes.float32 if not hasattr(counts, "dtype") else None)
    probs = convert_to_tensor(probs, dtypes.float32 if not hasattr(probs, "dtype") else None)
    return apply("StatelessRandomBinomial", [_shape_tensor(shape, "random.stateless_binomial"),
                                             _seed_tensor(seed), counts, probs],
                 {"dtype": dtype})


def split(seed, num=2, alg="auto_select"):
    """`tf.random.split`: `num` new seeds ([num, 2], seed's dtype) made from `seed`."""
    seed = _seed_tensor(seed)
    return apply("StatelessRandomUniformFullInt", [_shape_tensor([num, 2], "random.split"), seed],
                 {"dtype": seed.dtype})


def fold_in(seed, data, alg="auto_select"):
    """`tf.random.fold_in`: a new seed made from `seed` and the integer `data`."""
    data = _seed_tensor(data)
    if not data.dtype.is_integer:
        raise TypeError(f"random.fold_in: data must be an integer, got {data.dtype.name}")
    first = apply("StatelessRandomUniformFullInt",
                  [_shape_tensor([], "random.fold_in"), _seed_tensor(seed)], {"dtype": data.dtype})
    return array_ops.stack([first, data])
