"""Elementwise unary math under TensorFlow's names, one table row per op:
trigonometric and hyperbolic functions, expm1/log1p, rsqrt/reciprocal,
rounding (floor, ceil, round half to even, rint), erf/erfc and the
is_nan/is_inf/is_finite predicates, with their gradients.

Which dtypes each accepts is in its public function (TF: the transcendental
ops, floor, ceil, rint, the predicates and erf are float-only)."""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError, NotFoundError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import (apply, define_grad, define_op,
                                            not_differentiable)
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.arithmetic_ops import (_define_unary_grad, add, exp, multiply, negative,
                                             square, subtract, truediv)
from runtime._src.ops.base_ops import FLOATS, INTEGERS
from runtime._src.ops.base_ops import unary as _unary  # short local name

__all__ = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
           "expm1", "log1p", "rsqrt", "reciprocal", "floor", "ceil", "round", "rint", "erf",
           "erfc", "is_nan", "is_inf", "is_finite"]


# --- the table: one row per op -----------------------------------------------------

def _erf_kernel(fn):
    """An erf/erfc kernel: `math.erf` per element (numpy has none), in the input's dtype."""
    ufunc = np.frompyfunc(fn, 1, 1)

    def kernel(x):
        return np.asarray(ufunc(x.astype(np.float64)), dtype=x.dtype)
    return kernel


def _rsqrt(x):
    return np.reciprocal(np.sqrt(x))


def _predicate(inputs, attrs):
    """One bool output with the first input's shape (`is_nan`, `is_inf`, ...)."""
    return [(dtypes.bool, inputs[0].shape)]


# op name: (numpy kernel, shape/dtype rule). Which dtypes each accepts is in the
# public function below (TF: the transcendental ops, floor, ceil, rint, the is_*
# predicates, erf are float-only; round, sign, square take integers too).
_UNARY_MATH = {
    "Sin": (np.sin, rules.same_as_first), "Cos": (np.cos, rules.same_as_first),
    "Tan": (np.tan, rules.same_as_first), "Asin": (np.arcsin, rules.same_as_first),
    "Acos": (np.arccos, rules.same_as_first), "Atan": (np.arctan, rules.same_as_first),
    "Sinh": (np.sinh, rules.same_as_first), "Cosh": (np.cosh, rules.same_as_first),
    "Asinh": (np.arcsinh, rules.same_as_first), "Acosh": (np.arccosh, rules.same_as_first),
    "Atanh": (np.arctanh, rules.same_as_first), "Expm1": (np.expm1, rules.same_as_first),
    "Log1p": (np.log1p, rules.same_as_first), "Rsqrt": (_rsqrt, rules.same_as_first),
    "Reciprocal": (np.reciprocal, rules.same_as_first),
    "Floor": (np.floor, rules.same_as_first), "Ceil": (np.ceil, rules.same_as_first),
    "Round": (np.round, rules.same_as_first),          # half to even, as TF
    "Rint": (np.rint, rules.same_as_first),
    "Erf": (_erf_kernel(math.erf), rules.same_as_first),
    "Erfc": (_erf_kernel(math.erfc), rules.same_as_first),
    "IsNan": (np.isnan, _predicate), "IsInf": (np.isinf, _predicate),
    "IsFinite": (np.isfinite, _predicate),
}
for _name, (_kernel, _infer) in _UNARY_MATH.items():
    define_op(_name, infer=_infer)(_kernel)


def _one_minus_square(x):
    return subtract(1, square(x))


_UNARY_MATH_GRADS = {
    "Sin": lambda g, x, y: multiply(g, cos(x)),
    "Cos": lambda g, x, y: negative(multiply(g, sin(x))),
    "Tan": lambda g, x, y: multiply(g, add(1, square(y))),
    "Asin": lambda g, x, y: multiply(g, rsqrt(_one_minus_square(x))),
    "Acos": lambda g, x, y: negative(multiply(g, rsqrt(_one_minus_square(x)))),
    "Atan": lambda g, x, y: truediv(g, add(1, square(x))),
    "Sinh": lambda g, x, y: multiply(g, cosh(x)),
    "Cosh": lambda g, x, y: multiply(g, sinh(x)),
    "Asinh": lambda g, x, y: truediv(g, cosh(y)),
    "Acosh": lambda g, x, y: truediv(g, sinh(y)),
    "Atanh": lambda g, x, y: truediv(g, _one_minus_square(x)),
    "Expm1": lambda g, x, y: multiply(g, exp(x)),
    "Log1p": lambda g, x, y: truediv(g, add(1, x)),
    "Rsqrt": lambda g, x, y: apply("RsqrtGrad", (y, g)),
    "Reciprocal": lambda g, x, y: apply("ReciprocalGrad", (y, g)),
    "Erf": lambda g, x, y: multiply(g, multiply(2 / math.sqrt(math.pi), exp(negative(square(x))))),
    "Erfc": lambda g, x, y: multiply(g, multiply(-2 / math.sqrt(math.pi),
                                                  exp(negative(square(x))))),
}
for _name, _derivative in _UNARY_MATH_GRADS.items():
    _define_unary_grad(_name, _derivative, __name__)


# The backward kernels of sqrt, rsqrt and reciprocal, as TensorFlow's: from the
# op's output y and the incoming gradient dy, and 0 wherever dy is 0, even where
# the derivative is inf or nan (at 0, or below 0 for the roots). So the gradient
# of `tf.where(x > 0, tf.sqrt(x), 0)` is 0, not nan, at x = 0.

def _zero_where_no_gradient(dy, out):
    return np.where(dy == 0, out.dtype.type(0), out)


@define_op("SqrtGrad", infer=rules.same_as_first)
def _sqrt_grad_kernel(y, dy):
    return _zero_where_no_gradient(dy, dy * y.dtype.type(0.5) / y)


@define_op("RsqrtGrad", infer=rules.same_as_first)
def _rsqrt_grad_kernel(y, dy):
    return _zero_where_no_gradient(dy, dy * y.dtype.type(-0.5) * (y * y * y))


@define_op("ReciprocalGrad", infer=rules.same_as_first)
def _reciprocal_grad_kernel(y, dy):
    return _zero_where_no_gradient(dy, -dy * (y * y))


@define_grad("SqrtGrad")
def _sqrt_grad_grad(op, grad):
    # out = dy / (2 y): d/dy = -out / y, d/d(dy) = 1 / (2 y)
    y, out = op.inputs[0], op.outputs[0]
    over_y = truediv(grad, y)
    return [negative(multiply(over_y, out)), multiply(over_y, 0.5)]


@define_grad("RsqrtGrad")
def _rsqrt_grad_grad(op, grad):
    # out = -dy y^3 / 2: d/dy = -3 dy y^2 / 2, d/d(dy) = -y^3 / 2
    y, dy = op.inputs
    return [multiply(grad, multiply(-1.5, multiply(dy, square(y)))),
            multiply(grad, multiply(-0.5, multiply(y, square(y))))]


@define_grad("ReciprocalGrad")
def _reciprocal_grad_grad(op, grad):
    # out = -dy y^2: d/dy = -2 dy y, d/d(dy) = -y^2
    y, dy = op.inputs
    return [multiply(grad, multiply(-2.0, multiply(dy, y))), negative(multiply(grad, square(y)))]
not_differentiable("Floor", "Ceil", "Round", "Rint", "IsNan", "IsInf", "IsFinite")


def sin(x, name=None):
    """Sine; floating-point inputs only."""
    return _unary("Sin", x, FLOATS)


def cos(x, name=None):
    """Cosine; floating-point inputs only."""
    return _unary("Cos", x, FLOATS)


def tan(x, name=None):
    """Tangent; floating-point inputs only."""
    return _unary("Tan", x, FLOATS)


def asin(x, name=None):
    """Inverse sine (nan outside [-1, 1]); floating-point inputs only."""
    return _unary("Asin", x, FLOATS)


def acos(x, name=None):
    """Inverse cosine (nan outside [-1, 1]); floating-point inputs only."""
    return _unary("Acos", x, FLOATS)


def atan(x, name=None):
    """Inverse tangent; floating-point inputs only."""
    return _unary("Atan", x, FLOATS)


def sinh(x, name=None):
    """Hyperbolic sine; floating-point inputs only."""
    return _unary("Sinh", x, FLOATS)


def cosh(x, name=None):
    """Hyperbolic cosine; floating-point inputs only."""
    return _unary("Cosh", x, FLOATS)


def asinh(x, name=None):
    """Inverse hyperbolic sine; floating-point inputs only."""
    return _unary("Asinh", x, FLOATS)


def acosh(x, name=None):
    """Inverse hyperbolic cosine (nan below 1); floating-point inputs only."""
    return _unary("Acosh", x, FLOATS)


def atanh(x, name=None):
    """Inverse hyperbolic tangent (+-inf at +-1, nan beyond); floating-point inputs only."""
    return _unary("Atanh", x, FLOATS)


def expm1(x, name=None):
    """exp(x) - 1, accurate near 0; floating-point inputs only."""
    return _unary("Expm1", x, FLOATS)


def log1p(x, name=None):
    """log(1 + x), accurate near 0; floating-point inputs only."""
    return _unary("Log1p", x, FLOATS)


def rsqrt(x, name=None):
    """1 / sqrt(x); floating-point inputs only."""
    return _unary("Rsqrt", x, FLOATS)


def reciprocal(x, name=None):
    """1 / x (inf at 0); floating-point inputs only. An integer tensor is
    refused as TensorFlow refuses it: its op accepts integers but has no
    kernel for them, so NotFoundError eagerly, InvalidArgumentError in a
    graph (TF's at the run, ours when tracing)."""
    x = convert_to_tensor(x)
    if x.dtype.is_integer:
        message = (f"Reciprocal: no kernel for a {x.dtype.name} tensor (floating-point "
                   f"only); use tf.cast to convert it")
        kind = NotFoundError if current_graph() is None else InvalidArgumentError
        raise kind(message, "Reciprocal")
    return _unary("Reciprocal", x, FLOATS)


def floor(x, name=None):
    """The largest integer not greater than x; floating-point inputs only."""
    return _unary("Floor", x, FLOATS)


def ceil(x, name=None):
    """The smallest integer not less than x; floating-point inputs only."""
    return _unary("Ceil", x, FLOATS)


def round(x, name=None):  # TensorFlow's public name
    """x rounded to the nearest integer, halves to even (banker's rounding).

    Integer tensors come back unchanged, as in TensorFlow.
    """
    x = convert_to_tensor(x)
    if x.dtype in INTEGERS:
        return x
    return _unary("Round", x, FLOATS)


def rint(x, name=None):
    """x rounded to the nearest integer, halves to even; floating-point inputs only."""
    return _unary("Rint", x, FLOATS)


def erf(x, name=None):
    """The Gauss error function; floating-point inputs only."""
    return _unary("Erf", x, FLOATS)


def erfc(x, name=None):
    """1 - erf(x), accurate for large x; floating-point inputs only."""
    return _unary("Erfc", x, FLOATS)


def is_nan(x, name=None):
    """True where x is nan, as a bool tensor; floating-point inputs only."""
    return _unary("IsNan", x, FLOATS, out_dtype=dtypes.bool)


def is_inf(x, name=None):
    """True where x is +inf or -inf, as a bool tensor; floating-point inputs only."""
    return _unary("IsInf", x, FLOATS, out_dtype=dtypes.bool)


def is_finite(x, name=None):
    """True where x is neither inf nor nan, as a bool tensor; floating-point inputs only."""
    return _unary("IsFinite", x, FLOATS, out_dtype=dtypes.bool)
