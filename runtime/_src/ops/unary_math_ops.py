"""Elementwise unary math under TensorFlow's names: trigonometric and
hyperbolic functions, expm1/log1p, rsqrt/reciprocal, rounding (floor, ceil,
round half to even, rint), erf/erfc and the is_nan/is_inf/is_finite
predicates.

Each op is one record of `_ROWS`: its kernel, its derivative (the gradient
rule) and what its public function says; the dtype rule is the same for all
(floating-point inputs only, as TF's) and the shape rule is the input's shape
(bools for the predicates). The op, its gradient and its public function are
made from the record; `reciprocal` and `round` add TF's integer cases."""

import math
import typing

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


def _one_minus_square(x):
    return subtract(1, square(x))


class _Row(typing.NamedTuple):
    """One op: its numpy kernel, its derivative `f(grad, conj(x), conj(y))`
    (None: not differentiable), what its public function computes (the first
    words of its docstring), and whether it answers with bools (`is_nan`,
    ...; else its output has the input's dtype and shape). Every op here
    takes floating-point inputs only, as TF's (the front functions check)."""

    kernel: object
    derivative: object
    doc: str
    predicate: bool = False


_2_OVER_SQRT_PI = 2 / math.sqrt(math.pi)

_ROWS = {
    "Sin": _Row(np.sin, lambda g, x, y: multiply(g, cos(x)), "Sine"),
    "Cos": _Row(np.cos, lambda g, x, y: negative(multiply(g, sin(x))), "Cosine"),
    "Tan": _Row(np.tan, lambda g, x, y: multiply(g, add(1, square(y))), "Tangent"),
    "Asin": _Row(np.arcsin, lambda g, x, y: multiply(g, rsqrt(_one_minus_square(x))),
                 "Inverse sine (nan outside [-1, 1])"),
    "Acos": _Row(np.arccos, lambda g, x, y: negative(multiply(g, rsqrt(_one_minus_square(x)))),
                 "Inverse cosine (nan outside [-1, 1])"),
    "Atan": _Row(np.arctan, lambda g, x, y: truediv(g, add(1, square(x))), "Inverse tangent"),
    "Sinh": _Row(np.sinh, lambda g, x, y: multiply(g, cosh(x)), "Hyperbolic sine"),
    "Cosh": _Row(np.cosh, lambda g, x, y: multiply(g, sinh(x)), "Hyperbolic cosine"),
    "Asinh": _Row(np.arcsinh, lambda g, x, y: truediv(g, cosh(y)), "Inverse hyperbolic sine"),
    "Acosh": _Row(np.arccosh, lambda g, x, y: truediv(g, sinh(y)),
                  "Inverse hyperbolic cosine (nan below 1)"),
    "Atanh": _Row(np.arctanh, lambda g, x, y: truediv(g, _one_minus_square(x)),
                  "Inverse hyperbolic tangent (+-inf at +-1, nan beyond)"),
    "Expm1": _Row(np.expm1, lambda g, x, y: multiply(g, exp(x)),
                  "exp(x) - 1, accurate near 0"),
    "Log1p": _Row(np.log1p, lambda g, x, y: truediv(g, add(1, x)),
                  "log(1 + x), accurate near 0"),
    "Rsqrt": _Row(_rsqrt, lambda g, x, y: apply("RsqrtGrad", (y, g)), "1 / sqrt(x)"),
    "Reciprocal": _Row(np.reciprocal, lambda g, x, y: apply("ReciprocalGrad", (y, g)),
                       "1 / x (inf at 0)"),
    "Floor": _Row(np.floor, None, "The largest integer not greater than x"),
    "Ceil": _Row(np.ceil, None, "The smallest integer not less than x"),
    "Round": _Row(np.round, None, "x rounded to the nearest integer, halves to even"),
    "Rint": _Row(np.rint, None, "x rounded to the nearest integer, halves to even"),
    "Erf": _Row(_erf_kernel(math.erf),
                lambda g, x, y: multiply(multiply(g, _2_OVER_SQRT_PI), exp(negative(square(x)))),
                "The Gauss error function"),
    "Erfc": _Row(_erf_kernel(math.erfc),
                 lambda g, x, y: multiply(multiply(g, -_2_OVER_SQRT_PI),
                                          exp(negative(square(x)))),
                 "1 - erf(x), accurate for large x"),
    "IsNan": _Row(np.isnan, None, "True where x is nan, as a bool tensor", True),
    "IsInf": _Row(np.isinf, None, "True where x is +inf or -inf, as a bool tensor", True),
    "IsFinite": _Row(np.isfinite, None, "True where x is neither inf nor nan, as a bool tensor",
                     True),
}


def _register(name, row):
    """The op `name` and its gradient, from its row."""
    define_op(name, infer=_predicate if row.predicate else rules.same_as_first)(row.kernel)
    if row.derivative is None:
        not_differentiable(name)
    else:
        _define_unary_grad(name, row.derivative, __name__)


for _name, _row in _ROWS.items():
    _register(_name, _row)


def _front(op_name, fn_name):
    """The public function `fn_name(x, name=None)` of op `op_name`, from its row."""
    row = _ROWS[op_name]
    out_dtype = dtypes.bool if row.predicate else None

    def front(x, name=None):
        return _unary(op_name, x, FLOATS, out_dtype=out_dtype)
    front.__name__ = front.__qualname__ = fn_name
    front.__doc__ = f"{row.doc}; floating-point inputs only."
    return front


# The backward kernels of sqrt, rsqrt and reciprocal, as TensorFlow's: from the
# op's output y and the incoming gradient dy, and 0 wherever dy is 0, even where
# the derivative is inf or nan (at 0, or below 0 for the roots). So the gradient
# of `tf.where(x > 0, tf.sqrt(x), 0)` is 0, not nan, at x = 0.

def _zero_where_no_gradient(dy, out):
    return np.where(dy == 0, out.dtype.type(0), out)


@define_op("SqrtGrad", infer=rules.same_as_first)
def _sqrt_grad_kernel(y, dy):
    return _zero_where_no_gradient(dy, dy * (y.dtype.type(0.5) / y))


@define_op("RsqrtGrad", infer=rules.same_as_first)
def _rsqrt_grad_kernel(y, dy):
    return _zero_where_no_gradient(dy, y.dtype.type(-0.5) * (dy * y) * (y * y))


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


# The public functions: one per row, but for reciprocal and round, below.
sin, cos, tan = _front("Sin", "sin"), _front("Cos", "cos"), _front("Tan", "tan")
asin, acos, atan = _front("Asin", "asin"), _front("Acos", "acos"), _front("Atan", "atan")
sinh, cosh = _front("Sinh", "sinh"), _front("Cosh", "cosh")
asinh, acosh, atanh = _front("Asinh", "asinh"), _front("Acosh", "acosh"), _front("Atanh", "atanh")
expm1, log1p, rsqrt = _front("Expm1", "expm1"), _front("Log1p", "log1p"), _front("Rsqrt", "rsqrt")
floor, ceil, rint = _front("Floor", "floor"), _front("Ceil", "ceil"), _front("Rint", "rint")
erf, erfc = _front("Erf", "erf"), _front("Erfc", "erfc")
is_nan, is_inf = _front("IsNan", "is_nan"), _front("IsInf", "is_inf")
is_finite = _front("IsFinite", "is_finite")


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


def round(x, name=None):  # TensorFlow's public name
    """x rounded to the nearest integer, halves to even (banker's rounding).

    Integer tensors come back unchanged, as in TensorFlow.
    """
    x = convert_to_tensor(x)
    if x.dtype in INTEGERS:
        return x
    return _unary("Round", x, FLOATS)
