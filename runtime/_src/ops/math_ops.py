"""Math and logic ops: elementwise arithmetic, comparisons, logic, matmul,
`where` and `cast`.

Binary ops follow TensorFlow's dtype rules: a Python scalar, list or numpy
value takes the dtype of the tensor it meets; two tensors of different dtypes
raise (`TypeError` while tracing, `InvalidArgumentError` eagerly). Integer
`truediv` gives floats (int32 -> float64), as in TensorFlow.

    >>> add(constant([1, 2]), 1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>

Each op is one `define_op` block (name, dtype/shape rule, numpy kernel); the
public function below it converts arguments and calls it. Eagerly, a front
function on eager tensors calls the kernel directly (base_ops: `binary`, `unary`), so
an op costs little more than the numpy call.
"""

import math
import warnings

import numpy as np

from runtime._src.core.composite import dispatch_api
from runtime._src.core import dtype_promotion, dtypes
from runtime._src.core.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import (apply, define_grad, define_op,
                                            not_differentiable)
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import (ANY, ARITHMETIC, ARITHMETIC_UINTS, BOOL, COMPLEX,
                                       FLOATS, INEXACT, INTEGERS, NUMERIC, NUMERIC_UINTS,
                                       ORDERED, TRUNCATE, WIDE_UINTS, convert_pair,
                                       dtype_error, eager_values, run_kernel_now)
from runtime._src.ops.base_ops import binary as _binary, unary as _unary  # short local names
from runtime._src.ops.base_ops import map_composite_values
from runtime._src.ops.gradient_ops import unbroadcast

__all__ = ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod",
           "mod", "pow", "square", "sqrt", "exp", "log", "tanh", "abs", "negative", "sign",
           "maximum", "minimum", "matmul", "less", "less_equal", "greater",
           "greater_equal", "equal", "not_equal", "logical_and", "logical_or",
           "logical_not", "where", "cast", "identity", "convert_pair", "run_kernel_now",
           "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
           "atanh", "expm1", "log1p", "rsqrt", "reciprocal", "floor", "ceil", "round", "rint",
           "erf", "erfc", "is_nan", "is_inf", "is_finite", "atan2", "squared_difference",
           "add_n", "clip_by_value", "truncatediv", "truncatemod", "realdiv", "scalar_mul"]

# TensorFlow computes 1/0 -> inf, log(0) -> -inf and sqrt(-1) -> nan, and lets
# integers wrap, all silently; numpy's RuntimeWarnings for these, raised inside
# our kernels (not the user's numpy code), are ignored to match.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"runtime\.(_src\.)?ops\.")

def _check_int_divisor(y, op_name):
    if y.dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError(f"{op_name}: Integer division by zero", op_name)


# --- arithmetic ----------------------------------------------------------------

@define_op("AddV2", infer=rules.elementwise)
def _add(x, y):
    return np.add(x, y)


@define_grad("AddV2")
def _add_grad(op, grad):
    x, y = op.inputs
    return [unbroadcast(grad, x), unbroadcast(grad, y)]


@define_op("Sub", infer=rules.elementwise)
def _sub(x, y):
    return np.subtract(x, y)


@define_grad("Sub")
def _sub_grad(op, grad):
    x, y = op.inputs
    return [unbroadcast(grad, x), unbroadcast(negative(grad), y)]


@define_op("Mul", infer=rules.elementwise)
def _mul(x, y):
    return np.multiply(x, y)


def _conj(t):
    """conj(t) for a complex t (t itself else): complex gradients multiply by
    conjugated derivatives (TF's convention, runtime/_src/autodiff/backprop.py)."""
    return apply("Conj", (t,)) if t.dtype in COMPLEX else t


@define_grad("Mul")
def _mul_grad(op, grad):
    x, y = _conj(op.inputs[0]), _conj(op.inputs[1])
    return [unbroadcast(multiply(grad, y), x), unbroadcast(multiply(grad, x), y)]


@define_op("RealDiv", infer=rules.truediv)
def _realdiv(x, y):
    if x.dtype.kind in "iu":
        out = rules.true_div_dtype(dtypes.as_dtype(x.dtype)).np_dtype
        return np.true_divide(x, y, dtype=out)
    return np.true_divide(x, y)


@define_grad("RealDiv")
def _realdiv_grad(op, grad):
    x, y = op.inputs
    gx = truediv(grad, _conj(y))
    gy = multiply(grad, truediv(truediv(negative(_conj(x)), _conj(y)), _conj(y)))  # TF's form
    return [unbroadcast(gx, x), unbroadcast(gy, y)]


@define_op("FloorDiv", infer=rules.elementwise)
def _floordiv(x, y):
    _check_int_divisor(y, "FloorDiv")
    if np.result_type(x, y).kind == "f":
        return np.floor(np.true_divide(x, y))      # as TF: inf // 2 is inf, 1. // 0. is inf
    return np.floor_divide(x, y)


not_differentiable("FloorDiv")


@define_op("FloorMod", infer=rules.elementwise)
def _floormod(x, y):
    _check_int_divisor(y, "FloorMod")
    return np.mod(x, y)


@define_grad("FloorMod")
def _floormod_grad(op, grad):
    x, y = op.inputs
    return [unbroadcast(grad, x), unbroadcast(multiply(negative(grad), floordiv(x, y)), y)]


@define_op("TruncateDiv", infer=rules.elementwise)
def _truncatediv(x, y):
    _check_int_divisor(y, "TruncateDiv")
    if np.result_type(x, y).kind == "f":
        return np.trunc(np.true_divide(x, y))      # 1. / 0. stays inf, as in TF
    quotient = np.floor_divide(x, y)                # C division: round toward zero
    return quotient + ((np.mod(x, y) != 0) & ((x < 0) != (y < 0))).astype(quotient.dtype)


not_differentiable("TruncateDiv")


@define_op("TruncateMod", infer=rules.elementwise)
def _truncatemod(x, y):
    _check_int_divisor(y, "TruncateMod")
    return np.fmod(x, y)                            # the sign of x, as C's %


@define_grad("TruncateMod")
def _truncatemod_grad(op, grad):
    x, y = op.inputs
    return [unbroadcast(grad, x), unbroadcast(multiply(negative(grad), truncatediv(x, y)), y)]


@define_op("Pow", infer=rules.elementwise)
def _pow(x, y):
    return np.power(x, y)


@define_grad("Pow")
def _pow_grad(op, grad):
    x, y = op.inputs
    xc, yc, out = _conj(x), _conj(y), _conj(op.outputs[0])
    gx = multiply(multiply(grad, yc), pow(xc, subtract(yc, 1)))      # TF's order
    positive = not_equal(x, 0) if x.dtype in COMPLEX else greater(x, 0)
    log_x = where(positive, log(where(positive, xc, 1)), 0)
    return [unbroadcast(gx, x), unbroadcast(multiply(multiply(grad, out), log_x), y)]


@define_op("Maximum", infer=rules.elementwise)
def _maximum(x, y):
    return np.maximum(x, y)


@define_grad("Maximum")
def _maximum_grad(op, grad):
    return _select_grads(op, grad, greater_equal(*op.inputs))


@define_op("Minimum", infer=rules.elementwise)
def _minimum(x, y):
    return np.minimum(x, y)


@define_grad("Minimum")
def _minimum_grad(op, grad):
    return _select_grads(op, grad, less_equal(*op.inputs))


def _select_grads(op, grad, x_wins):
    """Gradients of max/min: to x where `x_wins`, to y elsewhere (as TF: ties go to x)."""
    x, y = op.inputs
    return [unbroadcast(where(x_wins, grad, 0), x), unbroadcast(where(x_wins, 0, grad), y)]


_ADDABLE = ARITHMETIC_UINTS | frozenset((dtypes.string,))


def add(x, y, name=None):
    """x + y elementwise, with broadcasting (strings concatenate)."""
    return _binary("AddV2", x, y, _ADDABLE)


def subtract(x, y, name=None):
    """x - y elementwise, with broadcasting."""
    return _binary("Sub", x, y, ARITHMETIC_UINTS)


def multiply(x, y, name=None):
    """x * y elementwise, with broadcasting."""
    return _binary("Mul", x, y, ARITHMETIC_UINTS)


def truediv(x, y, name=None):
    """x / y; integers divide as floats (int8/16 -> float32, int32/64 -> float64).

    Two tensors of different dtypes raise TypeError, eagerly too (as TF)."""
    dx, dy = getattr(x, "dtype", None), getattr(y, "dtype", None)
    if (isinstance(dx, dtypes.DType) and isinstance(dy, dtypes.DType) and dx is not dy
            and _is_tensor_like(x) and _is_tensor_like(y) and dtype_promotion.mode() is None):
        raise TypeError(f"RealDiv: `x` and `y` must have the same dtype, "
                        f"got tf.{dx.name} != tf.{dy.name}")
    found = eager_values(x, y) if current_graph() is None else None
    out = rules.true_div_dtype(found[2]) if found is not None else None
    return _binary("RealDiv", x, y, ARITHMETIC_UINTS, out)


def _is_tensor_like(v):
    return isinstance(v, Tensor) or reads_as_tensor(v)


def realdiv(x, y, name=None):
    """`tf.realdiv`: x / y for floating-point and complex tensors only (TF has
    no integer kernel: use `truediv` or `floordiv` for integers)."""
    return _binary("RealDiv", x, y, INEXACT)


def scalar_mul(scalar, x, name=None):
    """`tf.scalar_mul`: `scalar * x`, the scalar converted to x's dtype."""
    x = x._as_tensor() if reads_as_tensor(x) and not isinstance(x, Tensor) else x
    x = convert_to_tensor(x)
    shape = getattr(scalar, "shape", ())
    if shape is not None and len(shape) != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape "
                         f"{tuple(shape)}.")
    return multiply(convert_to_tensor(scalar, x.dtype), x)


def divide(x, y, name=None):
    """`tf.math.divide`: Python 3 division, same as `truediv` (a SparseTensor's
    values divided, as TF's `x / y`)."""
    if hasattr(x, "_map_values_op") and not isinstance(x, Tensor):
        return x / y
    return truediv(x, y)


def floordiv(x, y, name=None):
    """x // y, rounding toward -inf. Integer division by zero raises."""
    return _binary("FloorDiv", x, y, NUMERIC_UINTS)


def truncatediv(x, y, name=None):
    """`tf.truncatediv`: x / y rounded toward zero (C's integer division)."""
    return _binary("TruncateDiv", x, y, TRUNCATE | WIDE_UINTS)


def truncatemod(x, y, name=None):
    """`tf.truncatemod`: the remainder of `truncatediv`, with the sign of x (C's %)."""
    return _binary("TruncateMod", x, y, TRUNCATE)


def floormod(x, y, name=None):
    """x % y with the sign of y (Python's %). Integer modulo by zero raises."""
    return _binary("FloorMod", x, y, NUMERIC_UINTS)


mod = floormod


def pow(x, y, name=None):  # TensorFlow's public name
    """x ** y elementwise. Integers to negative integer powers raise."""
    return _binary("Pow", x, y, ARITHMETIC)


def maximum(x, y, name=None):
    """The elementwise larger of x and y."""
    return _binary("Maximum", x, y, NUMERIC_UINTS)


def minimum(x, y, name=None):
    """The elementwise smaller of x and y."""
    return _binary("Minimum", x, y, NUMERIC_UINTS)


# --- unary math ----------------------------------------------------------------

# Elementwise unary ops whose kernel is the numpy ufunc itself.
for _name, _ufunc in (("Neg", np.negative), ("Abs", np.abs), ("Sign", np.sign),
                      ("Square", np.square), ("Sqrt", np.sqrt), ("Exp", np.exp),
                      ("Log", np.log), ("Tanh", np.tanh)):
    define_op(_name, infer=rules.same_as_first)(_ufunc)


# Gradients of the unary ops: grad times the derivative, from the input x and
# the output y (one rule per op, written with the runtime's ops).
_UNARY_GRADS = {
    "Neg": lambda g, x, y: negative(g),
    "Abs": lambda g, x, y: multiply(g, sign(x)),
    "Sign": lambda g, x, y: multiply(g, 0),
    "Square": lambda g, x, y: multiply(g, multiply(x, 2)),
    "Sqrt": lambda g, x, y: apply("SqrtGrad", (y, g)),
    "Exp": lambda g, x, y: multiply(g, y),
    "Log": lambda g, x, y: multiply(g, reciprocal(x)),     # TF's form (its rounding)
    "Tanh": lambda g, x, y: multiply(g, subtract(1, square(y))),
}


def _define_unary_grad(name, derivative):
    @define_grad(name)
    def _grad(op, grad):
        # f has real coefficients, so conj(f'(x)) is f' at conj(x), conj(y)
        return [derivative(grad, _conj(op.inputs[0]), _conj(op.outputs[0]))]


for _name, _derivative in _UNARY_GRADS.items():
    _define_unary_grad(_name, _derivative)


def negative(x, name=None):
    """-x elementwise."""
    return _unary("Neg", x, ARITHMETIC)


def abs(x, name=None):  # TensorFlow's public name
    """|x| elementwise; of a complex tensor, its magnitude (float32 for
    complex64, float64 for complex128: TF's ComplexAbs)."""
    dtype = getattr(x, "dtype", None)
    if dtype in COMPLEX:
        return _unary("ComplexAbs", x, COMPLEX, out_dtype=dtype.real_dtype)
    return _unary("Abs", x, NUMERIC)


def _real_part_shape(inputs, attrs):
    """Shape rule of ComplexAbs, Real, Imag, Angle: the input's shape, real dtype."""
    return [(inputs[0].dtype.real_dtype, inputs[0].shape)]


define_op("ComplexAbs", infer=_real_part_shape)(np.abs)


def sign(x, name=None):
    """-1, 0 or 1 by the sign of x (0 for 0, nan for nan)."""
    return _unary("Sign", x, NUMERIC)


def square(x, name=None):
    """x * x elementwise."""
    return _unary("Square", x, ARITHMETIC_UINTS)


def sqrt(x, name=None):
    """Square root; floating-point inputs only."""
    return _unary("Sqrt", x, INEXACT)


def exp(x, name=None):
    """e ** x; floating-point inputs only."""
    return _unary("Exp", x, INEXACT)


def log(x, name=None):
    """Natural logarithm; floating-point inputs only."""
    return _unary("Log", x, INEXACT)


def tanh(x, name=None):
    """Hyperbolic tangent; floating-point inputs only."""
    return _unary("Tanh", x, FLOATS)


# --- more elementwise math (TensorFlow's names; one table row per op) ---------------

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
    "Erf": lambda g, x, y: multiply(multiply(g, 2 / math.sqrt(math.pi)),
                                    exp(negative(square(x)))),
    "Erfc": lambda g, x, y: multiply(multiply(g, -2 / math.sqrt(math.pi)),
                                     exp(negative(square(x)))),
}
for _name, _derivative in _UNARY_MATH_GRADS.items():
    _define_unary_grad(_name, _derivative)


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


@define_op("Atan2", infer=rules.elementwise)
def _atan2(y, x):
    return np.arctan2(y, x)


@define_grad("Atan2")
def _atan2_grad(op, grad):
    y, x = op.inputs
    scaled = truediv(grad, add(square(x), square(y)))
    return [unbroadcast(multiply(scaled, x), y), unbroadcast(negative(multiply(scaled, y)), x)]


@define_op("SquaredDifference", infer=rules.elementwise)
def _squared_difference(x, y):
    return np.square(np.subtract(x, y))


@define_grad("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    d = multiply(multiply(grad, 2), subtract(x, y))
    return [unbroadcast(d, x), unbroadcast(negative(d), y)]


def atan2(y, x, name=None):
    """The angle of the point (x, y), in [-pi, pi], with broadcasting; floats only."""
    return _binary("Atan2", y, x, FLOATS)


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise, with broadcasting."""
    return _binary("SquaredDifference", x, y, NUMERIC)


def _infer_add_n(inputs, attrs):
    first = inputs[0]
    shape = first.shape
    for t in inputs[1:]:
        rules.check_same_dtype(first, t)
        if not shape.is_compatible_with(t.shape):
            raise ValueError(f"Shapes must be equal, got {rules.dims_text(shape)} and "
                             f"{rules.dims_text(t.shape)}")
        shape = shape.merge_with(t.shape)
    if first.dtype not in NUMERIC:
        raise dtype_error("AddN", first.dtype, NUMERIC)
    return [(first.dtype, shape)]


@define_op("AddN", infer=_infer_add_n)
def _add_n(*xs):
    out = xs[0]
    for v in xs[1:]:
        if v.shape != out.shape:
            raise InvalidArgumentError(
                f"AddN: Inputs to operation AddN must have the same size and shape. "
                f"Input 0: {list(xs[0].shape)} != input: {list(v.shape)}", "AddN")
        out = np.add(out, v)
    return out


@define_grad("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one dtype and shape (no broadcasting)."""
    if isinstance(inputs, Tensor) or not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("add_n: inputs must be a list of at least one Tensor with the "
                         "same dtype and shape")
    inputs = [convert_to_tensor(t) for t in inputs]
    if len(inputs) == 1:
        return inputs[0]
    if current_graph() is None:
        first = inputs[0]
        for t in inputs[1:]:
            if t.dtype is not first.dtype:
                raise InvalidArgumentError(
                    f"AddN: cannot add a {first.dtype.name} tensor and a {t.dtype.name} "
                    "tensor; use tf.cast to convert one of them", "AddN")
        if first.dtype not in NUMERIC:
            raise dtype_error("AddN", first.dtype, NUMERIC)
    return apply("AddN", tuple(inputs))


def _infer_clip(inputs, attrs):
    t, lo, hi = inputs
    rules.check_same_dtype(t, lo)
    rules.check_same_dtype(t, hi)
    shape = rules.broadcast_shapes(rules.broadcast_shapes(t.shape, hi.shape), lo.shape)
    if not t.shape.is_compatible_with(shape):
        raise ValueError(f"Shapes {t.shape} and {shape} are incompatible: clip values must "
                         "not broadcast t to a larger shape")
    return [(t.dtype, t.shape.merge_with(shape))]


@define_op("ClipByValue", infer=_infer_clip)
def _clip_by_value(t, lo, hi):
    # TF's order: min with the upper bound, then max with the lower one (lo wins
    # where lo > hi).
    return np.maximum(np.minimum(t, hi), lo)


@define_grad("ClipByValue")
def _clip_by_value_grad(op, grad):
    t, lo, hi = op.inputs
    below, above = less(t, lo), greater(t, hi)
    inside = logical_not(logical_or(below, above))
    return [where(inside, grad, 0), unbroadcast(where(below, grad, 0), lo),
            unbroadcast(where(above, grad, 0), hi)]


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """t with values below `clip_value_min` raised to it and above `clip_value_max`
    lowered to it; the bounds broadcast against t but must not enlarge it."""
    t = convert_to_tensor(t)
    t, lo = convert_pair(t, clip_value_min, "ClipByValue")
    t, hi = convert_pair(t, clip_value_max, "ClipByValue")
    if t.dtype not in NUMERIC:
        raise dtype_error("ClipByValue", t.dtype, NUMERIC)
    shape = rules.broadcast_shapes(rules.broadcast_shapes(t.shape, hi.shape), lo.shape)
    if not t.shape.is_compatible_with(shape):
        raise ValueError(f"clip_by_value: Shapes {t.shape} and {shape} are incompatible: "
                         "clip values must not broadcast t to a larger shape")
    return apply("ClipByValue", (t, lo, hi))


# --- comparisons ---------------------------------------------------------------

@define_op("Less", infer=rules.compare)
def _less(x, y):
    return np.less(x, y)


@define_op("LessEqual", infer=rules.compare)
def _less_equal(x, y):
    return np.less_equal(x, y)


@define_op("Greater", infer=rules.compare)
def _greater(x, y):
    return np.greater(x, y)


@define_op("GreaterEqual", infer=rules.compare)
def _greater_equal(x, y):
    return np.greater_equal(x, y)


@define_op("Equal", infer=rules.compare)
def _equal(x, y):
    return np.equal(x, y)


@define_op("NotEqual", infer=rules.compare)
def _not_equal(x, y):
    return np.not_equal(x, y)


not_differentiable("Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual")


def less(x, y, name=None):
    """x < y elementwise, as a bool tensor."""
    return _binary("Less", x, y, ORDERED, dtypes.bool)


def less_equal(x, y, name=None):
    """x <= y elementwise, as a bool tensor."""
    return _binary("LessEqual", x, y, ORDERED, dtypes.bool)


def greater(x, y, name=None):
    """x > y elementwise, as a bool tensor."""
    return _binary("Greater", x, y, ORDERED, dtypes.bool)


def greater_equal(x, y, name=None):
    """x >= y elementwise, as a bool tensor."""
    return _binary("GreaterEqual", x, y, ORDERED, dtypes.bool)


def equal(x, y, name=None):
    """x == y elementwise. Comparing with None gives False (`tensor == None`)."""
    if x is None or y is None:
        return False
    return _binary("Equal", x, y, ANY, dtypes.bool)


def not_equal(x, y, name=None):
    """x != y elementwise. Comparing with None gives True (`tensor != None`)."""
    if x is None or y is None:
        return True
    return _binary("NotEqual", x, y, ANY, dtypes.bool)


# --- logic ---------------------------------------------------------------------

@define_op("LogicalAnd", infer=rules.logical)
def _logical_and(x, y):
    return np.logical_and(x, y)


@define_op("LogicalOr", infer=rules.logical)
def _logical_or(x, y):
    return np.logical_or(x, y)


@define_op("LogicalNot", infer=rules.logical)
def _logical_not(x):
    return np.logical_not(x)


not_differentiable("LogicalAnd", "LogicalOr", "LogicalNot")


def logical_and(x, y, name=None):
    """x AND y elementwise on bool tensors (also `x & y`)."""
    return _binary("LogicalAnd", x, y, BOOL)


def logical_or(x, y, name=None):
    """x OR y elementwise on bool tensors (also `x | y`)."""
    return _binary("LogicalOr", x, y, BOOL)


def logical_not(x, name=None):
    """NOT x elementwise on a bool tensor (also `~x`)."""
    return _unary("LogicalNot", x, BOOL)


# --- matmul --------------------------------------------------------------------

def _infer_matmul(inputs, attrs):
    a, b = inputs
    rules.check_same_dtype(a, b)
    sa, sb = a.shape, b.shape
    if sa.dims is None or sb.dims is None:
        return [(a.dtype, TensorShape(None))]
    if len(sa.dims) < 2 or len(sb.dims) < 2:
        raise ValueError(f"both inputs must be matrices (rank >= 2), got shapes "
                         f"{rules.dims_text(sa)} and {rules.dims_text(sb)}")
    m, k = sa.dims[-2:] if not attrs.get("transpose_a") else sa.dims[-2:][::-1]
    k2, n = sb.dims[-2:] if not attrs.get("transpose_b") else sb.dims[-2:][::-1]
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f"Dimensions must be equal, but are {k} and {k2} for matmul of "
                         f"shapes {rules.dims_text(sa)} and {rules.dims_text(sb)}")
    batch = rules.broadcast_shapes(TensorShape(sa.dims[:-2]), TensorShape(sb.dims[:-2]))
    return [(a.dtype, TensorShape(batch.dims + (m, n)))]


@define_op("MatMul", infer=_infer_matmul)
def _matmul(a, b, transpose_a=False, transpose_b=False):
    if a.ndim < 2 or b.ndim < 2:
        raise InvalidArgumentError(f"MatMul: both inputs must be matrices (rank >= 2), got "
                                   f"shapes {list(a.shape)} and {list(b.shape)}")
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    if a.shape[-1] != b.shape[-2]:
        raise InvalidArgumentError(f"MatMul: Matrix size-incompatible: In[0]: {list(a.shape)}, "
                                   f"In[1]: {list(b.shape)}")
    return np.matmul(a, b)


@define_grad("MatMul")
def _matmul_grad(op, grad):
    a, b = _conj(op.inputs[0]), _conj(op.inputs[1])
    ta, tb = op.attrs.get("transpose_a", False), op.attrs.get("transpose_b", False)
    if not ta and not tb:
        ga, gb = _mm(grad, b, False, True), _mm(a, grad, True, False)
    elif not ta:
        ga, gb = _mm(grad, b, False, False), _mm(grad, a, True, False)
    elif not tb:
        ga, gb = _mm(b, grad, False, True), _mm(a, grad, False, False)
    else:
        ga, gb = _mm(b, grad, True, True), _mm(grad, a, True, True)
    return [unbroadcast(ga, a), unbroadcast(gb, b)]


def _mm(a, b, transpose_a, transpose_b):
    attrs = {"transpose_a": True} if transpose_a else {}
    if transpose_b:
        attrs["transpose_b"] = True
    return apply("MatMul", (a, b), attrs or None)


def _conjugated(x, adjoint):
    """`x` conjugated when `adjoint` is set and it is complex (an adjoint is
    the conjugate transpose; real values pass through)."""
    if not adjoint or (isinstance(x, Tensor) and not x.dtype.is_complex):
        return x
    x = convert_to_tensor(x)
    return apply("Conj", (x,)) if x.dtype.is_complex else x


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Matrix product of the last two dims (batched over leading dims); `a @ b`.
    `grad_a`/`grad_b` (TF's hints that the product is a gradient) change nothing."""
    flag = rules.static_bool
    if flag(adjoint_a, "MatMul", "adjoint_a") or flag(adjoint_b, "MatMul", "adjoint_b"):
        a, b = _conjugated(a, adjoint_a), _conjugated(b, adjoint_b)
    transpose_a = flag(transpose_a, "MatMul", "transpose_a") or flag(adjoint_a, "MatMul", "adjoint_a")
    transpose_b = flag(transpose_b, "MatMul", "transpose_b") or flag(adjoint_b, "MatMul", "adjoint_b")
    if not (transpose_a or transpose_b):
        return _binary("MatMul", a, b, ARITHMETIC)
    a, b = convert_pair(a, b, "MatMul")
    if a.dtype not in ARITHMETIC:
        raise dtype_error("MatMul", a.dtype, ARITHMETIC)
    return apply("MatMul", (a, b), {"transpose_a": transpose_a, "transpose_b": transpose_b})


# --- where, cast, identity -----------------------------------------------------

def _infer_select(inputs, attrs):
    c, x, y = inputs
    if c.dtype is not dtypes.bool:
        raise TypeError(f"condition must be a bool tensor, got {c.dtype.name}")
    rules.check_same_dtype(x, y)
    shape = rules.broadcast_shapes(c.shape, rules.broadcast_shapes(x.shape, y.shape))
    return [(x.dtype, shape)]


@define_op("SelectV2", infer=_infer_select)
def _select(c, x, y):
    return np.where(c, x, y)


@define_grad("SelectV2")
def _select_grad(op, grad):
    c, x, y = op.inputs
    return [None, unbroadcast(where(c, grad, 0), x), unbroadcast(where(c, 0, grad), y)]


def _infer_where(inputs, attrs):
    c = inputs[0]
    if c.dtype is not dtypes.bool and not (c.dtype.is_integer or c.dtype.is_floating
                                           or c.dtype.is_complex):
        raise TypeError(f"where: condition must be a bool or numeric tensor (its nonzero "
                        f"elements count as true), got {c.dtype.name}")
    return [(dtypes.int64, TensorShape([None, c.shape.rank]))]


@define_op("Where", infer=_infer_where)
def _where(c):
    return np.argwhere(c).astype(np.int64)


not_differentiable("Where")


def where(condition, x=None, y=None, name=None):
    """Elements of x where condition is true, else of y (broadcasting all three).

    With only `condition`: the int64 coordinates of its true (or, for a numeric
    condition, nonzero) elements, [N, rank].
    """
    out = dispatch_api("where", (condition, x, y), condition, x, y)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    condition = convert_to_tensor(condition)
    if x is None and y is None:
        return apply("Where", (condition,))      # numeric: the nonzero elements, as TF
    if condition.dtype is not dtypes.bool:
        raise TypeError(f"where: condition must be a bool tensor, got {condition.dtype.name}")
    if x is None or y is None:
        raise ValueError("where: x and y must both be given, or neither")
    x, y = convert_pair(x, y, "SelectV2")
    return apply("SelectV2", (condition, x, y))


def _infer_cast(inputs, attrs):
    return [(attrs["dtype"], inputs[0].shape)]


@define_op("Cast", infer=_infer_cast)
def _cast(x, dtype):
    source = dtypes.as_dtype(x.dtype)
    if source in dtypes.NARROW or dtype in dtypes.NARROW:
        return _narrow_cast(x, source, dtype)
    if x.dtype.kind == "c" and not dtype.is_complex:
        x = x.real                     # TF keeps the real part (numpy would warn)
    if dtype is dtypes.bfloat16 and x.dtype.kind in "iuf":
        x = x.astype(np.float32)       # TF rounds through float32 (twice: 1 + 2**-8 + 2**-30 -> 1)
    return x.astype(dtype.np_dtype)


_FLOAT8_CASTS = (dtypes.float8_e4m3fn, dtypes.float8_e5m2)
_INT4 = (dtypes.int4, dtypes.uint4)
# TF's names of dtypes in its kernels' messages ("Cast float to int4 is not supported").
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _narrow_cast_supported(source, target):
    """TF 2.21's CPU Cast kernels of the narrow dtypes: e4m3fn/e5m2 from the wider
    floats and to any number or bool; int4/uint4 to and from integers only; the
    others (the fnuz floats, float4, int2, uint2) only to themselves."""
    if source is target:
        return True
    if source not in _FLOAT8_CASTS + _INT4 and source in dtypes.NARROW or \
            target not in _FLOAT8_CASTS + _INT4 and target in dtypes.NARROW:
        return False
    if target in _FLOAT8_CASTS:
        return source in _FLOAT8_CASTS or source in (dtypes.float16, dtypes.bfloat16,
                                                     dtypes.float32, dtypes.float64)
    if source in _FLOAT8_CASTS:
        return target not in _INT4 and not target.is_string
    return (source.is_integer and target.is_integer and not source.is_bool
            and not target.is_bool)


def _narrow_cast(x, source, target):
    if not _narrow_cast_supported(source, target):
        names = [_KERNEL_NAMES.get(d.name, d.name) for d in (source, target)]
        raise UnimplementedError(f"Cast {names[0]} to {names[1]} is not supported", "Cast")
    if source is target:
        return x
    if source in _FLOAT8_CASTS:          # as float32, by float32's rules from there
        return _cast(x.astype(np.float32), target)
    if source in _INT4:
        x = x.astype(np.int8)
    elif target in _INT4:
        x = x.astype(np.int64)           # wraps to the low 4 bits, as TF
    return x.astype(target.np_dtype)


@define_grad("Cast")
def _cast_grad(op, grad):
    source, target = op.inputs[0].dtype, op.attrs["dtype"]
    if (source.is_floating or source.is_complex) and (target.is_floating or target.is_complex):
        if source.is_floating and target.is_complex:
            grad = apply("Real", (grad,))      # a real source moved only the real part
        return [cast(grad, source)]
    return [None]


def cast(x, dtype, name=None):
    """x converted to `dtype` (floats truncate toward zero; nonzero -> True)."""
    dtype = dtypes.as_dtype(dtype)
    if not isinstance(x, Tensor):
        mapped = map_composite_values(x, "Cast", lambda v: cast(v, dtype))
        if mapped is not NotImplemented:
            return mapped
    x = convert_to_tensor(x)
    if x.dtype is dtype:
        return x
    if x.dtype.is_string or dtype.is_string:
        raise TypeError(f"Cast: casting {x.dtype.name} to {dtype.name} is not supported")
    return apply("Cast", (x,), {"dtype": dtype})


@define_op("Identity", infer=rules.same_as_first)
def _identity(x):
    return x


@define_grad("Identity")
def _identity_grad(op, grad):
    return [grad]


def identity(input, name=None):  # TensorFlow's argument name
    """A tensor with the same value as `input` (a new node when tracing)."""
    if not isinstance(input, Tensor):
        mapped = map_composite_values(input, "Identity", identity)
        if mapped is not NotImplemented:
            return mapped
    return apply("Identity", (convert_to_tensor(input),))
