"""Reductions: `reduce_sum/mean/max/min/prod/all/any`, `argmax`, `argmin`,
`reduce_euclidean_norm`, the scans `cumsum`/`cumprod` (defined in
cumulative_ops, importable from here), and what TensorFlow
composes from them: `reduce_logsumexp/variance/std`, `count_nonzero`, `norm`,
`l2_normalize`, `nn.moments`.

`axis` is None (reduce everything), an int or a list of ints (negative
counts from the end); it must be known while tracing. `keepdims=True` keeps
reduced dimensions with length 1.

    >>> reduce_sum(constant([[1, 2], [3, 4]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 7], dtype=int32)>

As in TensorFlow, integer sums and products stay in the input dtype and an
integer mean truncates toward zero; `argmax`/`argmin` return int64 unless
`output_type` says otherwise.
"""

import numpy as np

from runtime._src.core.composite import dispatch_api
from runtime._src.core import dtype_promotion, dtypes
from runtime._src.core.context import plain_eager
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.core.tensor import (EagerTensor, Tensor, convert_to_tensor, is_tensor_like,
                                      unwrap_variable)
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops import math_ops
from runtime._src.ops.cumulative_ops import cumprod, cumsum
from runtime._src.ops.gradient_ops import broadcast_like
from runtime._src.ops.manipulation_ops import concat, expand_dims, squeeze, transpose
from runtime._src.ops.base_ops import (ARITHMETIC_UINTS, BOOL, FLOATS, NUMERIC, NUMERIC_UINTS,
                                       dtype_error, run_kernel_now, weak_input)
from runtime._src.ops.shape_rules import normalize_axis, static_bool, static_int, static_value

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
           "reduce_all", "reduce_any", "argmax", "argmin", "reduce_euclidean_norm",
           "reduce_logsumexp", "reduce_variance", "reduce_std", "count_nonzero", "cumsum",
           "cumprod", "norm", "l2_normalize", "moments"]


def static_axis(axis, op_name, what="axis"):
    """`axis` as None, an int or a tuple of ints; tensors must be constant."""
    if axis is None:
        return None
    axis = unwrap_variable(axis)
    if isinstance(axis, Tensor):
        axis = static_value(axis, op_name, what).tolist()
    if isinstance(axis, (list, tuple)):
        axis = [static_int(a, op_name, what) if is_tensor_like(a) else a for a in axis]
    if isinstance(axis, (list, tuple, np.ndarray)):
        return tuple(_int_axis(a, op_name, what) for a in np.reshape(axis, -1).tolist())
    return _int_axis(axis, op_name, what)


def _int_axis(a, op_name, what):
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        raise TypeError(f"{op_name}: {what} must be an int or a list of ints, got {a!r}")
    return int(a)


def _reduced_shape(shape, axis, keepdims):
    """The static shape after reducing `axis` of `shape`."""
    if shape.dims is None:
        return TensorShape([] if axis is None and not keepdims else None)
    rank = len(shape.dims)
    if axis is None:
        return TensorShape([1] * rank if keepdims else [])
    axes = axis if isinstance(axis, tuple) else (axis,)
    normalized = [normalize_axis(a, rank) for a in axes]
    axes = set(normalized)
    if len(axes) != len(normalized):
        raise ValueError(f"Invalid reduction arguments: axis {list(axis)} contains a "
                         "duplicate dimension")
    if keepdims:
        return TensorShape([1 if i in axes else d for i, d in enumerate(shape.dims)])
    return TensorShape([d for i, d in enumerate(shape.dims) if i not in axes])


def _infer_reduce(inputs, attrs):
    x = inputs[0]
    return [(x.dtype, _reduced_shape(x.shape, attrs["axis"], attrs["keepdims"]))]


@define_op("Sum", infer=_infer_reduce)
def _sum(x, axis, keepdims):
    if _over_leading_axes(x, axis):
        return _leading_sum(x, len(axis), keepdims)
    return np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)  # np.sum, less overhead


_EINSUM_SUM_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _over_leading_axes(x, axis):
    """True for a float32/64 C-contiguous `x` summed over its first k axes (k < rank),
    keeping at least 2 elements: a bias gradient (N, H, W, C) -> (C,)."""
    return (type(axis) is tuple and 0 < len(axis) < x.ndim and axis == tuple(range(len(axis)))
            and x.dtype in _EINSUM_SUM_DTYPES and x.flags.c_contiguous
            and x.size >= 2 * int(np.prod(x.shape[len(axis):]))
            and int(np.prod(x.shape[len(axis):])) >= 2)


def _leading_sum(x, k, keepdims):
    """`x` summed over its first `k` axes as einsum over its (rows, rest) matrix:
    the rows are added one after another in order, as numpy's add.reduce adds
    them when the kept axes are the contiguous ones (the same bits), at about
    2.5x its speed."""
    kept = x.shape[k:]
    total = np.einsum("ij->j", x.reshape(-1, int(np.prod(kept)))).reshape(kept)
    return total.reshape((1,) * k + kept) if keepdims else total


def _grad_back(op, grad):
    """A reduction's output gradient broadcast back to the input's shape."""
    axis = op.attrs["axis"]
    axes = () if op.attrs["keepdims"] or axis is None else axis
    return broadcast_like(grad, op.inputs[0], axes if isinstance(axes, tuple) else (axes,))


def _output_back(op):
    """The reduction's output, broadcast back to the input's shape."""
    return _grad_back(op, op.outputs[0])


@define_grad("Sum")
def _sum_grad(op, grad):
    return [_grad_back(op, grad)]


@define_op("Prod", infer=_infer_reduce)
def _prod(x, axis, keepdims):
    return np.prod(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


@define_grad("Prod")
def _prod_grad(op, grad):
    # As TF: d prod / d x_i is the product of the group's other elements, finite
    # with zeros (TF 2.21: [6, 0, 0] for [0, 2, 3]; all 0 for two zeros).
    x = op.inputs[0]
    if x.shape.rank is None and op.attrs["axis"] is not None:    # no axis to lay out
        return [math_ops.truediv(_grad_back(op, math_ops.multiply(grad, op.outputs[0])), x)]
    others = _others_product(x, op.attrs["axis"])
    if x.dtype.is_complex:         # TF: the conjugate of the others' product
        others = apply("Conj", (others,), {})
    return [math_ops.multiply(_grad_back(op, grad), others)]


def _exclusive_both_ways(x, axis):
    """Each element's product of the others along `axis`: the exclusive running
    products from both ends, multiplied."""
    attrs = {"axis": axis, "exclusive": True}
    return math_ops.multiply(apply("Cumprod", (x,), dict(attrs, reverse=False)),
                             apply("Cumprod", (x,), dict(attrs, reverse=True)))


def _others_product(x, axis):
    """For each element of `x`, the product of the other elements of its
    reduction group (the reduced axes laid out as one, as TF does)."""
    from runtime._src.ops.array_ops import reshape, shape
    if axis is None:
        return reshape(_exclusive_both_ways(reshape(x, [-1]), 0), shape(x))
    rank = x.shape.rank
    axes = sorted({normalize_axis(a, rank) for a in (axis if isinstance(axis, tuple)
                                                     else (axis,))})
    if len(axes) == 1:
        return _exclusive_both_ways(x, axes[0])
    perm = [i for i in range(rank) if i not in axes] + axes
    laid = transpose(x, perm)
    dims = shape(laid)
    kept = rank - len(axes)
    flat = reshape(laid, concat([dims[:kept], [-1]], 0) if kept else [-1])
    back = reshape(_exclusive_both_ways(flat, kept), dims)
    return transpose(back, list(np.argsort(perm)))


@define_op("Mean", infer=_infer_reduce)
def _mean(x, axis, keepdims):
    if x.dtype.kind in "iu":
        # TF sums integers narrower than 64 bits without wrapping (int32
        # [max, max, 1] means max); 64-bit sums wrap.
        wide = x.dtype if x.dtype.itemsize == 8 else np.int64 if x.dtype.kind == "i" \
            else np.uint64
        total = np.sum(x, axis=axis, dtype=wide, keepdims=keepdims)
        count = _count(x.shape, axis)
        if count == 0:
            return total.astype(x.dtype)         # an empty integer mean is 0, as in TF
        quotient = np.abs(total) // count        # integer mean truncates toward zero
        return (np.sign(total) * quotient).astype(x.dtype)
    if x.size == 0:                              # 0 / 0: NaN, without numpy's warning
        return np.full_like(np.sum(x, axis=axis, dtype=x.dtype, keepdims=keepdims), np.nan)
    # np.mean(x, axis, dtype=x.dtype, keepdims)'s own arithmetic, step for step,
    # without its Python-level overhead.
    total = np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
    count = np.intp(x.size // total.size)
    if isinstance(total, np.ndarray):
        return np.true_divide(total, count, out=total, casting="unsafe")
    return total.dtype.type(total / count)


@define_grad("Mean")
def _mean_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    if x.shape.is_fully_defined() and y.shape.is_fully_defined():
        count = max(int(np.prod(x.shape.dims)) // max(int(np.prod(y.shape.dims)), 1), 1)
        return [_grad_back(op, math_ops.multiply(grad, 1.0 / count))]
    count = math_ops.truediv(math_ops.cast(_size(x), x.dtype), math_ops.cast(_size(y), x.dtype))
    return [math_ops.truediv(_grad_back(op, grad), math_ops.maximum(count, 1))]


def _size(t):
    return apply("Size", (t,), {"out_type": dtypes.int32})


def _count(shape, axis):
    """How many elements each reduced value is made of."""
    if axis is None:
        return int(np.prod(shape))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return int(np.prod([shape[a] for a in axes]))


@define_op("Max", infer=_infer_reduce)
def _max(x, axis, keepdims):
    if x.size == 0:                 # the identity: -inf, or the integer dtype's lowest
        return np.max(x, axis=axis, keepdims=keepdims, initial=_lowest(x.dtype))
    return np.max(x, axis=axis, keepdims=keepdims)


@define_op("Min", infer=_infer_reduce)
def _min(x, axis, keepdims):
    if x.size == 0:                 # the identity: +inf, or the integer dtype's highest
        return np.min(x, axis=axis, keepdims=keepdims, initial=_highest(x.dtype))
    return np.min(x, axis=axis, keepdims=keepdims)


@define_grad("Max")
def _max_grad(op, grad):
    # The gradient goes to the extreme elements, split evenly between ties (as TF).
    x = op.inputs[0]
    chosen = math_ops.cast(math_ops.equal(x, _output_back(op)), x.dtype)
    axis = op.attrs["axis"]
    count = apply("Sum", (chosen,), {"axis": axis, "keepdims": op.attrs["keepdims"]})
    return [math_ops.multiply(chosen, _grad_back(op, math_ops.truediv(grad, count)))]


define_grad("Min")(_max_grad)


def _lowest(np_dtype):
    return -np.inf if dtypes.is_float_array(np_dtype) else np.iinfo(np_dtype).min


def _highest(np_dtype):
    return np.inf if dtypes.is_float_array(np_dtype) else np.iinfo(np_dtype).max


@define_op("All", infer=_infer_reduce)
def _all(x, axis, keepdims):
    return np.all(x, axis=axis, keepdims=keepdims)


@define_op("Any", infer=_infer_reduce)
def _any(x, axis, keepdims):
    return np.any(x, axis=axis, keepdims=keepdims)


not_differentiable("All", "Any")


@define_op("EuclideanNorm", infer=_infer_reduce)
def _euclidean_norm(x, axis, keepdims):
    if x.dtype.kind in "iu":        # TF: the integer square root of the integer sum
        total = np.sum(np.square(x, dtype=np.float64), axis=axis, keepdims=keepdims)
        return np.floor(np.sqrt(total)).astype(x.dtype)
    return np.sqrt(np.sum(np.square(x), axis=axis, dtype=x.dtype, keepdims=keepdims))


@define_grad("EuclideanNorm")
def _euclidean_norm_grad(op, grad):
    x = op.inputs[0]
    return [math_ops.multiply(_grad_back(op, math_ops.truediv(grad, op.outputs[0])), x)]


def _reduce(op_name, input_tensor, axis, keepdims, allowed):
    if dtype_promotion.mode() is not None and not isinstance(input_tensor, Tensor):
        input_tensor = weak_input(input_tensor)
    out = dispatch_api("reduce", (input_tensor,), input_tensor, op_name, axis, keepdims)
    if out is not NotImplemented:                              # a tf.RaggedTensor
        return out
    x = convert_to_tensor(input_tensor)
    if x.dtype not in allowed:
        raise dtype_error(op_name, x.dtype, allowed)
    attrs = {"axis": static_axis(axis, op_name), "keepdims": static_bool(keepdims, op_name, "keepdims")}
    if x.__class__ is EagerTensor and plain_eager():
        _check_axes_now(op_name, attrs["axis"], x.shape.rank)
        return run_kernel_now(op_name, (x,), attrs, x.dtype)
    return apply(op_name, (x,), attrs)


def _check_axes_now(op_name, axis, rank):
    """Eagerly, an axis out of range is TensorFlow's InvalidArgumentError."""
    axes = () if axis is None else axis if isinstance(axis, tuple) else (axis,)
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(
                f"{op_name}: Invalid reduction dimension ({a} for input with {rank} "
                f"dimension(s)); expected {-rank} <= axis < {rank}", op_name)
    if len({a % rank for a in axes}) != len(axes):
        raise InvalidArgumentError(f"{op_name}: Invalid reduction arguments: axis "
                                   f"{list(axes)} contains a duplicate dimension", op_name)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over `axis` (all axes when None)."""
    return _reduce("Sum", input_tensor, axis, keepdims, ARITHMETIC_UINTS)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over `axis`; integer inputs give the truncated integer mean."""
    return _reduce("Mean", input_tensor, axis, keepdims, ARITHMETIC_UINTS)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Maximum over `axis`."""
    return _reduce("Max", input_tensor, axis, keepdims, NUMERIC_UINTS)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Minimum over `axis`."""
    return _reduce("Min", input_tensor, axis, keepdims, NUMERIC_UINTS)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product over `axis` (complex too, as TF's kernel)."""
    return _reduce("Prod", input_tensor, axis, keepdims, ARITHMETIC_UINTS)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical AND over `axis` of a bool tensor."""
    return _reduce("All", input_tensor, axis, keepdims, BOOL)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical OR over `axis` of a bool tensor."""
    return _reduce("Any", input_tensor, axis, keepdims, BOOL)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x**2)) over `axis`; integer inputs stay integers (the floor)."""
    return _reduce("EuclideanNorm", input_tensor, axis, keepdims, NUMERIC)


# --- composed as TensorFlow composes them ----------------------------------------

def _float_input(op_name, input_tensor):
    x = convert_to_tensor(input_tensor)
    if x.dtype not in FLOATS:
        raise dtype_error(op_name, x.dtype, FLOATS)
    return x


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over `axis`, computed stably around the (finite) maximum."""
    out = dispatch_api("reduce_logsumexp", (input_tensor,), input_tensor, axis, keepdims)
    if out is not NotImplemented:                              # a tf.RaggedTensor
        return out
    x = _float_input("ReduceLogSumExp", input_tensor)
    raw_max = reduce_max(x, axis, keepdims=True)
    my_max = math_ops.where(math_ops.is_finite(raw_max), raw_max, math_ops.cast(0, x.dtype))
    result = math_ops.log(reduce_sum(math_ops.exp(math_ops.subtract(x, my_max)), axis, keepdims))
    # The reduced dimensions of my_max have length 1: reducing them again drops them.
    return math_ops.add(result, my_max if keepdims else reduce_max(my_max, axis))


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Mean squared deviation from the mean over `axis`; floating-point only, as in TF."""
    out = dispatch_api("reduce_variance", (input_tensor,), input_tensor, axis, keepdims)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    x = convert_to_tensor(input_tensor)
    if x.dtype in NUMERIC and x.dtype not in FLOATS:
        raise TypeError(f"Input must be either real or complex. Received integer type "
                        f"{x.dtype!r}.")
    means = reduce_mean(x, axis, keepdims=True)
    return reduce_mean(math_ops.square(math_ops.subtract(x, means)), axis, keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Standard deviation over `axis`: sqrt(reduce_variance)."""
    return math_ops.sqrt(reduce_variance(input_tensor, axis, keepdims))


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):
    """How many elements along `axis` are not zero (not False, not ""), as `dtype`."""
    x = convert_to_tensor(input)
    zero = convert_to_tensor(np.zeros((), x.dtype.np_dtype) if x.dtype != dtypes.string
                             else "")
    nonzero = math_ops.cast(math_ops.not_equal(x, zero), dtypes.int64)
    keepdims = False if keepdims is None else keepdims
    return math_ops.cast(reduce_sum(nonzero, axis, keepdims), dtypes.as_dtype(dtype))


_MATRIX_NORMS = ("euclidean", "fro", 1, 2, np.inf)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    """TF's `tf.norm`: a vector norm (axis None or an int) or a matrix norm
    (axis a pair): 'euclidean', 'fro' (matrices), 1, 2, inf, or any p > 0 for vectors.
    The matrix 2-norm is the largest singular value (the `Svd` op of linalg_ops,
    applied by name: linalg_ops imports this module)."""
    x = convert_to_tensor(tensor)
    keepdims = False if keepdims is None else keepdims
    axis = static_axis(axis, "norm")
    is_matrix_norm = isinstance(axis, tuple) and len(axis) == 2
    if is_matrix_norm:
        if axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        if not (isinstance(ord, str) and ord in _MATRIX_NORMS
                or any(_same_ord(ord, o) for o in _MATRIX_NORMS)):
            raise ValueError(f"'ord' must be a supported matrix norm in {list(_MATRIX_NORMS)}, "
                             f"got {ord}")
        if _same_ord(ord, 2):                    # as TF: the pair moved last, svd, max
            if x.dtype not in (dtypes.float32, dtypes.float64):
                raise dtype_error("Svd", x.dtype, frozenset((dtypes.float32, dtypes.float64)))
            rank = x.shape.rank
            if rank is None:
                raise ValueError("norm: ord=2 on a matrix needs an input of known rank")
            pair = [normalize_axis(a, rank) for a in axis]
            rest = [d for d in range(rank) if d not in pair]
            s = apply("Svd", (transpose(x, rest + pair),),
                      {"compute_uv": False, "full_matrices": False})[0]
            result = reduce_max(s, -1)
            if keepdims:
                for d in sorted(pair):
                    result = expand_dims(result, d)
            return result
    else:
        if isinstance(axis, tuple):
            if len(axis) != 1:
                raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                                 f"integers, got {list(axis)}")
            axis = axis[0]
        if isinstance(ord, str) and ord != "euclidean" or \
                not isinstance(ord, str) and (isinstance(ord, bool) or
                                              not isinstance(ord, (int, float, np.number))
                                              or ord <= 0):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    if isinstance(ord, str) or (not is_matrix_norm and _same_ord(ord, 2)):
        result = math_ops.sqrt(reduce_sum(math_ops.square(x), axis, keepdims=True))
    else:
        result = math_ops.abs(x)
        if _same_ord(ord, 1):
            result = reduce_sum(result, None if axis is None else axis[0], keepdims=True)
            if is_matrix_norm:
                result = reduce_max(result, axis[-1], keepdims=True)
        elif _same_ord(ord, np.inf):
            if is_matrix_norm:
                result = reduce_sum(result, axis[1], keepdims=True)
            result = reduce_max(result, None if axis is None else axis[0], keepdims=True)
        else:                                    # a general p-norm, p > 0
            p = math_ops.cast(ord, x.dtype)
            result = math_ops.pow(reduce_sum(math_ops.pow(result, p), axis, keepdims=True),
                                  math_ops.cast(1.0 / ord, x.dtype))
    if not keepdims:
        result = squeeze(result, None if axis is None else list(axis))
    return result


def _same_ord(ord, value):
    return not isinstance(ord, (str, bool)) and ord == value


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x**2, axis), epsilon))."""
    axis = dim if axis is None else axis
    x = convert_to_tensor(x)
    square_sum = reduce_sum(math_ops.square(x), axis, keepdims=True)
    # epsilon straight in x's dtype, as TF (through float32, 1e-12 is 9.9999999600e-13)
    x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, convert_to_tensor(epsilon, x.dtype)))
    return math_ops.multiply(x, x_inv_norm)


def moments(x, axes, shift=None, keepdims=False, name=None):
    """`(mean, variance)` of `x` over `axes`; float16 is computed in float32, as in TF."""
    x = convert_to_tensor(x)
    y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
    axes = static_axis(axes, "moments", "axes")
    mean = reduce_mean(y, axes, keepdims=True)
    variance = reduce_mean(math_ops.squared_difference(y, mean), axes, keepdims=True)
    if not keepdims:
        squeeze_axes = None if axes is None else list(axes) if isinstance(axes, tuple) else [axes]
        mean, variance = squeeze(mean, squeeze_axes), squeeze(variance, squeeze_axes)
    if x.dtype == dtypes.float16:
        return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
    return mean, variance


# --- argmax / argmin -----------------------------------------------------------

def _infer_arg(inputs, attrs):
    x = inputs[0]
    return [(attrs["output_type"], _reduced_shape(x.shape, attrs["axis"], False))]


def _nan_skipped(x, fill):
    """As TF, argmax/argmin pass over NaNs (all NaN: index 0)."""
    if dtypes.is_float_array(x.dtype) and x.size:
        return np.where(np.isnan(x), fill, x)
    return x


@define_op("ArgMax", infer=_infer_arg)
def _argmax(x, axis, output_type):
    _check_arg_axis("ArgMax", x, axis)
    return np.argmax(_nan_skipped(x, -np.inf), axis=axis).astype(output_type.np_dtype)


@define_op("ArgMin", infer=_infer_arg)
def _argmin(x, axis, output_type):
    _check_arg_axis("ArgMin", x, axis)
    return np.argmin(_nan_skipped(x, np.inf), axis=axis).astype(output_type.np_dtype)


not_differentiable("ArgMax", "ArgMin")


def _check_arg_axis(op_name, x, axis):
    """TensorFlow's errors for an axis out of range or of length 0."""
    rank = np.ndim(x)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{op_name}: Expected dimension in the range "
                                   f"[{-rank}, {rank}), but got {axis}", op_name)
    if rank and np.shape(x)[axis] == 0:
        raise InvalidArgumentError(f"{op_name}: Reduction axis {axis} is empty in shape "
                                   f"{list(np.shape(x))}", op_name)


def _arg(op_name, x, axis, output_type):
    x = convert_to_tensor(x)
    if x.dtype not in NUMERIC_UINTS and x.dtype != dtypes.bool:     # TF takes bools too
        raise dtype_error(op_name, x.dtype, NUMERIC_UINTS)
    axis = 0 if axis is None else static_axis(axis, op_name)
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError(f"{op_name}: axis must be a single int, got {list(axis)}")
        axis = axis[0]
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_name}: output_type must be int32 or int64, got {output_type.name}")
    return apply(op_name, (x,), {"axis": axis, "output_type": output_type})


def argmax(input, axis=None, output_type=dtypes.int64, name=None):
    """Index of the largest value along `axis` (0 when None); int64 by default."""
    return _arg("ArgMax", input, axis, output_type)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):
    """Index of the smallest value along `axis` (0 when None); int64 by default."""
    return _arg("ArgMin", input, axis, output_type)
