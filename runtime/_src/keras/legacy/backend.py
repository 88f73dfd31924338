"""`tf.keras.backend`'s Keras 2 functions (Keras 3.15's legacy backend on
TF 2.21): thin wrappers over the TF ops, with Keras 2's defaults.

Values and shapes: variable, constant, get_value / set_value, batch_get_value /
batch_set_value, eval, int_shape, ndim, dtype, shape, count_params, cast,
cast_to_floatx, zeros / ones / eye (variables when fully defined),
zeros_like / ones_like, update / update_add / update_sub,
moving_average_update, is_sparse, to_dense, name_scope.
Math: abs, all, any (cast to bool first), argmax / argmin (axis -1), arange
(int32 unless told; a negative lone start gives []), clip (max below min
raised to min; None an open end), sum / mean / std / var / max / min / prod
(bool cast to floatx for mean, std, var), cumsum, cumprod, the comparisons,
maximum, minimum, pow, round, sign, sqrt, square, exp, log, sin, cos, tanh.
Shapes: reshape, flatten, batch_flatten, expand_dims, squeeze, transpose,
permute_dimensions, concatenate, stack, tile, repeat (rank 2),
repeat_elements, reverse, gather, one_hot, stop_gradient, switch.
Activations and losses: relu (alpha, max_value, threshold), elu, sigmoid,
hard_sigmoid, softmax, softplus, softsign, l2_normalize, bias_add, dot,
binary_crossentropy, categorical_crossentropy,
sparse_categorical_crossentropy, in_top_k.
"""

import math as _math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import name_scope as _name_scope
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.function.control_flow import cond as _cond
from runtime._src.function.variables import Variable
from runtime._src.keras.backend import config
from runtime._src.ops import (arithmetic_ops, array_ops, comparison_ops, cross_entropy_ops,
                              cumulative_ops, gradient_ops, manipulation_ops, math_more_ops,
                              matmul_ops, nn_ops, reduction_ops, scatter_ops, shape_ops,
                              tile_ops, unary_math_ops, where_cast_ops)
from runtime._src.ops.check_ops import is_tensor
from runtime._src.sparse import sparse_ops

_py_all, _py_any, _py_max = all, any, max

__all__ = ["abs", "all", "any", "arange", "argmax", "argmin", "batch_dot", "batch_flatten", "batch_get_value", "batch_normalization", "batch_set_value", "bias_add", "binary_crossentropy", "binary_focal_crossentropy", "cast", "cast_to_floatx", "categorical_crossentropy", "categorical_focal_crossentropy", "clip", "concatenate", "constant", "cos", "count_params", "cumprod", "cumsum", "dot", "dtype", "elu", "equal", "eval", "exp", "expand_dims", "eye", "flatten", "gather", "get_value", "greater", "greater_equal", "hard_sigmoid", "in_top_k", "int_shape", "is_sparse", "l2_normalize", "less", "less_equal", "log", "max", "maximum", "mean", "min", "minimum", "moving_average_update", "name_scope", "ndim", "not_equal", "one_hot", "ones", "ones_like", "permute_dimensions", "pow", "prod", "relu", "repeat", "repeat_elements", "reshape", "reverse", "round", "set_value", "shape", "sigmoid", "sign", "sin", "softmax", "softplus", "softsign", "sparse_categorical_crossentropy", "spatial_2d_padding", "spatial_3d_padding", "sqrt", "square", "squeeze", "stack", "std", "stop_gradient", "sum", "switch", "tanh", "temporal_padding", "tile", "to_dense", "transpose", "update", "update_add", "update_sub", "var", "variable", "zeros", "zeros_like"]


# --- values, variables and shapes --------------------------------------------------------


def variable(value, dtype=None, name=None, constraint=None):
    """A tf.Variable of `value` in `dtype` (floatx by default)."""
    return Variable(value, dtype=dtypes.as_dtype(dtype or config.floatx()), name=name,
                    constraint=constraint)


def constant(value, dtype=None, shape=None, name=None):
    return array_ops.constant(value, dtype=dtype or config.floatx(), shape=shape, name=name)


def is_sparse(tensor):
    return isinstance(tensor, sparse_ops.SparseTensor)


def to_dense(tensor):
    return sparse_ops.to_dense(tensor) if is_sparse(tensor) else tensor


def get_value(x):
    """x's value as numpy (x itself when not a tensor)."""
    return x.numpy() if is_tensor(x) or isinstance(x, Variable) else x


def eval(x):  # noqa: A001 (Keras's name)
    return get_value(to_dense(x))


def batch_get_value(tensors):
    return [x.numpy() for x in tensors]


def set_value(x, value):
    """Assign `value` (converted to x's dtype) to the variable x."""
    x.assign(np.asarray(value, dtype=x.dtype.name))


def batch_set_value(tuples):
    for x, value in tuples:
        set_value(x, value)


def int_shape(x):
    """x's static shape as a tuple of ints and Nones."""
    shape = x.shape
    return shape if isinstance(shape, tuple) else tuple(shape.as_list())


def ndim(x):
    return x.shape.rank


def dtype(x):
    return x.dtype.base_dtype.name


def shape(x):
    return array_ops.shape(x)


def count_params(x):
    return _math.prod(x.shape.as_list())


def cast(x, dtype):
    return where_cast_ops.cast(x, dtype)


def cast_to_floatx(x):
    """x in floatx: a tensor cast, anything else a numpy array."""
    if isinstance(x, (Tensor, Variable, sparse_ops.SparseTensor)):
        return where_cast_ops.cast(x, config.floatx())
    return np.asarray(x, dtype=config.floatx())


def _filled(make, shape, dtype, name):
    dtype = dtypes.as_dtype(dtype or config.floatx())
    value = make(shape, dtype=dtype, name=name)
    if _py_all(value.shape.as_list()):
        return variable(value, dtype=dtype, name=name)
    return value


def zeros(shape, dtype=None, name=None):
    """A variable of zeros (a tensor when a dimension is 0)."""
    return _filled(array_ops.zeros, shape, dtype, name)


def ones(shape, dtype=None, name=None):
    """A variable of ones (a tensor when a dimension is 0)."""
    return _filled(array_ops.ones, shape, dtype, name)


def eye(size, dtype=None, name=None):
    dtype = dtypes.as_dtype(dtype or config.floatx())
    return variable(array_ops.eye(size, dtype=dtype), dtype, name)


def zeros_like(x, dtype=None, name=None):
    return array_ops.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    return array_ops.ones_like(x, dtype=dtype, name=name)


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def moving_average_update(x, value, momentum):
    """x -= (x - value) * (1 - momentum)."""
    momentum = where_cast_ops.cast(momentum, x.dtype)
    value = where_cast_ops.cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))


def name_scope(name):
    return _name_scope(name)


# --- math ---------------------------------------------------------------------------------


def abs(x):  # noqa: A001
    return arithmetic_ops.abs(x)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_all(where_cast_ops.cast(x, dtypes.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_any(where_cast_ops.cast(x, dtypes.bool), axis, keepdims)


def argmax(x, axis=-1):
    return reduction_ops.argmax(x, axis)


def argmin(x, axis=-1):
    return reduction_ops.argmin(x, axis)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None and start < 0:
        start = 0
    out = array_ops.range(start, stop, step)
    return out if dtype == "int32" else where_cast_ops.cast(out, dtype)


def clip(x, min_value, max_value):
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)):
        max_value = _py_max(max_value, min_value)
    min_value = -np.inf if min_value is None else min_value
    max_value = np.inf if max_value is None else max_value
    return arithmetic_ops.clip_by_value(x, min_value, max_value)


def _floats(x):
    x = convert_to_tensor(x)
    return where_cast_ops.cast(x, config.floatx()) if x.dtype == dtypes.bool else x


def sum(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_sum(x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    return reduction_ops.reduce_mean(_floats(x), axis, keepdims)


def std(x, axis=None, keepdims=False):
    return reduction_ops.reduce_std(_floats(x), axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    return reduction_ops.reduce_variance(_floats(x), axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_max(x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_min(x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    return reduction_ops.reduce_prod(x, axis, keepdims)


def cumsum(x, axis=0):
    return cumulative_ops.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return cumulative_ops.cumprod(x, axis=axis)


equal, not_equal = comparison_ops.equal, comparison_ops.not_equal
greater, greater_equal = comparison_ops.greater, comparison_ops.greater_equal
less, less_equal = comparison_ops.less, comparison_ops.less_equal


def maximum(x, y):
    return arithmetic_ops.maximum(x, y)


def minimum(x, y):
    return arithmetic_ops.minimum(x, y)


def pow(x, a):  # noqa: A001
    return arithmetic_ops.pow(x, a)


def round(x):  # noqa: A001
    return unary_math_ops.round(x)


def sign(x):
    return arithmetic_ops.sign(x)


def sqrt(x):
    """sqrt of max(x, 0) (Keras 2: no NaN for negatives)."""
    x = convert_to_tensor(x)
    return arithmetic_ops.sqrt(arithmetic_ops.maximum(x, convert_to_tensor(0.0, x.dtype)))


def square(x):
    return arithmetic_ops.square(x)


def exp(x):
    return arithmetic_ops.exp(x)


def log(x):
    return arithmetic_ops.log(x)


def sin(x):
    return unary_math_ops.sin(x)


def cos(x):
    return unary_math_ops.cos(x)


def tanh(x):
    return arithmetic_ops.tanh(x)


# --- shapes --------------------------------------------------------------------------------


def reshape(x, shape):
    return array_ops.reshape(x, shape)


def flatten(x):
    return array_ops.reshape(x, [-1])


def batch_flatten(x):
    """x as (batch, everything else)."""
    x = convert_to_tensor(x)
    return array_ops.reshape(x, [-1, int(np.prod(x.shape.as_list()[1:]))])


def expand_dims(x, axis=-1):
    return manipulation_ops.expand_dims(x, axis)


def squeeze(x, axis):
    return manipulation_ops.squeeze(x, [axis])


def transpose(x):
    return manipulation_ops.transpose(x)


def permute_dimensions(x, pattern):
    return manipulation_ops.transpose(x, perm=pattern)


def concatenate(tensors, axis=-1):
    """tensors joined on `axis` (a negative axis counted from the first's rank)."""
    if axis < 0:
        rank = ndim(convert_to_tensor(tensors[0]))
        axis = axis % rank if rank else 0
    return manipulation_ops.concat([to_dense(t) for t in tensors], axis)


def stack(x, axis=0):
    return manipulation_ops.stack(x, axis=axis)


def tile(x, n):
    return tile_ops.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    """The rank-2 x repeated n times on a new axis 1."""
    if ndim(x) != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={ndim(x)}")
    return tile_ops.tile(manipulation_ops.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x, rep, axis):
    """Each slice of x along `axis` repeated `rep` times (np.repeat)."""
    x = convert_to_tensor(x)
    index = np.repeat(np.arange(x.shape.as_list()[axis]), rep)
    return manipulation_ops.gather(x, convert_to_tensor(index, dtypes.int32), axis=axis)


def reverse(x, axes):
    return shape_ops.reverse(x, [axes] if isinstance(axes, int) else axes)


def gather(reference, indices):
    return manipulation_ops.gather(reference, indices)


def one_hot(indices, num_classes):
    return manipulation_ops.one_hot(indices, depth=num_classes, axis=-1)


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return map(gradient_ops.stop_gradient, variables)
    return gradient_ops.stop_gradient(variables)


def switch(condition, then_expression, else_expression):
    """then where condition, else elsewhere: a scalar condition picks one
    (callables called), a tensor one selects element-wise (broadcast)."""
    condition = convert_to_tensor(condition)
    if condition.dtype != dtypes.bool:
        condition = where_cast_ops.cast(condition, dtypes.bool)
    def branch(e):
        return e if callable(e) else (lambda: e)
    if not ndim(condition):
        return _cond(condition, branch(then_expression), branch(else_expression))
    then_x = convert_to_tensor(then_expression() if callable(then_expression)
                               else then_expression)
    else_x = else_expression() if callable(else_expression) else else_expression
    if ndim(condition) > ndim(then_x):
        raise ValueError("Rank of `condition` should be less than or equal to rank of "
                         "`then_expression` and `else_expression`. ndim(condition)="
                         f"{ndim(condition)}, ndim(then_expression)={ndim(then_x)}")
    if ndim(condition) > 1:
        extra = ndim(then_x) - ndim(condition)
        condition = array_ops.reshape(condition, condition.shape.as_list() + [1] * extra)
        condition = tile_ops.tile(condition, [t if c == 1 and t > 1 else 1 for c, t in
                                              zip(condition.shape.as_list(),
                                                  then_x.shape.as_list())])
    return scatter_ops.where(condition, then_x, else_x)


# --- activations, products and losses ------------------------------------------------------


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """Keras 2's relu: x above threshold, clipped at max_value, alpha times
    (x - threshold) below it."""
    x = convert_to_tensor(x)
    below = None
    if alpha != 0.0:
        below = nn_ops.relu(-x + threshold) if threshold != 0 else nn_ops.relu(-x)
    if threshold != 0:
        x = x * where_cast_ops.cast(comparison_ops.greater(x, threshold), x.dtype)
    else:
        x = nn_ops.relu(x)
    if max_value is not None:
        x = arithmetic_ops.clip_by_value(x, convert_to_tensor(0, x.dtype),
                                         convert_to_tensor(max_value, x.dtype))
    if below is not None:
        x = x - convert_to_tensor(alpha, x.dtype) * below
    return x


def elu(x, alpha=1.0):
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    return scatter_ops.where(comparison_ops.greater(x, 0), res, alpha * res)


def sigmoid(x):
    return nn_ops.sigmoid(x)


def hard_sigmoid(x):
    """clip(0.2 x + 0.5, 0, 1)."""
    x = convert_to_tensor(x)
    y = x * convert_to_tensor(0.2, x.dtype) + convert_to_tensor(0.5, x.dtype)
    return arithmetic_ops.clip_by_value(y, 0.0, 1.0)


def softmax(x, axis=-1):
    x = convert_to_tensor(x)
    if x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        return nn_ops.softmax(x, axis=axis)
    e = arithmetic_ops.exp(x - reduction_ops.reduce_max(x, axis=axis, keepdims=True))
    return e / reduction_ops.reduce_sum(e, axis=axis, keepdims=True)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def l2_normalize(x, axis=None):
    return reduction_ops.l2_normalize(x, axis=axis)


def bias_add(x, bias, data_format=None):
    """x + bias on the channel axis (`data_format`, Keras's image format by default)."""
    data_format = data_format or config.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    x, bias = convert_to_tensor(x), convert_to_tensor(bias)
    b_shape = tuple(bias.shape.as_list())
    if len(b_shape) != 1 and len(b_shape) != ndim(x) - 1:
        raise ValueError(f"Unexpected bias dimensions {len(b_shape)}. Expected it to be 1 or "
                         f"{ndim(x) - 1} dimensions")
    if len(b_shape) == 1:
        fmt = "NCHW" if data_format == "channels_first" else "NHWC"
        return nn_ops.bias_add(x, bias, data_format=fmt)
    if ndim(x) in (3, 4, 5) and data_format == "channels_first":
        return x + array_ops.reshape(bias, (1, b_shape[-1]) + b_shape[:-1])
    return x + array_ops.reshape(bias, (1,) + b_shape)


def dot(x, y):
    """Keras 2's dot: matmul; for rank > 2, x's last axis against y's second to last."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if ndim(x) > 2 or ndim(y) > 2:
        xs, ys = x.shape.as_list(), y.shape.as_list()
        perm = list(range(ndim(y)))
        perm = [perm.pop(-2)] + perm
        xt = array_ops.reshape(x, [-1, xs[-1]])
        yt = array_ops.reshape(manipulation_ops.transpose(y, perm=perm), [ys[-2], -1])
        return array_ops.reshape(matmul_ops.matmul(xt, yt), xs[:-1] + ys[:-2] + ys[-1:])
    return matmul_ops.matmul(x, y)


def _clipped(output):
    eps = convert_to_tensor(config.epsilon(), output.dtype)
    return arithmetic_ops.clip_by_value(output, eps, 1.0 - eps)


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary crossentropy (output clipped to [eps, 1 - eps], + eps in the logs)."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        return cross_entropy_ops.sigmoid_cross_entropy_with_logits(labels=target,
                                                                   logits=output)
    output, eps = _clipped(output), config.epsilon()
    bce = target * arithmetic_ops.log(output + eps)
    bce = bce + (1 - target) * arithmetic_ops.log(1 - output + eps)
    return -bce


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        return cross_entropy_ops.softmax_cross_entropy_with_logits(labels=target,
                                                                   logits=output, axis=axis)
    output = _clipped(output / reduction_ops.reduce_sum(output, axis, True))
    return -reduction_ops.reduce_sum(target * arithmetic_ops.log(output), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Crossentropy of integer targets against `output` (probabilities unless from_logits)."""
    target = where_cast_ops.cast(convert_to_tensor(target), dtypes.int64)
    output = convert_to_tensor(output)
    if not from_logits:
        output = arithmetic_ops.log(_clipped(output))
    rank = output.shape.rank
    axis %= rank
    if axis != rank - 1:
        output = manipulation_ops.transpose(
            output, perm=list(range(axis)) + list(range(axis + 1, rank)) + [axis])
    out_shape = output.shape.as_list()
    reshaped = target.shape.rank != rank - 1
    if reshaped:
        target = flatten(target)
        output = array_ops.reshape(output, [-1, out_shape[-1]])
    res = cross_entropy_ops.sparse_softmax_cross_entropy_with_logits(labels=target,
                                                                     logits=output)
    if reshaped and rank >= 3:
        res = array_ops.reshape(res, out_shape[:-1])
    return res


def in_top_k(predictions, targets, k):
    return math_more_ops.in_top_k(targets, predictions, k)


# --- batched products, normalization, focal losses, padding -----------------------------


def _batch_dot_axes(x_shape, y_shape, axes):
    xn, yn = len(x_shape), len(y_shape)
    if xn < 2 or yn < 2:
        raise ValueError("Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"tf.shapes {x_shape} and {y_shape}.")
    if None not in (x_shape[0], y_shape[0]) and x_shape[0] != y_shape[0]:
        raise ValueError("Cannot do batch_dot on inputs with different batch sizes. Received "
                         f"inputs with tf.shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [xn - 1, yn - 1] if yn == 2 else [xn - 1, yn - 2]
    if _py_any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError("Multiple target dimensions are not supported. Expected: None, int, "
                         f"(int, int), Provided: {axes}")
    axes = [axes[0] % xn if axes[0] < 0 else axes[0], axes[1] % yn if axes[1] < 0 else axes[1]]
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "K.expand_dims(x, 0)")
    d1, d2 = x_shape[axes[0]], y_shape[axes[1]]
    if None not in (d1, d2) and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with tf.shapes {x_shape} and "
                         f"{y_shape} with axes={axes}. x.shape[{axes[0]}] != "
                         f"y.shape[{axes[1]}] ({d1} != {d2}).")
    return axes


def batch_dot(x, y, axes=None):
    """Per batch entry, x and y contracted over axes (x's, y's); the other axes
    of x, then of y (a rank-2 operand contributes none)."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    xs, ys = x.shape.as_list(), y.shape.as_list()
    a0, a1 = _batch_dot_axes(tuple(xs), tuple(ys), axes)
    x_rest = [i for i in range(1, len(xs)) if i != a0]
    y_rest = [i for i in range(1, len(ys)) if i != a1]
    xt = manipulation_ops.transpose(x, [0] + x_rest + [a0])
    yt = manipulation_ops.transpose(y, [0, a1] + y_rest)
    x_mid = [xs[i] for i in x_rest]
    y_mid = [ys[i] for i in y_rest]
    xm = array_ops.reshape(xt, [-1, int(np.prod(x_mid, dtype=np.int64)), xs[a0]])
    ym = array_ops.reshape(yt, [-1, ys[a1], int(np.prod(y_mid, dtype=np.int64))])
    out = matmul_ops.matmul(xm, ym)
    if len(xs) == len(ys) == 2:         # Keras 2 keeps one of the two unit axes
        return array_ops.reshape(out, [-1, 1])
    return array_ops.reshape(out, [-1] + x_mid + y_mid)


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    return nn_ops.batch_normalization(x, mean, var, beta, gamma, epsilon)


def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False):
    """binary_crossentropy times (1 - p_t) ** gamma (and the alpha weight)."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    prob = nn_ops.sigmoid(output) if from_logits else output
    p_t = target * prob + (1 - target) * (1 - prob)
    out = arithmetic_ops.pow(1.0 - p_t, gamma) * binary_crossentropy(target, output,
                                                                     from_logits)
    if apply_class_balancing:
        out = (target * alpha + (1 - target) * (1 - alpha)) * out
    return out


def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False,
                                   axis=-1):
    """sum(alpha (1 - p) ** gamma * -target log p) with p the normalized, clipped output."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    if from_logits:
        output = nn_ops.softmax(output, axis=axis)
    output = _clipped(output / reduction_ops.reduce_sum(output, axis=axis, keepdims=True))
    cce = -target * arithmetic_ops.log(output)
    focal = arithmetic_ops.pow(1.0 - output, gamma) * alpha * cce
    return reduction_ops.reduce_sum(focal, axis=axis)


def temporal_padding(x, padding=(1, 1)):
    if len(padding) != 2:
        raise ValueError("Expected `padding` to be a tuple of 2 integers. Received: "
                         f"padding={padding}")
    return shape_ops.pad(x, [[0, 0], list(padding), [0, 0]])


def _spatial_padding(x, padding, data_format, n):
    if len(padding) != n or _py_any(len(p) != 2 for p in padding):
        words = {2: "2 tuples", 3: "3 tuples"}[n]
        raise ValueError(f"Expected `padding` to be a tuple of {words} of 2 integers. "
                         f"Received: padding={padding}")
    data_format = data_format or config.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    sides = [list(p) for p in padding]
    pattern = [[0, 0], [0, 0]] + sides if data_format == "channels_first" \
        else [[0, 0]] + sides + [[0, 0]]
    return shape_ops.pad(x, pattern)


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    return _spatial_padding(x, padding, data_format, 2)


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    return _spatial_padding(x, padding, data_format, 3)
