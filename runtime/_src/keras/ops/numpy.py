"""`keras.ops.numpy`: NumPy's functions with Keras 3's dtype rules.

Each is a thin layer over the runtime's ops (differentiable, traceable by
`tf.function`) and records an Operation when given KerasTensors. Dtypes
follow Keras, not NumPy: Python floats are float32, ints int32, two
operands promote by `result_type`, the float functions (exp, sqrt, mean...)
give float32 for ints and bools, and `sum` of bool/int8/int16 is int32.

    ops.mean(ops.arange(4), axis=0)          # 1.5, float32
"""

import builtins
import math

import numpy as np

from runtime._src.core.tensor import Tensor
from runtime._src.keras.backend.keras_tensor import KerasTensor
from runtime._src.keras.ops.operation import (cast_to, dtype_of, floatx, keras_op,
                                              result_type, standardize_dtype, tensor, to_float)
from runtime._src.keras.ops.tfops import tf
from runtime._src.ops import np_array_ops as tnp_array  # tnp's kernels, shared
from runtime._src.ops import np_math_ops as tnp_math
from runtime._src.ops import np_reduce_ops as tnp_reduce
from runtime._src.ops import np_select_ops as tnp_select

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _pair(x1, x2):
    """Both operands as tensors of Keras's promoted dtype."""
    dtype = result_type(x1, x2)
    return tensor(x1, dtype), tensor(x2, dtype)


_WIDE_INTS = ("int64", "uint32", "uint64")


def _float_of(dtype_name):
    """The float Keras computes an int in: float64 for the wide ints."""
    return "float64" if dtype_name in _WIDE_INTS else floatx()


def _binary(name, tf_fn, out_dtype=None, floating=False, strong=False, wide=False,
            small_int=False):
    """An elementwise op of two operands. `strong`: Python scalars count as
    int32/float32 (not weak); `floating`: ints computed as float (`wide`:
    int64 as float64); `small_int`: int8/int16/uint/bool computed in int32
    and cast back."""
    def fn(x1, x2):
        if strong:
            x1 = tensor(x1) if isinstance(x1, (int, float)) else x1
            x2 = tensor(x2) if isinstance(x2, (int, float)) else x2
        a, b = _pair(x1, x2)
        if floating and not a.dtype.is_floating:
            target = _float_of(a.dtype.name) if wide else floatx()
            a, b = cast_to(a, target), cast_to(b, target)
        if small_int and a.dtype.name in ("int8", "int16", "uint8", "uint16", "bool"):
            dtype = "int32" if a.dtype.is_bool else a.dtype.name
            out = tf_fn(cast_to(a, "int32"), cast_to(b, "int32"))
            return cast_to(out, dtype)
        out = tf_fn(a, b)
        return out if out_dtype is None else cast_to(out, out_dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x1, x2)`, elementwise with Keras's promotion."
    return _export(keras_op(fn))


def _divide(a, b):
    return tf.truediv(a, b)


def _floor_divide(a, b):
    return tf.floordiv(a, b)


def _power(a, b):
    return tf.pow(a, b)


def _hypot(a, b):
    total = a * a + b * b
    positive = total > 0
    root = tf.sqrt(tf.where(positive, total, tf.ones_like(total)))
    return tf.where(positive, root, tf.zeros_like(total))


def _heaviside(a, b):
    return tf.where(a < 0, tf.zeros_like(a), tf.where(a > 0, tf.ones_like(a), b))


def _logaddexp(a, b):
    big = tf.maximum(a, b)
    return big + tf.log1p(tf.exp(-tf.abs(a - b)))


def _signbit(x):
    if not x.dtype.is_floating:
        return x < 0
    return tf.py_signbit(x) if hasattr(tf, "py_signbit") else tf.logical_or(
        x < 0, tf.logical_and(tf.equal(x, 0), tf.less(tf.truediv(tf.ones_like(x), x), 0)))


add = _binary("add", tf.add)
subtract = _binary("subtract", tf.subtract)
multiply = _binary("multiply", tf.multiply)
maximum = _binary("maximum", tf.maximum)
minimum = _binary("minimum", tf.minimum)
floor_divide = _binary("floor_divide", _floor_divide)
mod = _binary("mod", tf.floormod, strong=True, small_int=True)
power = _binary("power", _power)
equal = _binary("equal", tf.equal)
not_equal = _binary("not_equal", tf.not_equal)
greater = _binary("greater", tf.greater)
greater_equal = _binary("greater_equal", tf.greater_equal)
less = _binary("less", tf.less)
less_equal = _binary("less_equal", tf.less_equal)
divide = _binary("divide", _divide, floating=True)
true_divide = _binary("true_divide", _divide, floating=True)
arctan2 = _binary("arctan2", tf.atan2, floating=True, strong=True)
hypot = _binary("hypot", _hypot, floating=True, strong=True, wide=True)
logaddexp = _binary("logaddexp", _logaddexp, floating=True, strong=True)
heaviside = _binary("heaviside", _heaviside, floating=True, strong=True, wide=True)


def _logical(name, tf_fn):
    def fn(x1, x2):
        return tf_fn(cast_to(tensor(x1), "bool"), cast_to(tensor(x2), "bool"))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x1, x2)`: elementwise, the operands as bools."
    return _export(keras_op(fn))


logical_and = _logical("logical_and", tf.logical_and)
logical_or = _logical("logical_or", tf.logical_or)
logical_xor = _logical("logical_xor", tf.logical_xor)


def _unary(name, tf_fn, floating=True, out_dtype=None, wide=False):
    def fn(x):
        if wide:
            x = tensor(x)
            x = x if x.dtype.is_floating else cast_to(x, _float_of(x.dtype.name))
        x = to_float(x) if floating else tensor(x)
        out = tf_fn(x)
        return out if out_dtype is None else cast_to(out, out_dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x)`, elementwise" + (
        "; ints and bools give float32." if floating else ".")
    return _export(keras_op(fn))


_LN2, _LN10 = math.log(2.0), math.log(10.0)
exp = _unary("exp", tf.exp)
exp2 = _unary("exp2", lambda x: tf.exp(x * _LN2))
expm1 = _unary("expm1", tf.expm1)
log = _unary("log", tf.log)
log2 = _unary("log2", lambda x: tf.log(x) / _LN2)
log10 = _unary("log10", lambda x: tf.log(x) / _LN10)
log1p = _unary("log1p", tf.log1p)
sqrt = _unary("sqrt", tf.sqrt)
sin = _unary("sin", tf.sin)
cos = _unary("cos", tf.cos)
tan = _unary("tan", tf.tan)
arcsin = _unary("arcsin", tf.asin)
arccos = _unary("arccos", tf.acos)
arctan = _unary("arctan", tf.atan)
sinh = _unary("sinh", tf.sinh)
cosh = _unary("cosh", tf.cosh)
tanh = _unary("tanh", tf.tanh)
arcsinh = _unary("arcsinh", tf.asinh)
arccosh = _unary("arccosh", tf.acosh)
arctanh = _unary("arctanh", tf.atanh)
reciprocal = _unary("reciprocal", tf.reciprocal)
deg2rad = _unary("deg2rad", lambda x: x * (math.pi / 180.0), wide=True)
rad2deg = _unary("rad2deg", lambda x: x * (180.0 / math.pi), wide=True)
negative = _unary("negative", tf.negative, floating=False)
square = _unary("square", lambda x: tf.square(cast_to(x, "int32")) if x.dtype.is_bool
                else tf.square(x), floating=False)
sign = _unary("sign", tf.sign, floating=False)
floor = _unary("floor", tf.floor)
ceil = _unary("ceil", tf.ceil)
trunc = _unary("trunc", lambda x: x if not x.dtype.is_floating
               else tf.where(x < 0, tf.ceil(x), tf.floor(x)), floating=False)
logical_not = _unary("logical_not", lambda x: tf.logical_not(cast_to(x, "bool")),
                     floating=False)
isnan = _unary("isnan", lambda x: tf.is_nan(x) if x.dtype.is_floating
               else tf.zeros_like(x, dtype="bool"), floating=False)
isinf = _unary("isinf", lambda x: tf.is_inf(x) if x.dtype.is_floating
               else tf.zeros_like(x, dtype="bool"), floating=False)
isfinite = _unary("isfinite", lambda x: tf.is_finite(x) if x.dtype.is_floating
                  else tf.ones_like(x, dtype="bool"), floating=False)
signbit = _unary("signbit", _signbit, floating=False)


@_export
@keras_op
def abs(x):  # noqa: A001 (Keras's name)
    """`keras.ops.abs(x)`: |x|, in x's dtype (bools unchanged)."""
    x = tensor(x)
    return x if x.dtype.is_bool else tf.abs(x)


@_export
@keras_op
def absolute(x):
    """`keras.ops.absolute(x)`: |x|, as `abs`."""
    return tf.abs(tensor(x))


@_export
@keras_op
def round(x, decimals=0):  # noqa: A001
    """`keras.ops.round(x, decimals=0)`: half to even, as NumPy."""
    x = tensor(x)
    if decimals == 0 or not x.dtype.is_floating:
        return tf.round(x) if x.dtype.is_floating else x
    factor = 10.0 ** decimals
    return tf.round(x * factor) / factor


@_export
@keras_op
def clip(x, x_min, x_max):
    """`keras.ops.clip(x, x_min, x_max)`; bool clips as int32."""
    x = tensor(x)
    if x.dtype.is_bool:
        x = cast_to(x, "int32")
    return tf.clip_by_value(x, cast_to(tensor(x_min), x.dtype), cast_to(tensor(x_max), x.dtype))


# -- reductions ---------------------------------------------------------------

def _axis(axis):
    if isinstance(axis, (list, tuple)):
        return list(axis)
    return axis


def _sum_dtype(x):
    name = x.dtype.name
    if name in ("bool", "int8", "int16"):
        return "int32"
    if name in ("uint8", "uint16"):
        return "uint32"
    return name


def _via_int64(reduce_fn, x, dtype, **kwargs):
    """reduce_fn of x in `dtype`; unsigned results computed in int64 (the
    runtime has no uint32 kernels) and cast back."""
    if dtype.startswith("uint"):
        return cast_to(reduce_fn(cast_to(x, "int64"), **kwargs), dtype)
    return reduce_fn(cast_to(x, dtype), **kwargs)


@_export
@keras_op
def sum(x, axis=None, keepdims=False):  # noqa: A001
    """`keras.ops.sum(x, axis=None, keepdims=False)`; bool/int8/int16 sum as
    int32, uint8/uint16 as uint32."""
    x = tensor(x)
    return _via_int64(tf.reduce_sum, x, _sum_dtype(x), axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def prod(x, axis=None, keepdims=False, dtype=None):
    """`keras.ops.prod(x, axis=None, keepdims=False, dtype=None)`."""
    x = tensor(x)
    return _via_int64(tf.reduce_prod, x, standardize_dtype(dtype) if dtype else _sum_dtype(x),
                      axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def mean(x, axis=None, keepdims=False):
    """`keras.ops.mean(x, axis=None, keepdims=False)`: ints and bools give
    float32; float16 is averaged in float32."""
    x = tensor(x)
    out_dtype = x.dtype.name if x.dtype.is_floating else floatx()
    compute = "float32" if out_dtype in ("float16", "bfloat16") else out_dtype
    out = tf.reduce_mean(cast_to(x, compute), axis=_axis(axis), keepdims=keepdims)
    return cast_to(out, out_dtype)


def _minmax(name, tf_fn):
    def fn(x, axis=None, keepdims=False, initial=None):
        x = tensor(x)
        if x.dtype.is_bool:
            pick = tf.reduce_any if name in ("max", "amax") else tf.reduce_all
            return pick(x, axis=_axis(axis), keepdims=keepdims)
        out = tf_fn(x, axis=_axis(axis), keepdims=keepdims)
        if initial is not None:
            pick = tf.maximum if name == "max" else tf.minimum
            out = pick(out, cast_to(tensor(initial), out.dtype))
        return out
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, keepdims=False, initial=None)`."
    return _export(keras_op(fn))


max = _minmax("max", tf.reduce_max)  # noqa: A001
min = _minmax("min", tf.reduce_min)  # noqa: A001
amax = _minmax("amax", tf.reduce_max)
amin = _minmax("amin", tf.reduce_min)


@_export
@keras_op
def var(x, axis=None, keepdims=False):
    """`keras.ops.var(x, axis=None, keepdims=False)`: population variance, float."""
    x = to_float(x)
    return tf.reduce_variance(x, axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def std(x, axis=None, keepdims=False):
    """`keras.ops.std(x, axis=None, keepdims=False)`: population deviation, float."""
    return tf.sqrt(var(x, axis=axis, keepdims=keepdims))


@_export
@keras_op
def all(x, axis=None, keepdims=False):  # noqa: A001
    """`keras.ops.all(x, axis=None, keepdims=False)`: x as bools."""
    return tf.reduce_all(cast_to(tensor(x), "bool"), axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def any(x, axis=None, keepdims=False):  # noqa: A001
    """`keras.ops.any(x, axis=None, keepdims=False)`: x as bools."""
    return tf.reduce_any(cast_to(tensor(x), "bool"), axis=_axis(axis), keepdims=keepdims)


def _arg(name, tf_fn):
    def fn(x, axis=None, keepdims=False):
        x = tensor(x)
        if x.dtype.is_bool:
            x = cast_to(x, "int32")
        if axis is None:
            out = tf_fn(tf.reshape(x, [-1]), axis=0, output_type="int32")
            if keepdims:
                out = tf.reshape(out, [1] * len(x.shape))
            return out
        out = tf_fn(x, axis=axis, output_type="int32")
        return tf.expand_dims(out, axis) if keepdims else out
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, keepdims=False)`: int32 indices."
    return _export(keras_op(fn))


argmax = _arg("argmax", tf.argmax)
argmin = _arg("argmin", tf.argmin)


def _cumulative(name, tf_fn):
    def fn(x, axis=None, dtype=None):
        x = tensor(x)
        dtype = standardize_dtype(dtype) if dtype else "int32" if x.dtype.is_bool \
            else x.dtype.name
        if axis is None:
            x, axis = tf.reshape(x, [-1]), 0
        if dtype in ("int8", "int16", "uint8", "uint16", "uint32"):
            return cast_to(tf_fn(cast_to(x, "int64"), axis=axis), dtype)
        return tf_fn(cast_to(x, dtype), axis=axis)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, dtype=None)`: flattened when axis is None."
    return _export(keras_op(fn))


cumsum = _cumulative("cumsum", tf.cumsum)
cumprod = _cumulative("cumprod", tf.cumprod)


@_export
@keras_op
def count_nonzero(x, axis=None):
    """`keras.ops.count_nonzero(x, axis=None)`: int32 counts."""
    return cast_to(tf.count_nonzero(tensor(x), axis=_axis(axis)), "int32")


# -- creation -----------------------------------------------------------------

def _shape(shape):
    return [int(shape)] if isinstance(shape, (int, np.integer)) else list(shape)


@_export
def zeros(shape, dtype=None):
    """`keras.ops.zeros(shape, dtype=None)`: float32 by default."""
    return tf.zeros(_shape(shape), dtype=standardize_dtype(dtype))


@_export
def ones(shape, dtype=None):
    """`keras.ops.ones(shape, dtype=None)`: float32 by default."""
    return tf.ones(_shape(shape), dtype=standardize_dtype(dtype))


@_export
@keras_op
def full(shape, fill_value, dtype=None):
    """`keras.ops.full(shape, fill_value, dtype=None)`."""
    dtype = standardize_dtype(dtype)
    return tf.broadcast_to(tensor(fill_value, dtype), _shape(shape))


def _like(name, value):
    def fn(x, dtype=None):
        x = tensor(x)
        dtype = standardize_dtype(dtype) if dtype else x.dtype.name
        return tf.fill(tf.shape(x), tensor(value, dtype)) if value else \
            tf.zeros_like(x, dtype=dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, dtype=None)`."
    return _export(keras_op(fn))


zeros_like = _like("zeros_like", 0)
ones_like = _like("ones_like", 1)


@_export
@keras_op
def full_like(x, fill_value, dtype=None):
    """`keras.ops.full_like(x, fill_value, dtype=None)`: x's dtype by default."""
    x = tensor(x)
    dtype = standardize_dtype(dtype) if dtype else x.dtype.name
    return tf.fill(tf.shape(x), tensor(fill_value, dtype))


@_export
def arange(start, stop=None, step=None, dtype=None):
    """`keras.ops.arange(start, stop=None, step=1, dtype=None)`, as NumPy's;
    int32 for ints, float32 once any bound is a float."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        dtype = result_type(*[v if isinstance(v, (int, float)) else tensor(v)
                              for v in (start, stop, step)])
    dtype = standardize_dtype(dtype)
    return tf.range(tensor(start, dtype), tensor(stop, dtype), tensor(step, dtype), dtype=dtype)


@_export
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`keras.ops.linspace(start, stop, num=50, endpoint=True, retstep=False,
    dtype=None, axis=0)`: float32 unless `dtype`."""
    dtype = standardize_dtype(dtype) if dtype else floatx()
    start, stop = to_float(start), to_float(stop)
    start, stop = start + tf.zeros_like(stop), stop + tf.zeros_like(start)
    div = (num - 1) if endpoint else num
    step = (stop - start) / float(builtins.max(div, 1))
    steps = tf.reshape(tf.range(0.0, float(num), 1.0, dtype=start.dtype),
                       [num] + [1] * len(start.shape))
    out = start + steps * step
    if endpoint and num > 1:
        out = tf.concat([out[:-1], tf.expand_dims(stop, 0)], axis=0)
    out = cast_to(out, dtype)
    if axis != 0 and len(out.shape) > 1:
        out = moveaxis(out, 0, axis)
    return (out, step) if retstep else out


@_export
def eye(N, M=None, k=0, dtype=None):  # noqa: N803 (Keras's names)
    """`keras.ops.eye(N, M=None, k=0, dtype=None)`: float32 by default."""
    return tensor(np.eye(N, M, k), standardize_dtype(dtype))


@_export
def identity(n, dtype=None):
    """`keras.ops.identity(n, dtype=None)`: the n×n identity matrix."""
    return eye(n, dtype=dtype)


@_export
@keras_op
def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """`keras.ops.tri(N, M=None, k=0, dtype=None)`: ones at and below diagonal k."""
    return tensor(np.tri(N, M, k), standardize_dtype(dtype))


def _triangle(name, kernel):
    def fn(x, k=0):
        return kernel(tensor(x), k)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, k=0)`."
    return _export(keras_op(fn))


tril = _triangle("tril", tnp_array.tril)
triu = _triangle("triu", tnp_array.triu)


# -- shapes -------------------------------------------------------------------

@_export
@keras_op
def reshape(x, newshape):
    """`keras.ops.reshape(x, newshape)`."""
    return tf.reshape(tensor(x), _shape(newshape))


@_export
@keras_op
def transpose(x, axes=None):
    """`keras.ops.transpose(x, axes=None)`: reversed axes by default."""
    return tf.transpose(tensor(x), perm=None if axes is None else list(axes))


@_export
@keras_op
def expand_dims(x, axis):
    """`keras.ops.expand_dims(x, axis)`; axis may be a tuple."""
    return tnp_array.expand_dims(tensor(x), axis)


@keras_op(name="squeeze")
def _squeeze(x, axis=None):
    axes = None if axis is None else list(axis) if isinstance(axis, (list, tuple)) else [axis]
    return tf.squeeze(tensor(x), axis=axes)


@_export
def squeeze(x, axis=None):
    """`keras.ops.squeeze(x, axis=None)`; on a KerasTensor with unknown sizes,
    axis=None squeezes its static 1s (Keras 3.15: (None, 2, 2, 1) -> (None, 2, 2))."""
    if axis is None and isinstance(x, KerasTensor) and None in x.shape:
        axis = tuple(i for i, d in enumerate(x.shape) if d == 1)
    return _squeeze(x, axis)


def _promote_all(xs):
    dtype = result_type(*xs)
    return [tensor(x, dtype) for x in xs]


@_export
@keras_op
def concatenate(xs, axis=0):
    """`keras.ops.concatenate(xs, axis=0)`, promoted to a common dtype."""
    return tf.concat(_promote_all(list(xs)), axis=axis)


@_export
@keras_op
def stack(x, axis=0):
    """`keras.ops.stack(x, axis=0)`."""
    return tf.stack(_promote_all(list(x)), axis=axis)


@_export
@keras_op
def vstack(xs):
    """`keras.ops.vstack(xs)`: concatenated along axis 0 (Keras 3.15 on TF
    gives shape (8,) for two 1-D arrays of 4, not NumPy's (2, 4))."""
    return tf.concat(_promote_all(list(xs)), axis=0)


@_export
@keras_op
def hstack(xs):
    """`keras.ops.hstack(xs)`: along axis 1, or 0 for 1-D arrays."""
    xs = _promote_all(list(xs))
    return tf.concat(xs, axis=0 if len(xs[0].shape) == 1 else 1)


@_export
@keras_op
def tile(x, repeats):
    """`keras.ops.tile(x, repeats)`, as NumPy's (repeats may be longer or shorter)."""
    return tnp_array.tile(tensor(x), repeats)


@_export
@keras_op
def repeat(x, repeats, axis=None):
    """`keras.ops.repeat(x, repeats, axis=None)`: flattened when axis is None."""
    return tnp_array.repeat(tensor(x), repeats, axis)


@_export
@keras_op
def flip(x, axis=None):
    """`keras.ops.flip(x, axis=None)`: all axes by default."""
    return tnp_array.flip(tensor(x), axis)


@_export
@keras_op
def roll(x, shift, axis=None):
    """`keras.ops.roll(x, shift, axis=None)`: flattened when axis is None."""
    return tnp_array.roll(tensor(x), shift, axis)


@_export
@keras_op
def ravel(x):
    """`keras.ops.ravel(x)`: x flattened."""
    return tnp_array.ravel(tensor(x))


@_export
@keras_op
def swapaxes(x, axis1, axis2):
    """`keras.ops.swapaxes(x, axis1, axis2)`."""
    return tnp_array.swapaxes(tensor(x), axis1, axis2)


@_export
@keras_op
def moveaxis(x, source, destination):
    """`keras.ops.moveaxis(x, source, destination)`."""
    return tnp_array.moveaxis(tensor(x), source, destination)


@_export
@keras_op
def split(x, indices_or_sections, axis=0):
    """`keras.ops.split(x, indices_or_sections, axis=0)`: a list, as NumPy's."""
    x = tensor(x)
    if isinstance(indices_or_sections, (int, np.integer)):
        return list(tf.split(x, int(indices_or_sections), axis=axis))
    size = x.shape.as_list()[axis]
    bounds = [0] + list(indices_or_sections) + [size]
    return list(tf.split(x, [b - a for a, b in zip(bounds, bounds[1:])], axis=axis))


@_export
@keras_op
def pad(x, pad_width, mode="constant", constant_values=None):
    """`keras.ops.pad(x, pad_width, mode="constant", constant_values=None)`."""
    x = tensor(x)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (len(x.shape), 2))
    kwargs = {} if constant_values is None else {"constant_values": constant_values}
    return tf.pad(x, widths.tolist(), mode=mode.upper(), **kwargs)


@_export
@keras_op
def broadcast_to(x, shape):
    """`keras.ops.broadcast_to(x, shape)`."""
    return tf.broadcast_to(tensor(x), _shape(shape))


@_export
def ndim(x):
    """`keras.ops.ndim(x)`: the rank as an int."""
    if hasattr(x, "shape") and isinstance(x.shape, tuple):
        return len(x.shape)
    return len(tensor(x).shape)


@_export
@keras_op
def size(x):
    """`keras.ops.size(x)`: the number of elements, int32."""
    return cast_to(tf.size(tensor(x)), "int32")


# -- indexing and selection --------------------------------------------------

@_export
@keras_op
def where(condition, x1=None, x2=None):
    """`keras.ops.where(condition, x1, x2)`; with only a condition, a tuple of
    int32 index arrays (NumPy's nonzero)."""
    cond = cast_to(tensor(condition), "bool")
    if x1 is None and x2 is None:
        return nonzero(cond)
    a, b = _pair(x1, x2)
    return tf.where(cond, a, b)


@_export
@keras_op
def nonzero(x):
    """`keras.ops.nonzero(x)`: a tuple of int32 index arrays, one per axis."""
    x = tensor(x)
    idx = cast_to(tf.where(tf.not_equal(x, tf.zeros_like(x))), "int32")
    return tuple(idx[:, i] for i in range(len(x.shape)))


@_export
@keras_op
def take(x, indices, axis=None):
    """`keras.ops.take(x, indices, axis=None)`: flattened when axis is None;
    negative indices count from the end."""
    x = tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    indices = tensor(indices)
    if not indices.dtype.is_integer:
        indices = cast_to(indices, "int32")
    size_ = tf.shape(x)[axis]
    indices = tf.where(indices < 0, indices + cast_to(size_, indices.dtype), indices)
    return tf.gather(x, indices, axis=axis)


@_export
@keras_op
def take_along_axis(x, indices, axis=None):
    """`keras.ops.take_along_axis(x, indices, axis=None)`, as NumPy's."""
    return tnp_select.take_along_axis(tensor(x), cast_to(tensor(indices), "int32"), axis)


@_export
@keras_op
def sort(x, axis=-1):
    """`keras.ops.sort(x, axis=-1)`: ascending."""
    x = tensor(x)
    if x.dtype.is_bool:
        return cast_to(tf.sort(cast_to(x, "int32"), axis=axis), "bool")
    return tf.sort(x, axis=axis)


@_export
@keras_op
def argsort(x, axis=-1):
    """`keras.ops.argsort(x, axis=-1)`: stable, int32."""
    x = tensor(x)
    if x.dtype.is_bool:
        x = cast_to(x, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return cast_to(tf.argsort(x, axis=axis, stable=True), "int32")


# -- linear algebra -----------------------------------------------------------

@_export
@keras_op
def matmul(x1, x2):
    """`keras.ops.matmul(x1, x2)`: NumPy's, 1-D operands included; ints
    and int8 give int32."""
    a, b = _pair(x1, x2)
    dtype = a.dtype.name
    if dtype in ("int8", "int16", "uint8", "uint16", "bool"):
        out = matmul(cast_to(a, "int32"), cast_to(b, "int32"))
        return tf.greater(out, 0) if dtype == "bool" else cast_to(out, dtype)
    vec_a, vec_b = len(a.shape) == 1, len(b.shape) == 1
    if vec_a:
        a = tf.expand_dims(a, 0)
    if vec_b:
        b = tf.expand_dims(b, 1)
    out = tf.matmul(a, b)
    if vec_a:
        out = tf.squeeze(out, [-2])
    if vec_b:
        out = tf.squeeze(out, [-1])
    return out


@_export
@keras_op
def dot(x1, x2):
    """`keras.ops.dot(x1, x2)`: NumPy's dot."""
    a, b = _pair(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    if len(b.shape) <= 2:
        return matmul(a, b)
    return tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 2]])


@_export
@keras_op
def vdot(x1, x2):
    """`keras.ops.vdot(x1, x2)`: the inner product of the flattened operands."""
    a, b = _pair(x1, x2)
    return tf.reduce_sum(tf.reshape(a, [-1]) * tf.reshape(b, [-1]))


@_export
@keras_op
def inner(x1, x2):
    """`keras.ops.inner(x1, x2)`: summed over the last axes."""
    a, b = _pair(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]])


@_export
@keras_op
def outer(x1, x2):
    """`keras.ops.outer(x1, x2)`: of the flattened operands."""
    a, b = _pair(x1, x2)
    if a.dtype.is_bool:
        return tf.logical_and(tf.reshape(a, [-1, 1]), tf.reshape(b, [1, -1]))
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1])


@_export
@keras_op
def tensordot(x1, x2, axes=2):
    """`keras.ops.tensordot(x1, x2, axes=2)`."""
    a, b = _pair(x1, x2)
    return tf.tensordot(a, b, axes)


@_export
@keras_op
def einsum(subscripts, *operands):
    """`keras.ops.einsum(subscripts, *operands)`; int8 operands give int32."""
    xs = _promote_all(list(operands))
    if xs[0].dtype.name in ("int8", "int16", "uint8", "bool"):
        xs = [cast_to(x, "int32") for x in xs]
    return tf.einsum(subscripts, *xs)


@_export
@keras_op
def trace(x, offset=0, axis1=0, axis2=1):
    """`keras.ops.trace(x, offset=0, axis1=0, axis2=1)`."""
    x = tensor(x)
    return _via_int64(tf.reduce_sum, diagonal(x, offset, axis1, axis2), _sum_dtype(x), axis=-1)


@_export
@keras_op
def diagonal(x, offset=0, axis1=0, axis2=1):
    """`keras.ops.diagonal(x, offset=0, axis1=0, axis2=1)`: the diagonal last."""
    x = tensor(x)
    rank = len(x.shape)
    a1, a2 = axis1 % rank, axis2 % rank
    perm = [i for i in range(rank) if i not in (a1, a2)] + [a1, a2]
    x = tf.transpose(x, perm)
    rows, cols = x.shape.as_list()[-2:]
    i = np.arange(builtins.max(0, builtins.min(rows, cols - offset) if offset >= 0
                               else builtins.min(rows + offset, cols)))
    r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
    flat = tf.reshape(x, tf.concat([tf.shape(x)[:-2], [rows * cols]], 0))
    return tf.gather(flat, tensor((r * cols + c).astype(np.int32)), axis=-1)


@_export
@keras_op
def diag(x, k=0):
    """`keras.ops.diag(x, k=0)`: a matrix from a vector, a diagonal from a matrix."""
    x = tensor(x)
    if len(x.shape) == 2:
        return diagonal(x, k)
    n = x.shape.as_list()[0] + builtins.abs(k)
    idx = np.arange(n - builtins.abs(k))
    pos = (idx + builtins.max(0, -k)) * n + idx + builtins.max(0, k)
    return tf.reshape(tf.scatter_nd(tensor(pos.reshape(-1, 1).astype(np.int32)), x,
                                    [n * n]), [n, n])


# -- misc ---------------------------------------------------------------------

@_export
@keras_op
def average(x, axis=None, weights=None):
    """`keras.ops.average(x, axis=None, weights=None)`: float."""
    x = to_float(x)
    if weights is None:
        return tf.reduce_mean(x, axis=axis)
    w = cast_to(tensor(weights), result_type(x, tensor(weights)))
    x = cast_to(x, w.dtype)
    if axis is not None and len(w.shape) == 1 and len(x.shape) > 1:
        shape_ = [1] * len(x.shape)
        shape_[axis] = -1
        w = tf.reshape(w, shape_)
    return tf.reduce_sum(x * w, axis=axis) / tf.reduce_sum(w * tf.ones_like(x), axis=axis)


@_export
@keras_op
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """`keras.ops.nan_to_num(x, nan=0.0, posinf=None, neginf=None)`."""
    x = tensor(x)
    if not x.dtype.is_floating:
        return x
    info = np.finfo(x.dtype.np_dtype)
    x = _nan_as(x, nan)
    big = tensor(info.max if posinf is None else posinf, x.dtype)
    small = tensor(info.min if neginf is None else neginf, x.dtype)
    x = tf.where(tf.logical_and(tf.is_inf(x), x > 0), tf.fill(tf.shape(x), big), x)
    return tf.where(tf.logical_and(tf.is_inf(x), x < 0), tf.fill(tf.shape(x), small), x)


@_export
@keras_op
def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """`keras.ops.isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False)`."""
    a, b = _pair(x1, x2)
    out = tf.abs(a - b) <= (atol + rtol * tf.abs(b))
    if equal_nan and a.dtype.is_floating:
        out = tf.logical_or(out, tf.logical_and(tf.is_nan(a), tf.is_nan(b)))
    return out


@_export
@keras_op
def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """`keras.ops.allclose(...)`: whether all elements are close."""
    return tf.reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


@_export
def array(x, dtype=None):
    """`keras.ops.array(x, dtype=None)`: a tensor, Keras's conversion."""
    return tensor(x, standardize_dtype(dtype) if dtype else None)


@_export
@keras_op
def copy(x):
    """`keras.ops.copy(x)`."""
    return tf.identity(tensor(x))


@_export
@keras_op
def meshgrid(*x, indexing="xy"):
    """`keras.ops.meshgrid(*x, indexing="xy")`."""
    return tf.meshgrid(*[tensor(v) for v in x], indexing=indexing)


@_export
@keras_op
def digitize(x, bins):
    """`keras.ops.digitize(x, bins)`: int32 bin indices (right=False)."""
    x, bins = tensor(x), tensor(bins)
    x = cast_to(x, result_type(x, bins))
    return cast_to(tf.searchsorted(cast_to(bins, x.dtype), tf.reshape(x, [-1]),
                                   side="right"), "int32") if len(x.shape) == 1 else \
        tf.reshape(cast_to(tf.searchsorted(cast_to(bins, x.dtype), tf.reshape(x, [-1]),
                                           side="right"), "int32"), tf.shape(x))


@_export
@keras_op
def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`keras.ops.logspace(...)`: base ** linspace(start, stop)."""
    return cast_to(tf.pow(tensor(float(base)), linspace(start, stop, num, endpoint)),
                   standardize_dtype(dtype) if dtype else floatx())


@_export
@keras_op
def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """`keras.ops.cross(x1, x2)` of 3-vectors along the last axis."""
    a, b = _pair(x1, x2)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


@_export
@keras_op
def median(x, axis=None, keepdims=False):
    """`keras.ops.median(x, axis=None, keepdims=False)`: float."""
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


@_export
@keras_op
def quantile(x, q, axis=None, method="linear", keepdims=False):
    """`keras.ops.quantile(x, q, axis=None, method="linear", keepdims=False)`."""
    x = to_float(x)
    rank = len(x.shape)
    if axis is None:
        flat, ax = tf.reshape(x, [-1]), 0
    else:
        ax = axis % rank
        perm = [i for i in range(rank) if i != ax] + [ax]
        flat, ax = tf.transpose(x, perm), rank - 1
    s = tf.sort(flat, axis=-1)
    n = s.shape.as_list()[-1]
    pos = float(q) * (n - 1)
    lo, hi = int(math.floor(pos)), int(math.ceil(pos))
    frac = pos - lo
    out = s[..., lo] * (1.0 - frac) + s[..., hi] * frac
    out = cast_to(out, x.dtype)
    if keepdims:
        if axis is None:
            out = tf.reshape(out, [1] * rank)
        else:
            out = tf.expand_dims(out, axis % rank)
    return out



# -- more of NumPy ------------------------------------------------------------

fabs = _unary("fabs", tf.abs)
cbrt = _unary("cbrt", lambda x: tf.sign(x) * tf.pow(tf.abs(x), 1.0 / 3.0), wide=True)
sinc = _unary("sinc", lambda x: tf.where(
    tf.equal(x, 0.0), tf.ones_like(x),
    tf.sin(math.pi * tf.where(tf.equal(x, 0.0), tf.ones_like(x), x))
    / (math.pi * tf.where(tf.equal(x, 0.0), tf.ones_like(x), x))))
isposinf = _unary("isposinf", lambda x: tf.logical_and(tf.is_inf(x), x > 0)
                  if x.dtype.is_floating else tf.zeros_like(x, dtype="bool"), floating=False)
isneginf = _unary("isneginf", lambda x: tf.logical_and(tf.is_inf(x), x < 0)
                  if x.dtype.is_floating else tf.zeros_like(x, dtype="bool"), floating=False)
fmod = _binary("fmod", tf.truncatemod, strong=True, small_int=True)
logaddexp2 = _binary("logaddexp2", lambda a, b: _logaddexp(a * _LN2, b * _LN2) / _LN2,
                     floating=True)
divide_no_nan = _binary("divide_no_nan", tf.divide_no_nan, floating=True)


def _bitwise(name, tf_fn):
    def fn(x, y):
        a, b = _pair(x, y)
        return tf_fn(a, b)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, y)` of integers (or bools)."
    return _export(keras_op(fn))


bitwise_and = _bitwise("bitwise_and", lambda a, b: tf.logical_and(a, b) if a.dtype.is_bool
                       else tf.bitwise_and(a, b))
bitwise_or = _bitwise("bitwise_or", lambda a, b: tf.logical_or(a, b) if a.dtype.is_bool
                      else tf.bitwise_or(a, b))
bitwise_xor = _bitwise("bitwise_xor", lambda a, b: tf.logical_xor(a, b) if a.dtype.is_bool
                       else tf.bitwise_xor(a, b))
bitwise_left_shift = _bitwise("bitwise_left_shift", tf.left_shift)
bitwise_right_shift = _bitwise("bitwise_right_shift", tf.right_shift)
left_shift = _bitwise("left_shift", tf.left_shift)
right_shift = _bitwise("right_shift", tf.right_shift)


def _invert(name):
    def fn(x):
        x = tensor(x)
        return tf.logical_not(x) if x.dtype.is_bool else tf.invert(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x)`: bitwise NOT."
    return _export(keras_op(fn))


bitwise_invert = _invert("bitwise_invert")
bitwise_not = _invert("bitwise_not")


@_export
@keras_op
def append(x1, x2, axis=None):
    """`keras.ops.append(x1, x2, axis=None)`: flattened when axis is None."""
    a, b = _pair(x1, x2)
    if axis is None:
        return tf.concat([tf.reshape(a, [-1]), tf.reshape(b, [-1])], axis=0)
    return tf.concat([a, b], axis=axis)


@_export
@keras_op
def diff(a, n=1, axis=-1):
    """`keras.ops.diff(a, n=1, axis=-1)`."""
    return tnp_reduce.diff(tensor(a), n, axis)


@_export
@keras_op
def ptp(x, axis=None, keepdims=False):
    """`keras.ops.ptp(x, axis=None, keepdims=False)`: max - min."""
    x = tensor(x)
    return tf.reduce_max(x, axis=_axis(axis), keepdims=keepdims) - tf.reduce_min(
        x, axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def fliplr(x):
    """`keras.ops.fliplr(x)`: axis 1 reversed."""
    return tnp_array.fliplr(tensor(x))


@_export
@keras_op
def flipud(x):
    """`keras.ops.flipud(x)`: axis 0 reversed."""
    return tnp_array.flipud(tensor(x))


@_export
@keras_op
def dstack(xs):
    """`keras.ops.dstack(xs)`: along axis 2, 1-D and 2-D arrays raised to 3-D."""
    parts = []
    for x in _promote_all(list(xs)):
        if len(x.shape) == 1:
            x = tf.reshape(x, [1, -1, 1])
        elif len(x.shape) == 2:
            x = tf.expand_dims(x, 2)
        parts.append(x)
    return tf.concat(parts, axis=2)


def _split_on(name, axis):
    def fn(x, indices_or_sections):
        return split(x, indices_or_sections, axis=axis)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, indices_or_sections)`: `split` on axis {axis}."
    return _export(fn)


vsplit = _split_on("vsplit", 0)
hsplit = _split_on("hsplit", 1)
dsplit = _split_on("dsplit", 2)


@_export
@keras_op
def array_split(x, indices_or_sections, axis=0):
    """`keras.ops.array_split(x, indices_or_sections, axis=0)`: sections may be
    uneven (the first ones one longer)."""
    x = tensor(x)
    n = x.shape.as_list()[axis]
    k = int(indices_or_sections)
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    return list(tf.split(x, sizes, axis=axis))


@_export
@keras_op
def empty(shape, dtype=None):
    """`keras.ops.empty(shape, dtype=None)`: zeros here."""
    return zeros(shape, dtype)


@_export
@keras_op
def empty_like(x, dtype=None):
    """`keras.ops.empty_like(x, dtype=None)`: zeros here."""
    return zeros_like(x, dtype)


@_export
@keras_op
def kron(x1, x2):
    """`keras.ops.kron(x1, x2)` of 1-D or 2-D operands."""
    return tnp_reduce.kron(*_pair(x1, x2))


@_export
@keras_op
def isin(x1, x2, assume_unique=False, invert=False):
    """`keras.ops.isin(x1, x2)`: whether each element of x1 is in x2."""
    a, b = _pair(x1, x2)
    hit = tf.reduce_any(tf.equal(tf.expand_dims(a, -1), tf.reshape(b, [-1])), axis=-1)
    return tf.logical_not(hit) if invert else hit


@_export
@keras_op
def searchsorted(sorted_sequence, values, side="left"):
    """`keras.ops.searchsorted(sorted_sequence, values, side="left")`: int32."""
    seq, vals = _pair(sorted_sequence, values)
    return cast_to(tf.searchsorted(seq, vals, side=side), "int32")


@_export
@keras_op
def select(condlist, choicelist, default=0):
    """`keras.ops.select(condlist, choicelist, default=0)`: the first true
    condition's choice, else default."""
    choices = _promote_all(list(choicelist))
    out = tf.fill(tf.shape(choices[0]), tensor(default, choices[0].dtype))
    for cond, choice in reversed(list(zip(condlist, choices))):
        out = tf.where(cast_to(tensor(cond), "bool"), choice, out)
    return out


@_export
@keras_op
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """`keras.ops.trapezoid(y, x=None, dx=1.0, axis=-1)`."""
    y = to_float(y)
    rank = len(y.shape)
    hi = [slice(None)] * rank
    lo = [slice(None)] * rank
    hi[axis], lo[axis] = slice(1, None), slice(None, -1)
    mids = (y[tuple(hi)] + y[tuple(lo)]) / 2.0
    step = diff(to_float(x)) if x is not None else dx
    return tf.reduce_sum(mids * step, axis=axis)


@_export
@keras_op
def vander(x, N=None, increasing=False):  # noqa: N803
    """`keras.ops.vander(x, N=None, increasing=False)`."""
    x = tensor(x)
    n = N or x.shape.as_list()[0]
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    return tf.pow(tf.expand_dims(x, 1), tensor(powers.astype(x.dtype.np_dtype)))


@_export
@keras_op
def percentile(x, q, axis=None, method="linear", keepdims=False):
    """`keras.ops.percentile(x, q, axis=None)`: `quantile` at q / 100."""
    return quantile(x, float(q) / 100.0, axis=axis, method=method, keepdims=keepdims)


def _nan_as(x, fill):
    """`x` (a tensor) with its NaNs replaced by `fill`; integers as they are."""
    if not x.dtype.is_floating:
        return x
    return tf.where(tf.is_nan(x), tf.fill(tf.shape(x), tensor(fill, x.dtype)), x)


def _nan_reduce(name, reduce_fn, fill):
    def fn(x, axis=None, keepdims=False):
        return reduce_fn(_nan_as(tensor(x), fill), axis=axis, keepdims=keepdims)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, keepdims=False)`: NaNs ignored."
    return _export(keras_op(fn))


nansum = _nan_reduce("nansum", sum, 0.0)
nanprod = _nan_reduce("nanprod", prod, 1.0)


def _nan_extreme(name, reduce_fn, fill):
    def fn(x, axis=None, keepdims=False):
        x = tensor(x)
        if not x.dtype.is_floating:
            return reduce_fn(x, axis=axis, keepdims=keepdims)
        nan = tf.is_nan(x)
        out = reduce_fn(tf.where(nan, tf.fill(tf.shape(x), tensor(fill, x.dtype)), x),
                        axis=axis, keepdims=keepdims)
        all_nan = tf.reduce_all(nan, axis=_axis(axis), keepdims=keepdims)
        return tf.where(all_nan, tf.fill(tf.shape(out), tensor(np.nan, x.dtype)), out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, keepdims=False)`: NaNs skipped, NaN if all are."
    return _export(keras_op(fn))


nanmax = _nan_extreme("nanmax", max, -np.inf)
nanmin = _nan_extreme("nanmin", min, np.inf)


@_export
@keras_op
def nanmean(x, axis=None, keepdims=False):
    """`keras.ops.nanmean(x, axis=None, keepdims=False)`: NaNs ignored."""
    x = to_float(x)
    keep = tf.logical_not(tf.is_nan(x))
    total = tf.reduce_sum(tf.where(keep, x, tf.zeros_like(x)), axis=_axis(axis),
                          keepdims=keepdims)
    return total / tf.reduce_sum(cast_to(keep, x.dtype), axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def get_item(x, key):
    """`keras.ops.get_item(x, key)`: `x[key]`."""
    return tensor(x)[key]


@_export
@keras_op
def bincount(x, weights=None, minlength=0, sparse=False):
    """`keras.ops.bincount(x, weights=None, minlength=0)`: int32 counts, or
    weights' dtype."""
    x = cast_to(tensor(x), "int32")
    if weights is None:
        return tf.bincount(x, minlength=minlength, dtype="int32")
    weights = tensor(weights)
    return tf.bincount(x, weights=weights, minlength=minlength, dtype=weights.dtype)


@_export
@keras_op
def correlate(x1, x2, mode="valid"):
    """`keras.ops.correlate(x1, x2, mode="valid")` of 1-D arrays (float)."""
    a, b = to_float(x1), to_float(x2)
    a, b = cast_to(a, result_type(a, b)), cast_to(b, result_type(a, b))
    n, m = a.shape.as_list()[0], b.shape.as_list()[0]
    pad_ = {"valid": 0, "same": m // 2, "full": m - 1}[mode]
    right = pad_ if mode != "same" else m - 1 - m // 2
    a = tf.pad(a, [[pad_, right]])
    length = n + pad_ + right - m + 1
    return tf.stack([tf.reduce_sum(a[i:i + m] * b) for i in range(length)])


@_export
@keras_op
def unravel_index(indices, shape):
    """`keras.ops.unravel_index(indices, shape)`: a tuple of coordinate arrays."""
    idx = tensor(indices)
    out = []
    for dim in reversed(list(shape)):
        out.append(tf.floormod(idx, dim))
        idx = tf.floordiv(idx, dim)
    return tuple(reversed(out))



# -- windows, complex parts, nan-aware statistics ----------------------------

def _window(name, make):
    def fn(x):
        return tensor(make(int(x)).astype(np.float32))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x)`: the symmetric window of x points, float32."
    return _export(fn)


hamming = _window("hamming", np.hamming)
hanning = _window("hanning", np.hanning)
bartlett = _window("bartlett", np.bartlett)
blackman = _window("blackman", np.blackman)


@_export
def kaiser(x, beta):
    """`keras.ops.kaiser(x, beta)`: the Kaiser window of x points, float32."""
    return tensor(np.kaiser(int(x), float(beta)).astype(np.float32))


@_export
@keras_op
def i0(x):
    """`keras.ops.i0(x)`: the modified Bessel function of order 0 (float32 for
    ints, float64 for int64), by its power series."""
    x = tensor(x)
    dtype = "float64" if x.dtype.name in ("int64", "float64") else \
        x.dtype.name if x.dtype.name == "float16" else floatx()
    half_sq = tf.square(cast_to(x, "float64")) / 4.0
    term, total = tf.ones_like(half_sq), tf.ones_like(half_sq)
    for k in range(1, 60):
        term = term * half_sq / float(k * k)
        total = total + term
    return cast_to(total, dtype)


conj = _unary("conj", tf.conj, floating=False)
conjugate = _unary("conjugate", tf.conj, floating=False)
real = _unary("real", lambda x: tf.real(x) if x.dtype.is_complex else x, floating=False)
imag = _unary("imag", lambda x: tf.imag(x) if x.dtype.is_complex else tf.zeros_like(x),
              floating=False)
isreal = _unary("isreal", lambda x: tf.equal(tf.imag(x), 0.0) if x.dtype.is_complex
                else tf.ones_like(x, dtype="bool"), floating=False)
angle = _unary("angle", lambda x: tf.angle(x) if x.dtype.is_complex
               else tf.atan2(tf.zeros_like(x), x))
fmax = _binary("fmax", lambda a, b: tf.where(tf.is_nan(a), b, tf.where(tf.is_nan(b), a,
                                                                        tf.maximum(a, b)))
               if a.dtype.is_floating else tf.maximum(a, b))
fmin = _binary("fmin", lambda a, b: tf.where(tf.is_nan(a), b, tf.where(tf.is_nan(b), a,
                                                                        tf.minimum(a, b)))
               if a.dtype.is_floating else tf.minimum(a, b))


gcd = _binary("gcd", tnp_math.euclid_gcd)
def _lcm(a, b):
    g = tnp_math.euclid_gcd(a, b)
    return tf.where(tf.logical_or(tf.equal(a, 0), tf.equal(b, 0)), tf.zeros_like(g),
                    tf.abs(a * tf.floordiv(b, tf.where(tf.equal(g, 0), tf.ones_like(g), g))))


lcm = _binary("lcm", _lcm)


@_export
@keras_op
def ldexp(x1, x2):
    """`keras.ops.ldexp(x1, x2)`: x1 * 2**x2, x2 an integer tensor."""
    x2 = tensor(x2)
    if not x2.dtype.is_integer:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={x2.dtype.name}")
    x1 = tensor(x1) if not isinstance(x1, (int, float)) else x1
    dtype = result_type(x1, x2, 1.0)
    a = tensor(x1, dtype)
    scaled = a * tf.pow(tensor(2.0, dtype), cast_to(x2, dtype))
    return tf.where(tf.logical_or(tf.is_inf(a), tf.equal(a, 0.0)), a, scaled)


@_export
@keras_op
def diagflat(x, k=0):
    """`keras.ops.diagflat(x, k=0)`: x flattened onto diagonal k."""
    return diag(tf.reshape(tensor(x), [-1]), k)


@_export
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`keras.ops.geomspace(start, stop, num=50, endpoint=True, dtype=None)`."""
    lo = tf.log(tf.abs(to_float(start))) / _LN10
    hi = tf.log(tf.abs(to_float(stop))) / _LN10
    out = tf.pow(tensor(10.0), linspace(lo, hi, num, endpoint)) * tf.sign(to_float(start))
    return cast_to(out, standardize_dtype(dtype))


@_export
@keras_op
def corrcoef(x):
    """`keras.ops.corrcoef(x)`: Pearson correlation of x's rows, float."""
    x = to_float(x)
    centered = x - tf.reduce_mean(x, axis=1, keepdims=True)
    cov = tf.matmul(centered, centered, transpose_b=True)
    std_ = tf.sqrt(tf.reduce_sum(tf.square(centered), axis=1))
    return tf.clip_by_value(cov / (tf.expand_dims(std_, 1) * tf.expand_dims(std_, 0)),
                            -1.0, 1.0)


def _nan_arg(name, pick, fill):
    def fn(x, axis=None, keepdims=False):
        x = tensor(x)
        if not x.dtype.is_floating:
            return pick(x, axis=axis, keepdims=keepdims)
        nan = tf.is_nan(x)
        idx = pick(tf.where(nan, tf.fill(tf.shape(x), tensor(fill, x.dtype)), x),
                   axis=axis, keepdims=keepdims)
        all_nan = tf.reduce_all(nan, axis=axis, keepdims=keepdims)
        return tf.where(all_nan, tf.fill(tf.shape(idx), tensor(-1, "int32")), idx)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, keepdims=False)`: NaNs skipped, -1 if all NaN."
    return _export(keras_op(fn))


nanargmax = _nan_arg("nanargmax", argmax, -np.inf)
nanargmin = _nan_arg("nanargmin", argmin, np.inf)


def _nan_cumulative(name, base, fill):
    def fn(x, axis=None, dtype=None):
        return base(_nan_as(tensor(x), fill), axis=axis, dtype=dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x, axis=None, dtype=None)`: NaNs count as {fill}."
    return _export(keras_op(fn))


nancumsum = _nan_cumulative("nancumsum", cumsum, 0.0)
nancumprod = _nan_cumulative("nancumprod", cumprod, 1.0)


@_export
@keras_op
def nanvar(x, axis=None, keepdims=False):
    """`keras.ops.nanvar(x, axis=None, keepdims=False)`: NaNs ignored."""
    x = to_float(x)
    valid = tf.logical_not(tf.is_nan(x))
    mean_ = nanmean(x, axis=axis, keepdims=True)
    centered = tf.where(valid, x - mean_, tf.zeros_like(x))
    total = tf.reduce_sum(tf.square(centered), axis=_axis(axis), keepdims=keepdims)
    return total / tf.reduce_sum(cast_to(valid, x.dtype), axis=_axis(axis), keepdims=keepdims)


@_export
@keras_op
def nanstd(x, axis=None, keepdims=False):
    """`keras.ops.nanstd(x, axis=None, keepdims=False)`: NaNs ignored."""
    return tf.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


@_export
@keras_op
def histogram(x, bins=10, range=None):  # noqa: A002 (Keras's name)
    """`keras.ops.histogram(x, bins=10, range=None)`: (counts in x's dtype, edges)."""
    x = tensor(x)
    lo, hi = (tf.reduce_min(x), tf.reduce_max(x)) if range is None else \
        (tensor(range[0], x.dtype), tensor(range[1], x.dtype))
    edges = cast_to(linspace(lo, hi, bins + 1), x.dtype)
    inside = tf.logical_and(x >= lo, x <= hi)
    index = cast_to(tf.searchsorted(edges[1:-1], tf.reshape(x, [-1]), side="right"), "int32")
    weights = cast_to(tf.reshape(inside, [-1]), x.dtype)
    counts = tf.unsorted_segment_sum(weights, index, bins)
    return counts, edges



@_export
@keras_op
def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """`keras.ops.nanquantile(x, q, axis=None, keepdims=False)`: NaNs ignored
    (linear interpolation); NaN where a slice is all NaN."""
    x = to_float(x)
    rank = len(x.shape)
    if axis is None:
        flat = tf.reshape(x, [1, -1])
    else:
        ax = axis % rank
        perm = [i for i in range(rank) if i != ax] + [ax]
        flat = tf.transpose(x, perm)
    nan = tf.is_nan(flat)
    ordered = tf.sort(tf.where(nan, tf.fill(tf.shape(flat), tensor(np.inf, x.dtype)), flat),
                      axis=-1)
    valid = tf.reduce_sum(cast_to(tf.logical_not(nan), "int32"), axis=-1, keepdims=True)
    pos = float(q) * cast_to(tf.maximum(valid - 1, 0), x.dtype)
    lo = cast_to(tf.floor(pos), "int32")
    hi = cast_to(tf.ceil(pos), "int32")
    batch = len(ordered.shape) - 1
    low = tf.gather(ordered, lo, axis=-1, batch_dims=batch)
    high = tf.gather(ordered, hi, axis=-1, batch_dims=batch)
    frac = pos - tf.floor(pos)
    out = low + (high - low) * frac
    out = tf.where(valid > 0, out, tf.fill(tf.shape(out), tensor(np.nan, x.dtype)))
    out = tf.squeeze(out, [-1])
    if axis is None:
        out = tf.reshape(out, [1] * rank if keepdims else [])
    elif keepdims:
        out = tf.expand_dims(out, axis % rank)
    return out


@_export
@keras_op
def nanmedian(x, axis=None, keepdims=False):
    """`keras.ops.nanmedian(x, axis=None, keepdims=False)`: NaNs ignored."""
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


@_export
@keras_op
def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """`keras.ops.nanpercentile(x, q, axis=None)`: `nanquantile` at q / 100."""
    return nanquantile(x, float(q) / 100.0, axis=axis, keepdims=keepdims)


@_export
@keras_op
def slogdet(x):
    """`keras.ops.slogdet(x)`: (sign, log |det|)."""
    sign, logabs = tf.slogdet(to_float(x))
    return sign, logabs



@_export
@keras_op
def rot90(array, k=1, axes=(0, 1)):
    """`keras.ops.rot90(array, k=1, axes=(0, 1))`: NumPy's rotation (for k=2
    on a non-square plane Keras 3.15 on TF returns a scrambled array)."""
    x = tensor(array)
    if len(x.shape) < 2:
        raise ValueError(f"Input array must have at least 2 dimensions. "
                         f"Received: array.ndim={len(x.shape)}")
    return tnp_array.rot90(x, k, tuple(a % len(x.shape) for a in axes))


@_export
@keras_op
def nextafter(x1, x2):
    """`keras.ops.nextafter(x1, x2)`: the next float64 after x1 towards x2, cast
    to the operands' float dtype (Keras's: float32 inputs mostly come back as x1)."""
    dtype = result_type(x1, x2, 1.0)
    a, b = cast_to(tensor(x1), "float64"), cast_to(tensor(x2), "float64")
    return cast_to(tnp_math.step_towards(a, b), dtype)


@_export
@keras_op
def unique(x, sorted=True, return_inverse=False, return_counts=False, axis=None,  # noqa: A002
           size=None, fill_value=None):
    """`keras.ops.unique(x, ...)`: the sorted distinct values of x flattened,
    with the inverse indices (x's shape) and counts when asked (axis=None)."""
    if axis is not None or size is not None:
        raise ValueError("unique here takes neither axis nor size")
    x = tensor(x)
    flat = tf.reshape(x, [-1])
    values, first_idx = tf.unique(flat)
    order = tf.argsort(values, stable=True)
    values = tf.gather(values, order)
    rank_of = tf.argsort(order, stable=True)
    inverse = cast_to(tf.gather(rank_of, first_idx), "int32")
    out = [values]
    if return_inverse:
        out.append(tf.reshape(inverse, tf.shape(x)))
    if return_counts:
        out.append(tf.unsorted_segment_sum(tf.ones_like(inverse), inverse, tf.size(values)))
    return out[0] if len(out) == 1 else tuple(out)



@_export
@keras_op
def view(x, dtype=None):
    """`keras.ops.view(x, dtype=None)`: x's bits read as `dtype`, NumPy's way
    (the last axis scales by the ratio of the item sizes)."""
    x = tensor(x)
    if dtype is None:
        return x
    target = standardize_dtype(dtype)
    old = x.dtype.np_dtype.itemsize
    new = np.dtype(target).itemsize if target != "bfloat16" else 2
    if old == new:
        return tf.bitcast(x, target)
    shape_ = x.shape.as_list()
    if old > new:
        out = tf.bitcast(x, target)
        return tf.reshape(out, shape_[:-1] + [shape_[-1] * (old // new)])
    ratio = new // old
    grouped = tf.reshape(x, shape_[:-1] + [shape_[-1] // ratio, ratio])
    return tf.bitcast(grouped, target)


__all__.sort()


@_export
@keras_op
def argpartition(x, kth, axis=-1):
    """`keras.ops.argpartition(x, kth, axis=-1)`: indices that put the
    `kth + 1` smallest values (as int32, ascending) first, then the rest
    (descending), computed as Keras 3.15's TensorFlow backend does with two
    `top_k`s, so the order (and, for rank > 1, Keras's mask summed over the
    leading axis) is Keras's."""
    x = cast_to(x, "int32")
    if axis is None:
        x, axis, flat = tf.reshape(x, [-1]), 0, True
    else:
        flat = False
    x = swapaxes(x, axis, -1)
    n = x.shape.dims[-1]
    kth = int(np.clip(int(kth), 0, n - 1))
    bottom = tf.top_k(-x, kth + 1).indices
    mask = tf.reduce_sum(tf.one_hot(bottom, n, dtype="int32"), axis=0)
    where = tf.where(mask)
    cleared = tf.tensor_scatter_nd_update(x, where, tf.zeros(tf.shape(where)[:1], "int32"))
    out = tf.concat([bottom, tf.top_k(cleared, n - kth - 1).indices], axis=-1)
    return out if flat else swapaxes(out, -1, axis)


from runtime._src.keras.ops.vectorize import vectorize  # noqa: E402 - NumPy's name here

__all__.append("vectorize")
