"""Special functions and safe arithmetic: `math.lgamma`, `math.digamma`,
`math.xlogy`, `math.xlog1py`, `math.divide_no_nan`, `math.multiply_no_nan`,
`math.cumulative_logsumexp`, `math.polyval`.

`lgamma` and `digamma` are ops with numpy kernels (no scipy): `lgamma` is
Python's `math.lgamma` per element (log |Gamma(x)|, inf at the poles, as
TensorFlow); `digamma` and its derivatives `polygamma(n, .)` (an internal op
for the gradients, any order) shift the argument above 12 by their
recurrences and sum the asymptotic series (digamma reflects negative
arguments):

    lgamma(constant([0.5, 3.0]))       # [0.5723649, 0.6931472]
    digamma(constant([1.0]))           # [-0.5772157]

`multiply_no_nan` is an op (`MulNoNan`: x * y, 0 where y == 0 even for x NaN
or inf) whose gradient is TF's: x * grad for y (not masked, as TF's). The
others are compositions of existing ops, so their gradients come from
theirs: `divide_no_nan(x, 0) == 0`, `xlogy(0, y) == 0` and `xlog1py(0, y) == 0`
(even for y NaN).
"""

import math

import numpy as np

from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.gradient_ops import stop_gradient
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops.base_ops import FLOATS, NUMERIC, dtype_error, unary as _unary
from runtime._src.ops.math_ops import (add, convert_pair, equal, exp, log, log1p, multiply,
                                       subtract, truediv, where)
from runtime._src.ops.reduction_ops import cumsum, reduce_max, reduce_sum
from runtime._src.ops.array_ops import zeros_like

__all__ = ["lgamma", "digamma", "lbeta", "xlogy", "xlog1py", "divide_no_nan",
           "multiply_no_nan", "cumulative_logsumexp", "polyval"]


def _lgamma_scalar(v):
    if math.isnan(v):
        return v
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):   # the poles 0, -1, -2, ...
        return math.inf


_lgamma_vec = np.frompyfunc(_lgamma_scalar, 1, 1)


@define_op("Lgamma", infer=rules.same_as_first)
def _lgamma(x):
    return np.asarray(_lgamma_vec(np.asarray(x, np.float64)), np.float64).astype(x.dtype)


_SHIFT_TO = 12.0     # the asymptotic series are summed at x >= 12 (error < 1e-14)


def _shifted(x, step, series):
    """Sum of `step(x + k)` for k while x + k < 12, plus `series(x shifted >= 12)`."""
    acc = np.zeros_like(x)
    for _ in range(int(_SHIFT_TO)):
        low = x < _SHIFT_TO
        acc = np.where(low, acc + step(np.where(low, x, 1.0)), acc)
        x = np.where(low, x + 1, x)
    return acc + series(x)


def _digamma64(x):
    def series(z):
        r = 1.0 / (z * z)
        return (np.log(z) - 0.5 / z - r * (1 / 12 - r * (1 / 120 - r * (1 / 252 - r * (
            1 / 240 - r * (1 / 132))))))
    with np.errstate(all="ignore"):
        pos = np.where(x > 0, x, 1.0)
        right = _shifted(pos, lambda z: -1.0 / z, series)
        refl = np.where(x > 0, 1.0, 1.0 - x)
        left = _shifted(refl, lambda z: -1.0 / z, series) - np.pi / np.tan(np.pi * x)
        out = np.where(x > 0, right, left)
        pole = (x <= 0) & (x == np.floor(x))
        return np.where(pole, np.nan, np.where(np.isposinf(x), np.inf, out))


# B_2k / (2k)! for k = 1..7, the asymptotic series' coefficients
_BERNOULLI = [(1 / 6, 2), (-1 / 30, 24), (1 / 42, 720), (-1 / 30, 40320), (5 / 66, 3628800),
              (-691 / 2730, 479001600), (7 / 6, 87178291200)]
_MAX_SHIFT = 4096    # below -4096 + 12 the sum is not taken: NaN


def _polygamma64(n, x):
    """polygamma(n, x) for n >= 1: (-1)^(n+1) n! sum_k 1 / (x + k)^(n+1), the terms
    below 12 summed and the rest by its asymptotic series. At the poles (0, -1,
    ...) and at -inf: inf for odd n, NaN for even n, as TF."""
    sign, fact = (-1.0) ** (n + 1), math.factorial(n)
    with np.errstate(all="ignore"):
        pole = ((x <= 0) & (x == np.floor(x))) | np.isneginf(x)
        z = np.where(pole | np.isnan(x) | (x < -_MAX_SHIFT), 1.0, x)
        acc = np.zeros_like(z)
        for _ in range(int(_SHIFT_TO - min(z.min(initial=_SHIFT_TO), _SHIFT_TO)) + 1):
            low = z < _SHIFT_TO
            if not low.any():
                break
            acc = acc + np.where(low, 1.0 / np.where(low, z, 1.0) ** (n + 1), 0.0)
            z = np.where(low, z + 1, z)
        tail = math.factorial(n - 1) / z ** n + fact / (2 * z ** (n + 1))
        for k, (b, even_fact) in enumerate(_BERNOULLI, 1):
            tail = tail + b * math.factorial(2 * k + n - 1) / even_fact / z ** (2 * k + n)
        out = sign * (fact * acc + tail)
        out = np.where(x < -_MAX_SHIFT, np.nan, out)
        out = np.where(np.isposinf(x), sign * 0.0, out)
        return np.where(pole, np.inf if n % 2 else np.nan, np.where(np.isnan(x), np.nan, out))


@define_op("Digamma", infer=rules.same_as_first)
def _digamma(x):
    return np.asarray(_digamma64(np.asarray(x, np.float64))).astype(x.dtype)


@define_op("Polygamma", infer=rules.same_as_first)
def _polygamma(x, n):
    return np.asarray(_polygamma64(n, np.asarray(x, np.float64))).astype(x.dtype)


@define_grad("Lgamma")
def _lgamma_grad(op, grad):
    return [grad * digamma(op.inputs[0])]


@define_grad("Digamma")
def _digamma_grad(op, grad):
    return [grad * _polygamma_of(1, op.inputs[0])]


@define_grad("Polygamma")
def _polygamma_grad(op, grad):
    return [grad * _polygamma_of(op.attrs["n"] + 1, op.inputs[0])]


def _polygamma_of(n, x):
    """polygamma(n, x) for a static order n >= 1 (the gradients of digamma)."""
    return apply("Polygamma", (x,), {"n": int(n)})


def lgamma(x, name=None):
    """`tf.math.lgamma`: log |Gamma(x)| elementwise (inf at 0, -1, -2, ...)."""
    return _unary("Lgamma", x, FLOATS)


def lbeta(x, name=None):
    """`tf.math.lbeta`: log |Beta(x)| over the last axis, as TF computes it:
    sum(lgamma(x)) - lgamma(sum(x)) (an empty last axis gives -inf, as TF)."""
    x = convert_to_tensor(x)
    return subtract(reduce_sum(lgamma(x), axis=-1), lgamma(reduce_sum(x, axis=-1)))


def digamma(x, name=None):
    """`tf.math.digamma`: the derivative of lgamma (NaN at 0, -1, -2, ...)."""
    return _unary("Digamma", x, FLOATS)


def divide_no_nan(x, y, name=None):
    """`tf.math.divide_no_nan`: x / y, and 0 wherever y == 0 (also for x NaN).
    Integer inputs divide as `truediv` does (int32 -> float64)."""
    x, y = convert_pair(x, y, "DivNoNan")
    zero = equal(y, 0)
    out = truediv(x, where(zero, convert_to_tensor(1, y.dtype), y))
    return where(zero, convert_to_tensor(0, out.dtype), out)


def xlogy(x, y, name=None):
    """`tf.math.xlogy`: x * log(y), and 0 wherever x == 0 (even for y 0 or NaN)."""
    x, y = convert_pair(x, y, "Xlogy")
    if x.dtype not in FLOATS:
        raise TypeError(f"xlogy: expected a floating-point tensor, got {x.dtype.name}")
    zero = equal(x, 0)
    out = multiply(x, log(where(zero, convert_to_tensor(1, y.dtype), y)))
    return where(zero, convert_to_tensor(0, out.dtype), out)


def xlog1py(x, y, name=None):
    """`tf.math.xlog1py`: x * log1p(y), and 0 wherever x == 0 (even for y -1 or NaN)."""
    x, y = convert_pair(x, y, "Xlog1py")
    if x.dtype not in FLOATS:
        raise dtype_error("Xlog1py", x.dtype, FLOATS)
    zero = equal(x, 0)
    out = multiply(x, log1p(where(zero, convert_to_tensor(0, y.dtype), y)))
    return where(zero, convert_to_tensor(0, out.dtype), out)


@define_op("MulNoNan", infer=rules.elementwise)
def _mul_no_nan(x, y):
    with np.errstate(invalid="ignore", over="ignore"):
        product = np.multiply(x, y)
    return np.where(y == 0, np.zeros((), product.dtype), product)


@define_grad("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    return [unbroadcast(multiply_no_nan(grad, y), x), unbroadcast(multiply_no_nan(x, grad), y)]


def multiply_no_nan(x, y, name=None):
    """`tf.math.multiply_no_nan`: x * y, and 0 wherever y == 0 (even for x NaN
    or inf); floating-point inputs only, as TF."""
    x, y = convert_pair(x, y, "MulNoNan")
    if x.dtype not in FLOATS:
        raise dtype_error("MulNoNan", x.dtype, FLOATS)
    return apply("MulNoNan", (x, y))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """`tf.math.cumulative_logsumexp`: log(cumsum(exp(x))) computed stably
    (shifted by the maximum along `axis`)."""
    x = convert_to_tensor(x)
    if x.dtype not in FLOATS:
        raise TypeError(f"cumulative_logsumexp: expected a floating-point tensor, got "
                        f"{x.dtype.name}")
    top = stop_gradient(reduce_max(x, axis=axis, keepdims=True))
    top = where(equal(top, top) & (top > -np.inf) & (top < np.inf), top,
                convert_to_tensor(0, x.dtype))
    s = cumsum(exp(x - top), axis=axis, exclusive=exclusive, reverse=reverse)
    return add(log(s), top)


def polyval(coeffs, x, name=None):
    """`tf.math.polyval`: coeffs[0] * x**(n-1) + ... + coeffs[n-1] (Horner's rule);
    zeros like x for no coefficients."""
    if isinstance(coeffs, Tensor) or not isinstance(coeffs, (list, tuple)):
        raise ValueError("polyval: coeffs must be a Python list of tensors or numbers, got "
                         f"{type(coeffs).__name__}")
    x = convert_to_tensor(x)
    if x.dtype not in NUMERIC:
        raise TypeError(f"polyval: expected a numeric x, got {x.dtype.name}")
    if not coeffs:
        return zeros_like(x)                     # not connected to x, as TF's
    out = convert_to_tensor(coeffs[0], x.dtype) + x * 0
    for c in coeffs[1:]:
        out = add(multiply(out, x), convert_to_tensor(c, x.dtype))
    return out
