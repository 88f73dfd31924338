"""`tf.experimental.numpy`'s elementwise math: NumPy-named functions over our
ops, their operands promoted by NumPy's rules (`np_dtypes.result_type`).

The float functions (exp, sqrt, sin, ...) compute integers and bools as
float64 (`_FLOAT`, NumPy's `float`, which `prefer_float32` does not change),
as TensorFlow's do; two-operand functions promote both operands first.

    add(tensor_of_int32, 1.5)      # float64
    sqrt([1, 4])                   # [1., 2.] float64
"""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import EagerTensor
from runtime._src.ops import (array_ops, bitwise_ops, complex_ops, gradient_ops, math_ops,
                              reduction_ops)
from runtime._src.ops.dtype_ops import bitcast
from runtime._src.ops.np_dtypes import asarray, np_result_type, result_type

__all__ = [
           'abs', 'absolute', 'add', 'allclose', 'angle', 'arccos', 'arccosh', 'arcsin',
           'arcsinh', 'arctan', 'arctan2', 'arctanh', 'around', 'array_equal',
           'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor', 'cbrt', 'ceil',
           'conj', 'conjugate', 'cos', 'cosh', 'deg2rad', 'divide', 'divmod', 'equal',
           'exp', 'exp2', 'expm1', 'fabs', 'fix', 'float_power', 'floor', 'floor_divide',
           'gcd', 'greater', 'greater_equal', 'heaviside', 'hypot', 'imag', 'isclose',
           'iscomplex', 'iscomplexobj', 'isfinite', 'isinf', 'isnan', 'isneginf',
           'isposinf', 'isreal', 'isrealobj', 'lcm', 'less', 'less_equal', 'log', 'log10',
           'log1p', 'log2', 'logaddexp', 'logaddexp2', 'logical_and', 'logical_not',
           'logical_or', 'logical_xor', 'maximum', 'minimum', 'mod', 'multiply',
           'negative', 'nextafter', 'not_equal', 'positive', 'power', 'rad2deg', 'real',
           'reciprocal', 'remainder', 'round', 'sign', 'signbit', 'sin', 'sinc', 'sinh',
           'sqrt', 'square', 'subtract', 'tan', 'tanh', 'true_divide']

_FLOAT = dtypes.float64


def promote(*values):
    """The values as tensors of their NumPy-promoted dtype."""
    dtype = result_type(*values)
    return [asarray(v, dtype) for v in values]


def as_float(x):
    """x as a tensor, cast to float64 unless it is a float or complex."""
    x = asarray(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else math_ops.cast(x, _FLOAT)


def _binary(name, fn, doc):
    def f(x1, x2):
        return fn(*promote(x1, x2))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(x1, x2)`: {doc}, operands promoted by NumPy's rules."
    return f


def _unary(name, fn, floating, doc):
    def f(x):
        return fn(as_float(x) if floating else asarray(x))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(x)`: {doc}" + (" (integers computed as float64)." if floating
                                              else ".")
    return f


def _bool_or(bool_fn, fn):
    return lambda a, b: bool_fn(a, b) if a.dtype.is_bool else fn(a, b)


# -- arithmetic -------------------------------------------------------------------

add = _binary("add", _bool_or(math_ops.logical_or, math_ops.add), "x1 + x2")
subtract = _binary("subtract", math_ops.subtract, "x1 - x2")
multiply = _binary("multiply", _bool_or(math_ops.logical_and, math_ops.multiply), "x1 * x2")
maximum = _binary("maximum", _bool_or(math_ops.logical_or, math_ops.maximum),
                  "the larger, NaN if either is NaN")
minimum = _binary("minimum", _bool_or(math_ops.logical_and, math_ops.minimum),
                  "the smaller, NaN if either is NaN")
def _floats(fn):
    """fn of two promoted operands, integers and bools cast to float64."""
    def f(a, b):
        if not (a.dtype.is_floating or a.dtype.is_complex):
            a, b = math_ops.cast(a, _FLOAT), math_ops.cast(b, _FLOAT)
        return fn(a, b)
    return f


arctan2 = _binary("arctan2", _floats(math_ops.atan2), "the angle of (x2, x1)")


def _truediv(a, b):
    if not (a.dtype.is_floating or a.dtype.is_complex):
        a, b = math_ops.cast(a, _FLOAT), math_ops.cast(b, _FLOAT)
    return math_ops.truediv(a, b)


true_divide = _binary("true_divide", _truediv, "x1 / x2 (integers give float64)")
divide = _binary("divide", _truediv, "x1 / x2 (integers give float64)")


def _int_or_bool(fn):
    def f(a, b):
        if a.dtype.is_bool:
            return math_ops.cast(fn(math_ops.cast(a, dtypes.int8), math_ops.cast(b, dtypes.int8)),
                                 dtypes.int8)
        return fn(a, b)
    return f


floor_divide = _binary("floor_divide", _int_or_bool(
    lambda a, b: math_ops.floor(math_ops.truediv(a, b)) if a.dtype.is_floating
    else math_ops.floordiv(a, b)), "x1 // x2")
mod = _binary("mod", _int_or_bool(math_ops.floormod), "x1 % x2 (the sign of x2)")
remainder = _binary("remainder", _int_or_bool(math_ops.floormod), "x1 % x2 (the sign of x2)")


def divmod(x1, x2):  # noqa: A001 - NumPy's name
    """`tnp.divmod(x1, x2)`: (floor_divide, mod)."""
    return floor_divide(x1, x2), mod(x1, x2)


def _pow(a, b):
    if a.dtype.is_integer:
        return math_ops.cast(math_ops.pow(math_ops.cast(a, dtypes.int64),
                                          math_ops.cast(b, dtypes.int64)), a.dtype)
    return math_ops.pow(a, b)


power = _binary("power", _pow, "x1 ** x2")


def float_power(x1, x2):
    """`tnp.float_power(x1, x2)`: power(x1, x2), as TF 2.21's (not computed in float64)."""
    return power(x1, x2)


def _hypot(a, b):
    return math_ops.sqrt(math_ops.square(a) + math_ops.square(b))


hypot = _binary("hypot", _floats(_hypot), "sqrt(x1**2 + x2**2)")


def _logaddexp(a, b):
    big = math_ops.maximum(a, b)
    finite = math_ops.is_finite(big)
    rest = math_ops.log1p(math_ops.exp(-math_ops.abs(a - b)))
    return math_ops.where(finite, big + math_ops.where(finite, rest, array_ops.zeros_like(rest)),
                          big)


def _logaddexp2(a, b):
    ln2 = math.log(2.0)
    return _logaddexp(a * ln2, b * ln2) / ln2


logaddexp = _binary("logaddexp", _floats(_logaddexp), "log(exp(x1) + exp(x2))")
logaddexp2 = _binary("logaddexp2", _floats(_logaddexp2), "log2(2**x1 + 2**x2)")


def _heaviside(a, b):
    zero = array_ops.zeros_like(a)
    return math_ops.where(math_ops.less(a, zero), zero,
                          math_ops.where(math_ops.greater(a, zero), array_ops.ones_like(a), b))


def heaviside(x1, x2):
    """`tnp.heaviside(x1, x2)`: 0 below 0, x2 at 0, 1 above (float64 for ints)."""
    a, b = promote(x1, x2)
    if not a.dtype.is_floating:
        a, b = math_ops.cast(a, _FLOAT), math_ops.cast(b, _FLOAT)
    return _heaviside(a, b)


_BITS = {dtypes.float16: dtypes.int16, dtypes.float32: dtypes.int32,
         dtypes.float64: dtypes.int64}


def nextafter(x1, x2):
    """`tnp.nextafter(x1, x2)`: the next float after x1 towards x2."""
    a, b = promote(x1, x2)
    if not a.dtype.is_floating:
        a, b = math_ops.cast(a, _FLOAT), math_ops.cast(b, _FLOAT)
    return step_towards(a, b)


def step_towards(a, b):
    """The next float after a towards b (b when equal, NaN when either is
    NaN), by stepping a's bits; a and b floats of one dtype. Its gradient is
    TF's NextAfter's: 1 by a, none by b (the step is exact)."""
    a, b = a + array_ops.zeros_like(b), b + array_ops.zeros_like(a)
    ints = _BITS[a.dtype]
    tiny = bitcast(math_ops.cast(1, ints), a.dtype)          # the smallest subnormal
    away = math_ops.equal(math_ops.greater(b, a), math_ops.greater(a, 0))
    bits = bitcast(a, ints)
    stepped = bitcast(math_ops.where(away, bits + 1, bits - 1), a.dtype)
    from_zero = math_ops.where(math_ops.greater(b, a), tiny + 0 * a, -tiny + 0 * a)
    out = math_ops.where(math_ops.equal(a, 0), from_zero, stepped)
    out = math_ops.where(math_ops.equal(a, b), b, out)
    nan = math_ops.logical_or(math_ops.is_nan(a), math_ops.is_nan(b))
    out = math_ops.where(nan, a + b, out)
    finite = math_ops.logical_and(math_ops.is_finite(a), math_ops.is_finite(out))
    return math_ops.where(finite, a + gradient_ops.stop_gradient(out - a), out)


def _gcd_step(a, b):
    zero = math_ops.equal(b, 0)
    rest = math_ops.floormod(a, math_ops.where(zero, array_ops.ones_like(b), b))
    return math_ops.where(zero, a, b), math_ops.where(zero, b, rest)


def euclid_gcd(a, b):
    """Euclid's algorithm on |a|, |b| (integers of one dtype): eagerly until
    every b is 0, in a graph unrolled to the longest run the dtype allows
    (the Fibonacci bound: 93 steps for int64). keras.ops.gcd/lcm use it too."""
    a, b = math_ops.abs(a), math_ops.abs(b)
    a, b = a + array_ops.zeros_like(b), b + array_ops.zeros_like(a)
    eager = isinstance(b, EagerTensor)
    steps = {8: 12, 16: 24, 32: 47, 64: 93}[a.dtype.np_dtype.itemsize * 8]
    for _ in range(steps):
        if eager and not np.any(b.numpy()):
            break
        a, b = _gcd_step(a, b)
    return a


def _int_operands(name, x1, x2):
    a, b = promote(x1, x2)
    if not a.dtype.is_integer:
        raise TypeError(f"tnp.{name}: operands must be integers, got {a.dtype.name}")
    return a, b


def gcd(x1, x2):
    """`tnp.gcd(x1, x2)`: the greatest common divisor of |x1| and |x2|."""
    return euclid_gcd(*_int_operands("gcd", x1, x2))


def lcm(x1, x2):
    """`tnp.lcm(x1, x2)`: the least common multiple of |x1| and |x2| (0 if either is 0)."""
    a, b = _int_operands("lcm", x1, x2)
    g = euclid_gcd(a, b)
    safe = math_ops.where(math_ops.equal(g, 0), array_ops.ones_like(g), g)
    return math_ops.abs(math_ops.floordiv(a, safe) * b)


# -- comparisons and logic --------------------------------------------------------

equal = _binary("equal", math_ops.equal, "x1 == x2")
not_equal = _binary("not_equal", math_ops.not_equal, "x1 != x2")
def _ordered(fn):
    def f(a, b):
        if a.dtype.is_bool:
            a, b = math_ops.cast(a, dtypes.int32), math_ops.cast(b, dtypes.int32)
        return fn(a, b)
    return f


greater = _binary("greater", _ordered(math_ops.greater), "x1 > x2")
greater_equal = _binary("greater_equal", _ordered(math_ops.greater_equal), "x1 >= x2")
less = _binary("less", _ordered(math_ops.less), "x1 < x2")
less_equal = _binary("less_equal", _ordered(math_ops.less_equal), "x1 <= x2")


def _logical(name, fn):
    def f(x1, x2):
        return fn(asarray(x1, dtypes.bool), asarray(x2, dtypes.bool))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(x1, x2)`: of the operands' truth values."
    return f


logical_and = _logical("logical_and", math_ops.logical_and)
logical_or = _logical("logical_or", math_ops.logical_or)
logical_xor = _logical("logical_xor", bitwise_ops.logical_xor)


def logical_not(x):
    """`tnp.logical_not(x)`: not x, elementwise."""
    return math_ops.logical_not(asarray(x, dtypes.bool))


def _bitwise(name, int_fn, bool_fn):
    def f(x1, x2):
        a, b = promote(x1, x2)
        if not (a.dtype.is_integer or a.dtype.is_bool):
            raise TypeError(f"tnp.{name}: operands must be integers or bools, got "
                            f"{a.dtype.name}")
        return (bool_fn if a.dtype.is_bool else int_fn)(a, b)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}(x1, x2)`: bitwise on integers, logical on bools."
    return f


bitwise_and = _bitwise("bitwise_and", bitwise_ops.bitwise_and, math_ops.logical_and)
bitwise_or = _bitwise("bitwise_or", bitwise_ops.bitwise_or, math_ops.logical_or)
bitwise_xor = _bitwise("bitwise_xor", bitwise_ops.bitwise_xor, bitwise_ops.logical_xor)


def bitwise_not(x):
    """`tnp.bitwise_not(x)`: ~x on integers, not x on bools."""
    x = asarray(x)
    if x.dtype.is_bool:
        return math_ops.logical_not(x)
    if not x.dtype.is_integer:
        raise TypeError(f"tnp.bitwise_not: x must be integers or bools, got {x.dtype.name}")
    return bitwise_ops.invert(x)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """`tnp.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)`:
    |a - b| <= atol + rtol * |b| (so inf is not close to inf, as in TF 2.21)."""
    a, b = promote(a, b)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return math_ops.equal(a, b)
    real = math_ops.abs(a).dtype
    out = math_ops.less_equal(math_ops.abs(a - b),
                              asarray(atol, real) + asarray(rtol, real) * math_ops.abs(b))
    if equal_nan:
        out = math_ops.logical_or(out, math_ops.logical_and(math_ops.is_nan(math_ops.abs(a)),
                                                            math_ops.is_nan(math_ops.abs(b))))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """`tnp.allclose(...)`: whether isclose holds everywhere (a bool tensor)."""
    return reduction_ops.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    """`tnp.array_equal(a1, a2)`: same shape and elements (a bool tensor)."""
    a, b = promote(a1, a2)
    if a.shape.as_list() != b.shape.as_list():
        return asarray(False)
    return reduction_ops.reduce_all(math_ops.equal(a, b))


# -- one operand --------------------------------------------------------------------

_LN2, _LN10 = math.log(2.0), math.log(10.0)

exp = _unary("exp", math_ops.exp, True, "e ** x")
exp2 = _unary("exp2", lambda x: math_ops.pow(math_ops.cast(2, x.dtype), x), True, "2 ** x")
expm1 = _unary("expm1", math_ops.expm1, True, "exp(x) - 1")
log = _unary("log", math_ops.log, True, "the natural logarithm")
log2 = _unary("log2", lambda x: math_ops.log(x) / _LN2, True, "the base-2 logarithm")
log10 = _unary("log10", lambda x: math_ops.log(x) / _LN10, True, "the base-10 logarithm")
log1p = _unary("log1p", math_ops.log1p, True, "log(1 + x)")
sqrt = _unary("sqrt", math_ops.sqrt, True, "the square root")
sin = _unary("sin", math_ops.sin, True, "the sine")
cos = _unary("cos", math_ops.cos, True, "the cosine")
tan = _unary("tan", math_ops.tan, True, "the tangent")
sinh = _unary("sinh", math_ops.sinh, True, "the hyperbolic sine")
cosh = _unary("cosh", math_ops.cosh, True, "the hyperbolic cosine")
tanh = _unary("tanh", math_ops.tanh, True, "the hyperbolic tangent")
arcsin = _unary("arcsin", math_ops.asin, True, "the inverse sine")
arccos = _unary("arccos", math_ops.acos, True, "the inverse cosine")
arctan = _unary("arctan", math_ops.atan, True, "the inverse tangent")
arcsinh = _unary("arcsinh", math_ops.asinh, True, "the inverse hyperbolic sine")
arccosh = _unary("arccosh", math_ops.acosh, True, "the inverse hyperbolic cosine")
arctanh = _unary("arctanh", math_ops.atanh, True, "the inverse hyperbolic tangent")
deg2rad = _unary("deg2rad", lambda x: x * (math.pi / 180.0), True, "degrees to radians")
rad2deg = _unary("rad2deg", lambda x: x * (180.0 / math.pi), True, "radians to degrees")
ceil = _unary("ceil", math_ops.ceil, True, "rounded up")
floor = _unary("floor", math_ops.floor, True, "rounded down")
fix = _unary("fix", lambda x: math_ops.where(math_ops.less(x, 0), math_ops.ceil(x),
                                             math_ops.floor(x)), True, "rounded towards zero")
cbrt = _unary("cbrt", lambda x: math_ops.sign(x) * math_ops.pow(math_ops.abs(x),
                                                                math_ops.cast(1 / 3, x.dtype)),
              True, "the cube root")
isnan = _unary("isnan", math_ops.is_nan, True, "whether x is NaN")
isinf = _unary("isinf", math_ops.is_inf, True, "whether x is +-inf")
isfinite = _unary("isfinite", math_ops.is_finite, True, "whether x is finite")
isposinf = _unary("isposinf", lambda x: math_ops.logical_and(math_ops.is_inf(x),
                                                             math_ops.greater(x, 0)),
                  True, "whether x is +inf")
isneginf = _unary("isneginf", lambda x: math_ops.logical_and(math_ops.is_inf(x),
                                                             math_ops.less(x, 0)),
                  True, "whether x is -inf")


def _sinc(x):
    zero = math_ops.equal(x, 0)
    safe = math_ops.where(zero, array_ops.ones_like(x), x) * math.pi
    return math_ops.where(zero, array_ops.ones_like(x), math_ops.sin(safe) / safe)


sinc = _unary("sinc", _sinc, True, "sin(pi x) / (pi x), 1 at 0")


def _keep_bool(fn):
    return lambda x: x if x.dtype.is_bool else fn(x)


abs = _unary("abs", _keep_bool(math_ops.abs), False, "|x|")  # noqa: A001
absolute = _unary("absolute", _keep_bool(math_ops.abs), False, "|x|")
fabs = _unary("fabs", _keep_bool(math_ops.abs), False, "|x|")
negative = _unary("negative", math_ops.negative, False, "-x")
positive = _unary("positive", lambda x: x, False, "+x")
square = _unary("square", lambda x: math_ops.square(
    math_ops.cast(x, dtypes.int8) if x.dtype.is_bool else x), False, "x * x (int8 for bools)")
reciprocal = _unary("reciprocal", lambda x: math_ops.truncatediv(array_ops.ones_like(x), x)
                    if x.dtype.is_integer else math_ops.reciprocal(x), False,
                    "1 / x (truncated for integers)")
conj = _unary("conj", complex_ops.conj, False, "the complex conjugate")
conjugate = _unary("conjugate", complex_ops.conj, False, "the complex conjugate")
signbit = _unary("signbit", lambda x: math_ops.zeros_like(x, dtype=dtypes.bool)
                 if x.dtype.is_bool else math_ops.less(x, 0), False,
                 "x < 0 (False for -0.0, as in TF 2.21)")


def sign(x, out=None, where=None, **kwargs):
    """`tnp.sign(x)`: -1, 0 or 1 (x / |x| for complex)."""
    if out is not None or where is not None or kwargs:
        raise ValueError("tnp.sign: the `out` and `where` arguments are not supported "
                         "(as in TensorFlow)")
    return math_ops.sign(asarray(x))


def real(val):
    """`tnp.real(val)`: the real part (val itself when not complex)."""
    val = asarray(val)
    return complex_ops.real(val) if val.dtype.is_complex else val


def imag(val):
    """`tnp.imag(val)`: the imaginary part (zeros when not complex)."""
    val = asarray(val)
    return complex_ops.imag(val) if val.dtype.is_complex else array_ops.zeros_like(val)


def angle(z, deg=False):
    """`tnp.angle(z, deg=False)`: the argument of z; for reals pi or 0 as
    float32, as TF 2.21 gives."""
    z = as_float(z)
    if z.dtype.is_complex:
        out = complex_ops.angle(z)
    else:
        out = math_ops.where(math_ops.less(z, 0), asarray(np.pi, dtypes.float32),
                             asarray(0.0, dtypes.float32))
    return out * math_ops.cast(180.0 / math.pi, out.dtype) if deg else out


def iscomplex(x):
    """`tnp.iscomplex(x)`: whether each element has a nonzero imaginary part."""
    x = asarray(x)
    if not x.dtype.is_complex:
        return array_ops.zeros_like(x, dtype=dtypes.bool)
    return math_ops.not_equal(complex_ops.imag(x), 0)


def isreal(x):
    """`tnp.isreal(x)`: whether each element's imaginary part is zero."""
    x = asarray(x)
    if not x.dtype.is_complex:
        return array_ops.ones_like(x, dtype=dtypes.bool)
    return math_ops.equal(complex_ops.imag(x), 0)


def iscomplexobj(x):
    """`tnp.iscomplexobj(x)`: whether x's dtype is complex (a Python bool)."""
    return bool(np.issubdtype(np_result_type(x), np.complexfloating))


def isrealobj(x):
    """`tnp.isrealobj(x)`: not iscomplexobj(x)."""
    return not iscomplexobj(x)


def around(a, decimals=0):
    """`tnp.around(a, decimals=0)`: round(a * 10**decimals) / 10**decimals,
    computed in float64 for integers and cast back to a's dtype, as TF 2.21
    does (so around([123], -1) is 119: 12.0 / 0.1 truncated)."""
    a = asarray(a)
    dtype = a.dtype
    if not (dtype.is_floating or dtype.is_complex):
        a = math_ops.cast(a, _FLOAT)
    factor = math_ops.cast(10.0 ** decimals, a.dtype)
    out = math_ops.round(a * factor) / factor
    return out if out.dtype == dtype else math_ops.cast(out, dtype)


round = around  # noqa: A001 - NumPy's name
