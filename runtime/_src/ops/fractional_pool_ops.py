"""`tf.nn.fractional_max_pool` and `tf.nn.fractional_avg_pool`: pooling over
regions of random sizes K and K + 1 (K = floor(input / output), output =
floor(input / pooling_ratio)) along rows and columns, as Graham's fractional
max-pooling; returns the pooled values and the row and column pooling
sequences (region boundaries, from 0 to the input size). `pseudo_random`
draws the boundaries as ceil(alpha * (i + u)) - 1 for one uniform u (alpha =
input / output) instead of shuffling the sizes; `overlapping` widens each
region by the next boundary row/column. A ratio dividing the input evenly
gives fixed regions (TF's values); otherwise the sequence is numpy's draw,
seeded as the other random ops here (docs/tf_differences.md, Random numbers).

    >>> import runtime as tf
    >>> x = tf.reshape(tf.range(24.0), [1, 4, 6, 1])
    >>> out, rows, cols = tf.nn.fractional_max_pool(x, [1.0, 2.0, 3.0, 1.0])
    >>> out[0, :, :, 0].numpy().tolist(), rows.numpy().tolist()
    ([[8.0, 11.0], [20.0, 23.0]], [0, 2, 4])
"""

import math

import numpy as np

from runtime._src.core import determinism, dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops.base_ops import NUMERIC
from runtime._src.ops.random_ops import _generator, _seed_attrs

__all__ = ["fractional_max_pool", "fractional_avg_pool"]


def _output_sizes(shape, ratio):
    return [int(math.floor(n / r)) for n, r in zip(shape, ratio)]


def _infer(inputs, attrs):
    x, ratio = inputs[0], attrs["pooling_ratio"]
    dims = x.shape.dims if x.shape.rank is not None else [None] * 4
    out = [None if n is None else int(math.floor(n / r)) for n, r in zip(dims, ratio)]
    return [(x.dtype, TensorShape(out)), (dtypes.int64, TensorShape([None if out[1] is None
                                                                      else out[1] + 1])),
            (dtypes.int64, TensorShape([None if out[2] is None else out[2] + 1]))]


def _sequence(rng, size, out, pseudo_random):
    """The cumulative pooling sequence [0, ..., size] of `out` regions."""
    k = size // out
    if size % out == 0:
        diff = np.full(out, k)
    elif pseudo_random:
        alpha = size / out
        u_max = min((k + 2) / alpha - 1, (size + 1 - k) / alpha - (out - 1))
        u = rng.random() * u_max
        inner = [math.ceil(alpha * (i + u)) - 1 for i in range(1, out)]
        return np.asarray([0] + inner + [size], np.int64)
    else:
        diff = np.full(out, k)
        diff[:size % out] += 1
        rng.shuffle(diff)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _regions(rows, cols, overlapping, height, width):
    """(r0, r1, c0, c1) slices of every output cell, row-major."""
    extra = 1 if overlapping else 0
    for i in range(len(rows) - 1):
        r0, r1 = rows[i], min(rows[i + 1] + extra, height)
        for j in range(len(cols) - 1):
            yield i, j, r0, r1, cols[j], min(cols[j + 1] + extra, width)


def _pool(x, ratio, pseudo_random, overlapping, seeds, stream, op, reduce):
    if x.ndim != 4:
        raise InvalidArgumentError(f"{op}: input must be 4-dimensional, got shape "
                                   f"{list(x.shape)}", op)
    out = _output_sizes(x.shape, ratio)
    if min(out) <= 0:
        raise InvalidArgumentError(f"{op}: pooling_ratio {list(ratio)} leaves an empty output "
                                   f"for input shape {list(x.shape)}", op)
    rng = _generator(op, dtypes.as_dtype(x.dtype), seeds, stream)
    rows = _sequence(rng, x.shape[1], out[1], pseudo_random)
    cols = _sequence(rng, x.shape[2], out[2], pseudo_random)
    y = np.empty([x.shape[0], out[1], out[2], x.shape[3]], x.dtype)
    for i, j, r0, r1, c0, c1 in _regions(rows, cols, overlapping, x.shape[1], x.shape[2]):
        y[:, i, j, :] = reduce(x[:, r0:r1, c0:c1, :])
    return y, rows, cols


def _region_max(region):
    return region.max(axis=(1, 2))


def _region_mean(region):
    return region.mean(axis=(1, 2), dtype=np.float64).astype(region.dtype)


@define_op("FractionalMaxPool", infer=_infer, num_outputs=3, stateful=True)
def _fractional_max_pool(x, *, pooling_ratio, pseudo_random, overlapping, seeds, stream):
    return _pool(x, pooling_ratio, pseudo_random, overlapping, seeds, stream,
                 "FractionalMaxPool", _region_max)


@define_op("FractionalAvgPool", infer=_infer, num_outputs=3, stateful=True)
def _fractional_avg_pool(x, *, pooling_ratio, pseudo_random, overlapping, seeds, stream):
    return _pool(x, pooling_ratio, pseudo_random, overlapping, seeds, stream,
                 "FractionalAvgPool", _region_mean)


@define_op("FractionalMaxPoolGrad", infer=lambda inputs, attrs: [(inputs[0].dtype,
                                                                  inputs[0].shape)])
def _fractional_max_pool_grad(x, dy, rows, cols, *, overlapping):
    """dy to each region's first maximum (row-major), as TF."""
    dx = np.zeros_like(x)
    batch, channel = np.arange(x.shape[0])[:, None], np.arange(x.shape[3])[None, :]
    for i, j, r0, r1, c0, c1 in _regions(rows, cols, overlapping, x.shape[1], x.shape[2]):
        region = x[:, r0:r1, c0:c1, :].reshape(x.shape[0], -1, x.shape[3])
        first = np.argmax(region, axis=1)
        r, c = np.divmod(first, c1 - c0)
        np.add.at(dx, (batch, r0 + r, c0 + c, channel), dy[:, i, j, :])
    return dx


@define_op("FractionalAvgPoolGrad", infer=lambda inputs, attrs: [(inputs[0].dtype,
                                                                  inputs[0].shape)])
def _fractional_avg_pool_grad(x, dy, rows, cols, *, overlapping):
    """dy shared evenly by the cells of each region."""
    dx = np.zeros_like(x)
    for i, j, r0, r1, c0, c1 in _regions(rows, cols, overlapping, x.shape[1], x.shape[2]):
        share = dy[:, i, j, :] / x.dtype.type((r1 - r0) * (c1 - c0))
        dx[:, r0:r1, c0:c1, :] += share[:, None, None, :]
    return dx


def _pool_grad(name):
    def rule(op, grad, rows_grad=None, cols_grad=None):
        x, (_, rows, cols) = op.inputs[0], op.outputs
        return [apply(name, (x, grad, rows, cols), {"overlapping": op.attrs["overlapping"]})]
    return rule


define_grad("FractionalMaxPool", takes_none=True)(_pool_grad("FractionalMaxPoolGrad"))
define_grad("FractionalAvgPool", takes_none=True)(_pool_grad("FractionalAvgPoolGrad"))


def _ratio(pooling_ratio, rank=4):
    ratio = [float(pooling_ratio)] * 1 if np.ndim(pooling_ratio) == 0 else \
        [float(r) for r in pooling_ratio]
    if len(ratio) == 1:
        ratio = [1.0, ratio[0], ratio[0], 1.0]
    elif len(ratio) == rank - 2:
        ratio = [1.0] + ratio + [1.0]
    if len(ratio) != rank:
        raise ValueError(f"`pooling_ratio` should have length 1, {rank - 2} or {rank}. "
                         f"Received: pooling_ratio={pooling_ratio}")
    if ratio[0] != 1.0 or ratio[-1] != 1.0:
        raise ValueError("`pooling_ratio` should have first and last elements with value 1.0. "
                         f"Received: pooling_ratio={ratio}")
    if any(r < 1.0 for r in ratio):
        raise ValueError(f"`pooling_ratio` elements should be >= 1.0. Received: "
                         f"pooling_ratio={ratio}")
    return ratio


def _fractional(op, value, pooling_ratio, pseudo_random, overlapping, seed):
    x = convert_to_tensor(value)
    if x.dtype not in NUMERIC:
        raise TypeError(f"{op}: value must be a float or int tensor, got {x.dtype.name}")
    if not seed and op == "FractionalMaxPool" and determinism.enabled():
        raise ValueError(f"tf.nn.fractional_max_pool requires a non-zero seed to be passed in "
                         f"when determinism is enabled, but got seed={seed}. Please pass in a "
                         f'non-zero seed, e.g. by passing "seed=1".')
    seeds = _seed_attrs(seed or None, op, required=False)   # (TF checks the max pool's only)
    if seed:
        seeds["stream"] = None        # a seed draws the same regions every call, as TF
    attrs = {"pooling_ratio": tuple(_ratio(pooling_ratio)), "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), **seeds}
    return tuple(apply(op, (x,), attrs))


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """`tf.nn.fractional_max_pool`: (output, row_pooling_sequence,
    col_pooling_sequence); `seed` 0 draws fresh regions each call."""
    return _fractional("FractionalMaxPool", value, pooling_ratio, pseudo_random, overlapping,
                       seed)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """`tf.nn.fractional_avg_pool`: as fractional_max_pool, with region means."""
    return _fractional("FractionalAvgPool", value, pooling_ratio, pseudo_random, overlapping,
                       seed)
