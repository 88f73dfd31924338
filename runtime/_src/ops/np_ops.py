"""`tf.experimental.numpy`: a thin NumPy-style API over our ops.

Values convert as NumPy converts them (`asarray([1, 2])` is int64,
`asarray([1.0])` float64), two operands of different dtypes are promoted by
NumPy's rules (`np.result_type`), and the math functions that NumPy answers
in floating point (exp, log, sqrt, mean, ...) give float64 for integers,
as TensorFlow's `tf.experimental.numpy` does. Axis arguments use NumPy's
names (`axis`, `keepdims`). Every function returns a `Tensor`, so gradients,
`tf.function` and the rest of the runtime work with it.

    tnp.mean(tnp.asarray([1, 2, 3]))      # 2.0, float64
"""

import builtins

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.ops import array_ops, manipulation_ops, math_ops, reduction_ops, shape_ops
from runtime._src.ops.einsum_ops import tensordot

__all__ = ["asarray", "array", "zeros", "ones", "full", "arange", "linspace", "eye",
           "reshape", "transpose", "concatenate", "stack", "where", "clip", "add", "subtract",
           "multiply", "divide", "true_divide", "power", "maximum", "minimum", "matmul", "dot",
           "sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "exp",
           "log", "sqrt", "sin", "cos", "tan", "tanh", "abs", "square", "negative", "sign",
           "floor", "ceil", "float16", "float32", "float64", "int8", "int16", "int32",
           "int64", "uint8", "bool_", "ndim", "shape", "size", "newaxis", "pi", "e", "inf",
           "nan"]

float16, float32, float64 = dtypes.float16, dtypes.float32, dtypes.float64
int8, int16, int32, int64, uint8 = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
                                    dtypes.uint8)
bool_ = dtypes.bool
newaxis, pi, e, inf, nan = None, np.pi, np.e, np.inf, np.nan


def _np_dtype(dtype):
    return None if dtype is None else dtypes.as_dtype(dtype).np_dtype


def asarray(a, dtype=None):
    """A tensor of `a`, its dtype inferred as NumPy infers it (or `dtype`)."""
    if hasattr(a, "_as_tensor") and not isinstance(a, Tensor):
        a = a._as_tensor()
    if isinstance(a, Tensor):
        return a if dtype is None or dtypes.as_dtype(dtype) == a.dtype \
            else math_ops.cast(a, dtype)
    return convert_to_tensor(np.asarray(a, dtype=_np_dtype(dtype)))


array = asarray


def _pair(x, y):
    x, y = asarray(x), asarray(y)
    if x.dtype != y.dtype:
        common = dtypes.as_dtype(np.result_type(x.dtype.np_dtype, y.dtype.np_dtype))
        x, y = math_ops.cast(x, common), math_ops.cast(y, common)
    return x, y


def _float(x):
    x = asarray(x)
    return x if x.dtype.is_floating else math_ops.cast(x, dtypes.float64)


def _binary(op):
    def f(x1, x2):
        return op(*_pair(x1, x2))
    f.__name__ = op.__name__
    f.__doc__ = f"NumPy-style {op.__name__}: operands promoted by NumPy's rules."
    return f


def _unary_float(op):
    def f(x):
        return op(_float(x))
    f.__name__ = op.__name__
    f.__doc__ = f"NumPy-style {op.__name__} (integers give float64)."
    return f


add, subtract, multiply = (_binary(math_ops.add), _binary(math_ops.subtract),
                           _binary(math_ops.multiply))
maximum, minimum, power = (_binary(math_ops.maximum), _binary(math_ops.minimum),
                           _binary(math_ops.pow))
matmul = _binary(math_ops.matmul)
exp, log, sqrt = (_unary_float(math_ops.exp), _unary_float(math_ops.log),
                  _unary_float(math_ops.sqrt))
sin, cos, tan, tanh = (_unary_float(math_ops.sin), _unary_float(math_ops.cos),
                       _unary_float(math_ops.tan), _unary_float(math_ops.tanh))


def divide(x1, x2):
    """NumPy's true division (integers give float64)."""
    return math_ops.truediv(*_pair(_float(x1), _float(x2)))


true_divide = divide


def abs(x):  # NumPy's name
    return math_ops.abs(asarray(x))


def square(x):
    return math_ops.square(asarray(x))


def negative(x):
    return math_ops.negative(asarray(x))


def sign(x):
    return math_ops.sign(asarray(x))


def floor(x):
    return math_ops.floor(_float(x))


def ceil(x):
    return math_ops.ceil(_float(x))


def dot(a, b):
    """NumPy's dot: scalars multiply, vectors give their inner product,
    otherwise a sum over a's last and b's second-to-last axis."""
    a, b = _pair(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return math_ops.multiply(a, b)
    return tensordot(a, b, [[a.shape.rank - 1], [builtins.max(b.shape.rank - 2, 0)]])


def zeros(shape, dtype=float64):
    return array_ops.zeros(shape, dtype)


def ones(shape, dtype=float64):
    return array_ops.ones(shape, dtype)


def full(shape, fill_value, dtype=None):
    v = asarray(fill_value, dtype)
    return array_ops.fill(shape, v)


def arange(start, stop=None, step=1, dtype=None):
    """NumPy's arange (int64 for integer arguments, float64 for floats)."""
    values = np.arange(start, stop, step) if stop is not None else np.arange(start)
    return asarray(values, dtype)


def linspace(start, stop, num=50, dtype=float64):
    return math_ops.cast(shape_ops.linspace(asarray(start, float64), asarray(stop, float64),
                                            num), dtype)


def eye(N, M=None, dtype=float64):  # NumPy's names
    return array_ops.eye(N, M, dtype=dtype)


def reshape(a, newshape):
    return array_ops.reshape(asarray(a), newshape)


def transpose(a, axes=None):
    return array_ops.transpose(asarray(a), axes)


def concatenate(arrays, axis=0):
    return manipulation_ops.concat([asarray(a) for a in arrays], axis)


def stack(arrays, axis=0):
    return manipulation_ops.stack([asarray(a) for a in arrays], axis)


def where(condition, x, y):
    x, y = _pair(x, y)
    return math_ops.where(asarray(condition, dtypes.bool), x, y)


def clip(a, a_min, a_max):
    a = asarray(a)
    return math_ops.clip_by_value(a, asarray(a_min, a.dtype), asarray(a_max, a.dtype))


def _reduction(op, to_float=False):
    def f(a, axis=None, keepdims=False):
        return op(_float(a) if to_float else asarray(a), axis=axis, keepdims=keepdims)
    f.__name__ = op.__name__
    return f


sum = _reduction(reduction_ops.reduce_sum)  # noqa: A001 - NumPy's name
prod = _reduction(reduction_ops.reduce_prod)
max = _reduction(reduction_ops.reduce_max)  # noqa: A001
min = _reduction(reduction_ops.reduce_min)  # noqa: A001
mean = _reduction(reduction_ops.reduce_mean, to_float=True)
std = _reduction(reduction_ops.reduce_std, to_float=True)
var = _reduction(reduction_ops.reduce_variance, to_float=True)


def argmax(a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = array_ops.reshape(a, [-1]), 0
    return reduction_ops.argmax(a, axis)


def argmin(a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = array_ops.reshape(a, [-1]), 0
    return reduction_ops.argmin(a, axis)


def ndim(a):
    return asarray(a).shape.rank


def shape(a):
    return tuple(asarray(a).shape.dims)


def size(a):
    return int(np.prod(asarray(a).shape.dims))
