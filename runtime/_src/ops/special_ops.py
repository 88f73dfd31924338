"""Special-function ops: the Bessel functions (`tf.math.bessel_i0`, ...,
`tf.math.special.bessel_j0`, ...), `igamma`, `igammac`, `betainc`, `zeta`,
`polygamma`, `erfinv`, `erfcinv`, `ndtri`, and `tf.math.special`'s `dawsn`,
`expint`, `fresnel_cos`, `fresnel_sin`, `spence`.

Each op is a float64 numpy kernel (bessel_kernels.py, special_kernels.py)
run on the input cast up and its result cast back, so float32 results are
TensorFlow's to float32 rounding:

    bessel_i0e(constant([1.0]))            # [0.46575961]
    igamma(constant([2.0]), constant([1.0]))   # [0.26424112]

Gradients are TensorFlow's, with respect to the same arguments: the Bessel
functions by their recurrences (I0' = I1, J0' = -J1, K0' = -K1, ...; the
order-1 functions take their limit 1/2 at x == 0), igamma and igammac in
both a and x (d/da by a Richardson-extrapolated central difference of the
float64 series or continued fraction, whichever is accurate there), betainc
in x only, zeta in q only, polygamma in x only (TF has none for the others:
they get None).
"""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import bessel_kernels as bessel
from runtime._src.ops import shape_rules as rules
from runtime._src.ops import special_kernels as special
from runtime._src.ops.base_ops import FLOATS, convert_pair, dtype_error
from runtime._src.ops.base_ops import unary as _unary
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops.math_ops import (add, cos, equal, exp, log, multiply, negative, reciprocal,
                                       sign, sin, square, subtract, truediv, where)
from runtime._src.ops.special_math_ops import (_digamma64, _polygamma64, lbeta, lgamma,
                                               xlog1py, xlogy)
from runtime._src.ops.array_ops import stack

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e",
           "igamma", "igammac", "betainc", "zeta", "polygamma", "erfinv", "erfcinv", "ndtri",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]

REAL = frozenset((dtypes.float32, dtypes.float64))     # TF's kernels for most of these


def _in_float64(fn):
    """A kernel running `fn` in float64 and returning the input's dtype."""
    def kernel(*values):
        dtype = values[0].dtype
        with np.errstate(all="ignore"):
            return np.asarray(fn(*(np.asarray(v, np.float64) for v in values))).astype(dtype)
    kernel.__name__ = fn.__name__
    return kernel


_UNARY = {
    "BesselI0": bessel.i0, "BesselI0e": bessel.i0e, "BesselI1": bessel.i1,
    "BesselI1e": bessel.i1e, "BesselJ0": bessel.j0, "BesselJ1": bessel.j1,
    "BesselY0": bessel.y0, "BesselY1": bessel.y1, "BesselK0": bessel.k0,
    "BesselK0e": bessel.k0e, "BesselK1": bessel.k1, "BesselK1e": bessel.k1e,
    "Erfinv": special.erfinv, "Ndtri": special.ndtri, "Dawsn": special.dawsn,
    "Expint": special.expint, "FresnelCos": special.fresnel_cos,
    "FresnelSin": special.fresnel_sin, "Spence": special.spence,
}
for _name, _fn in _UNARY.items():
    define_op(_name, infer=rules.same_as_first)(_in_float64(_fn))

define_op("Igamma", infer=rules.elementwise)(_in_float64(special.igamma))
define_op("Igammac", infer=rules.elementwise)(_in_float64(special.igammac))
define_op("Zeta", infer=rules.elementwise)(_in_float64(special.zeta))


def _over_x(y, x, at_zero):
    """y / x, and `at_zero` where x == 0 (the limit of the order-1 terms)."""
    zero = equal(x, 0)
    safe = where(zero, convert_to_tensor(1, x.dtype), x)
    return where(zero, convert_to_tensor(at_zero, x.dtype), truediv(y, safe))


# d/dx of each unary op, from x and its output y (TF's formulas).
_DERIVATIVES = {
    "BesselI0": lambda x, y: bessel_i1(x),
    "BesselI0e": lambda x, y: subtract(bessel_i1e(x), multiply(sign(x), y)),
    "BesselI1": lambda x, y: subtract(bessel_i0(x), _over_x(y, x, 0.5)),
    "BesselI1e": lambda x, y: subtract(subtract(bessel_i0e(x), multiply(sign(x), y)),
                                       _over_x(y, x, 0.5)),
    "BesselJ0": lambda x, y: negative(bessel_j1(x)),
    "BesselJ1": lambda x, y: subtract(bessel_j0(x), _over_x(y, x, 0.5)),
    "BesselY0": lambda x, y: negative(bessel_y1(x)),
    "BesselY1": lambda x, y: subtract(bessel_y0(x), truediv(y, x)),
    "BesselK0": lambda x, y: negative(bessel_k1(x)),
    "BesselK0e": lambda x, y: subtract(y, bessel_k1e(x)),
    "BesselK1": lambda x, y: subtract(negative(bessel_k0(x)), truediv(y, x)),
    "BesselK1e": lambda x, y: subtract(negative(bessel_k0e(x)),
                                       multiply(y, subtract(reciprocal(x), 1))),
    "Erfinv": lambda x, y: multiply(math.sqrt(math.pi) / 2, exp(square(y))),
    "Ndtri": lambda x, y: multiply(math.sqrt(2 * math.pi), exp(square(y) / 2)),
    "Dawsn": lambda x, y: subtract(1, multiply(multiply(2, x), y)),
    "Expint": lambda x, y: truediv(exp(x), x),
    "FresnelCos": lambda x, y: cos(multiply(math.pi / 2, square(x))),
    "FresnelSin": lambda x, y: sin(multiply(math.pi / 2, square(x))),
    "Spence": lambda x, y: where(equal(x, 1), convert_to_tensor(-1, x.dtype),
                                 truediv(log(x), subtract(1, x))),
}


def _define_derivative(name, derivative):
    @define_grad(name)
    def _grad(op, grad):
        return [multiply(grad, derivative(op.inputs[0], op.outputs[0]))]


for _name, _derivative in _DERIVATIVES.items():
    _define_derivative(_name, _derivative)


# --- the public unary functions ------------------------------------------------

def bessel_i0(x, name=None):
    """`tf.math.bessel_i0`: the modified Bessel function I0 (NaN at +-inf, as TF)."""
    return _unary("BesselI0", x, FLOATS)


def bessel_i0e(x, name=None):
    """`tf.math.bessel_i0e`: I0(x) exp(-|x|)."""
    return _unary("BesselI0e", x, FLOATS)


def bessel_i1(x, name=None):
    """`tf.math.bessel_i1`: the modified Bessel function I1 (odd)."""
    return _unary("BesselI1", x, FLOATS)


def bessel_i1e(x, name=None):
    """`tf.math.bessel_i1e`: I1(x) exp(-|x|)."""
    return _unary("BesselI1e", x, FLOATS)


def bessel_j0(x, name=None):
    """`tf.math.special.bessel_j0`: the Bessel function of the first kind J0."""
    return _unary("BesselJ0", x, FLOATS)


def bessel_j1(x, name=None):
    """`tf.math.special.bessel_j1`: J1 (odd)."""
    return _unary("BesselJ1", x, FLOATS)


def bessel_y0(x, name=None):
    """`tf.math.special.bessel_y0`: the Bessel function of the second kind Y0
    (-inf at x <= 0, as TF)."""
    return _unary("BesselY0", x, FLOATS)


def bessel_y1(x, name=None):
    """`tf.math.special.bessel_y1`: Y1 (-inf at x <= 0, as TF)."""
    return _unary("BesselY1", x, FLOATS)


def bessel_k0(x, name=None):
    """`tf.math.special.bessel_k0`: the modified Bessel function K0 (inf at x <= 0)."""
    return _unary("BesselK0", x, FLOATS)


def bessel_k0e(x, name=None):
    """`tf.math.special.bessel_k0e`: K0(x) exp(x)."""
    return _unary("BesselK0e", x, FLOATS)


def bessel_k1(x, name=None):
    """`tf.math.special.bessel_k1`: K1 (inf at x <= 0)."""
    return _unary("BesselK1", x, FLOATS)


def bessel_k1e(x, name=None):
    """`tf.math.special.bessel_k1e`: K1(x) exp(x)."""
    return _unary("BesselK1e", x, FLOATS)


def erfinv(x, name=None):
    """`tf.math.erfinv`: the inverse of erf on [-1, 1] (+-inf at +-1, NaN outside)."""
    return _unary("Erfinv", x, REAL)


def ndtri(x, name=None):
    """`tf.math.ndtri`: the inverse of the standard normal CDF on [0, 1]."""
    return _unary("Ndtri", x, REAL)


def erfcinv(x, name=None):
    """`tf.math.erfcinv`: the inverse of erfc on [0, 2], as TF computes it:
    -ndtri(x / 2) / sqrt(2)."""
    x = convert_to_tensor(x)
    if x.dtype not in REAL:
        raise dtype_error("Erfcinv", x.dtype, REAL)
    return truediv(negative(ndtri(multiply(x, 0.5))), convert_to_tensor(math.sqrt(2), x.dtype))


def dawsn(x, name=None):
    """`tf.math.special.dawsn`: Dawson's integral exp(-x^2) int_0^x exp(t^2) dt."""
    return _unary("Dawsn", x, REAL)


def expint(x, name=None):
    """`tf.math.special.expint`: the exponential integral Ei(x) (NaN for x < 0)."""
    return _unary("Expint", x, REAL)


def fresnel_cos(x, name=None):
    """`tf.math.special.fresnel_cos`: int_0^x cos(pi t^2 / 2) dt."""
    return _unary("FresnelCos", x, REAL)


def fresnel_sin(x, name=None):
    """`tf.math.special.fresnel_sin`: int_0^x sin(pi t^2 / 2) dt."""
    return _unary("FresnelSin", x, REAL)


def spence(x, name=None):
    """`tf.math.special.spence`: int_1^x log(t) / (1 - t) dt (NaN for x < 0)."""
    return _unary("Spence", x, REAL)


# --- the functions of two and three arguments ----------------------------------

def _real_pair(x, y, op_name):
    x, y = convert_pair(x, y, op_name)
    if x.dtype not in REAL:
        raise dtype_error(op_name, x.dtype, REAL)
    return x, y


def igamma(a, x, name=None):
    """`tf.math.igamma`: the regularized lower incomplete gamma function P(a, x)."""
    return apply("Igamma", _real_pair(a, x, "Igamma"))


def igammac(a, x, name=None):
    """`tf.math.igammac`: the regularized upper incomplete gamma function
    Q(a, x) = 1 - P(a, x)."""
    return apply("Igammac", _real_pair(a, x, "Igammac"))


def zeta(x, q, name=None):
    """`tf.math.zeta`: Hurwitz's zeta function sum_k (k + q)^-x."""
    return apply("Zeta", _real_pair(x, q, "Zeta"))


def _richardson(f, a):
    """df/da by central differences at steps h and h/2, extrapolated."""
    h = 1e-3 * np.maximum(np.abs(a), 1e-3)
    h = np.minimum(h, a / 4)

    def central(step):
        return (f(a + step) - f(a - step)) / (2 * step)
    return (4 * central(h / 2) - central(h)) / 3


def _igamma_grad_a(a, x):
    """dP(a, x)/da in float64: the difference quotient of whichever of P
    (series) or Q (continued fraction) is computed directly there."""
    a, x = np.broadcast_arrays(a, x)
    ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    sa, sx = np.where(ok, a, 1.0), np.where(ok, x, 1.0)
    series = special.use_series(sa, sx)
    px, qx = np.where(series, sx, 0.5), np.where(series, 2.5, sx)
    pa, qa = np.where(series, sa, 1.0), np.where(series, 1.0, sa)
    dp = _richardson(lambda v: special.igamma_series(v, px), pa)
    dq = _richardson(lambda v: special.igammac_fraction(v, qx), qa)
    out = np.where(series, dp, -dq)
    edge = (x == 0) | np.isposinf(x) | (np.isposinf(a) & (x > 0))
    return np.where(ok, out, np.where(edge & ~np.isnan(a), 0.0, np.nan))


define_op("IgammaGradA", infer=rules.elementwise)(_in_float64(_igamma_grad_a))


def _igamma_grad_x(a, x):
    """d P(a, x) / dx = exp(-x + (a - 1) log x - lgamma(a))."""
    return exp(subtract(add(negative(x), multiply(subtract(a, 1), log(x))), lgamma(a)))


@define_grad("Igamma")
def _igamma_grad(op, grad):
    a, x = op.inputs
    da = multiply(grad, apply("IgammaGradA", (a, x)))
    dx = multiply(grad, _igamma_grad_x(a, x))
    return [unbroadcast(da, a), unbroadcast(dx, x)]


@define_grad("Igammac")
def _igammac_grad(op, grad):
    a, x = op.inputs
    da = multiply(grad, negative(apply("IgammaGradA", (a, x))))
    dx = multiply(grad, negative(_igamma_grad_x(a, x)))
    return [unbroadcast(da, a), unbroadcast(dx, x)]


@define_grad("Zeta")
def _zeta_grad(op, grad):
    x, q = op.inputs
    dq = multiply(grad, multiply(negative(x), zeta(add(x, 1), q)))
    return [None, unbroadcast(dq, q)]


def _infer_betainc(inputs, attrs):
    a, b, x = inputs
    rules.check_same_dtype(a, b)
    rules.check_same_dtype(a, x)
    shaped = [(n, t.shape) for n, t in zip("abx", inputs) if t.shape.rank != 0]
    for n, shape in shaped[1:]:
        if not shape.is_compatible_with(shaped[0][1]):
            raise ValueError(f"Betainc: shapes of {shaped[0][0]} and {n} are inconsistent: "
                             f"{shaped[0][1]} vs. {shape}; each of a, b, x is a scalar or "
                             "has the others' shape")
    return [(a.dtype, shaped[0][1] if shaped else a.shape)]


def _betainc_kernel(a, b, x):
    shapes = {np.shape(v) for v in (a, b, x) if np.ndim(v)}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"Betainc: shapes of a, b and x are inconsistent: "
                                   f"{sorted(shapes)}", "Betainc")
    return _in_float64(special.betainc)(a, b, x)


define_op("Betainc", infer=_infer_betainc)(_betainc_kernel)


@define_grad("Betainc")
def _betainc_grad(op, grad):
    a, b, x = op.inputs
    log_density = subtract(add(xlogy(subtract(a, 1), x), xlog1py(subtract(b, 1), negative(x))),
                           lbeta(stack([a + 0 * b, b + 0 * a], axis=-1)))
    return [None, None, unbroadcast(multiply(grad, exp(log_density)), x)]


def betainc(a, b, x, name=None):
    """`tf.math.betainc`: the regularized incomplete beta function I_x(a, b);
    a, b and x are each a scalar or of one common shape."""
    a, b = _real_pair(a, b, "Betainc")
    x = convert_to_tensor(x, a.dtype)
    return apply("Betainc", (a, b, x))


# --- polygamma -----------------------------------------------------------------

def _polygamma_kernel(a, x):
    """polygamma(a, x) for each order present in a (NaN for a not a natural number)."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    for n in np.unique(a[(a >= 0) & (a == np.floor(a)) & np.isfinite(a)]):
        mask = a == n
        value = _digamma64(x[mask]) if n == 0 else _polygamma64(int(n), x[mask])
        out[mask] = value
    return out


define_op("PolygammaOrder", infer=rules.elementwise)(_in_float64(_polygamma_kernel))


@define_grad("PolygammaOrder")
def _polygamma_order_grad(op, grad):
    a, x = op.inputs
    return [None, unbroadcast(multiply(grad, polygamma(add(a, 1), x)), x)]


def polygamma(a, x, name=None):
    """`tf.math.polygamma`: the a-th derivative of digamma, a a natural number
    given as a float tensor (NaN for other a)."""
    return apply("PolygammaOrder", _real_pair(a, x, "Polygamma"))
