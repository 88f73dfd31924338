"""Elementwise arithmetic: add, subtract, multiply, the divisions and
remainders (`truediv`, `floordiv`, `floormod`, `truncatediv`, ...), pow,
maximum/minimum, the basic unary ops (negative, abs, sign, square, sqrt, exp,
log, tanh), atan2, squared_difference, add_n and clip_by_value, with their
gradients. The rest of tf.math's elementwise ops is in unary_math_ops;
`runtime._src.ops.math_ops` gathers them all.

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

import typing

import numpy as np

from runtime._src.core import dtype_promotion, dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import (apply, define_grad, define_op,
                                            not_differentiable)
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import (ARITHMETIC, ARITHMETIC_UINTS, COMPLEX, FLOATS, INEXACT,
                                       NUMERIC, NUMERIC_UINTS, TRUNCATE, WIDE_UINTS,
                                       convert_pair, dtype_error, eager_values)
from runtime._src.ops.base_ops import binary as _binary, unary as _unary  # short local names
from runtime._src.ops.comparison_ops import (greater, greater_equal, less, less_equal,
                                             logical_not, logical_or, not_equal)
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops.where_cast_ops import where

__all__ = ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod",
           "mod", "pow", "square", "sqrt", "exp", "log", "tanh", "abs", "negative", "sign",
           "maximum", "minimum", "atan2", "squared_difference", "add_n", "clip_by_value",
           "truncatediv", "truncatemod", "realdiv", "scalar_mul"]


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

class _Row(typing.NamedTuple):
    """One basic unary op: the numpy ufunc that is its kernel, the dtypes its
    public function takes, its derivative from the input x and the output y
    (grad times f', written with the runtime's ops) and what the function
    says. Shape rule: the input's. The op, its gradient and its function are
    made from the record; `abs` adds TF's complex magnitude."""

    kernel: object
    allowed: frozenset
    derivative: object
    doc: str


_UNARY = {
    "Neg": _Row(np.negative, ARITHMETIC, lambda g, x, y: negative(g), "-x elementwise."),
    "Abs": _Row(np.abs, NUMERIC, lambda g, x, y: multiply(g, sign(x)), None),
    "Sign": _Row(np.sign, NUMERIC, lambda g, x, y: multiply(g, 0),
                 "-1, 0 or 1 by the sign of x (0 for 0, nan for nan)."),
    "Square": _Row(np.square, ARITHMETIC_UINTS, lambda g, x, y: multiply(g, multiply(x, 2)),
                   "x * x elementwise."),
    "Sqrt": _Row(np.sqrt, INEXACT, lambda g, x, y: apply("SqrtGrad", (y, g)),
                 "Square root; floating-point inputs only."),
    "Exp": _Row(np.exp, INEXACT, lambda g, x, y: multiply(g, y),
                "e ** x; floating-point inputs only."),
    "Log": _Row(np.log, INEXACT, lambda g, x, y: multiply(g, apply("Reciprocal", (x,))),
                "Natural logarithm; floating-point inputs only."),
    "Tanh": _Row(np.tanh, FLOATS, lambda g, x, y: multiply(g, subtract(1, square(y))),
                 "Hyperbolic tangent; floating-point inputs only."),
}


def _define_unary_grad(name, derivative, module=__name__):
    """Register `derivative(grad, conj(x), conj(y))` as op `name`'s gradient
    (`module`: the one that defines the op, for the op map)."""
    @define_grad(name, module=module)
    def _grad(op, grad):
        # f has real coefficients, so conj(f'(x)) is f' at conj(x), conj(y)
        return [derivative(grad, _conj(op.inputs[0]), _conj(op.outputs[0]))]


for _name, _row in _UNARY.items():
    define_op(_name, infer=rules.same_as_first)(_row.kernel)
    _define_unary_grad(_name, _row.derivative)


def _front(op_name, fn_name):
    """The public function `fn_name(x, name=None)` of op `op_name`, from its record."""
    allowed = _UNARY[op_name].allowed

    def front(x, name=None):
        return _unary(op_name, x, allowed)
    front.__name__ = front.__qualname__ = fn_name
    front.__doc__ = _UNARY[op_name].doc
    return front


negative, sign = _front("Neg", "negative"), _front("Sign", "sign")
square, sqrt = _front("Square", "square"), _front("Sqrt", "sqrt")
exp, log, tanh = _front("Exp", "exp"), _front("Log", "log"), _front("Tanh", "tanh")


def abs(x, name=None):  # TensorFlow's public name
    """|x| elementwise; of a complex tensor, its magnitude (float32 for
    complex64, float64 for complex128: TF's ComplexAbs)."""
    dtype = getattr(x, "dtype", None)
    if dtype in COMPLEX:
        return _unary("ComplexAbs", x, COMPLEX, out_dtype=dtype.real_dtype)
    return _unary("Abs", x, _UNARY["Abs"].allowed)


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


