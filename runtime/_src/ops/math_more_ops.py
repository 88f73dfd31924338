"""The smaller `tf.math` functions: `accumulate_n`, `scalar_mul`, `xdivy`,
`reciprocal_no_nan`, `nextafter`, `zero_fraction`, `is_non_decreasing`,
`is_strictly_increasing`, `invert_permutation`, `in_top_k`, `approx_max_k`,
`approx_min_k`, `approx_top_k`.

Most are compositions of existing ops (their gradients come from those);
`nextafter`, `invert_permutation` and `in_top_k` are ops of their own:

    invert_permutation(constant([3, 4, 0, 2, 1]))    # [2, 4, 3, 0, 1]
    in_top_k(constant([1]), constant([[1., 5., 5.]]), 1)   # [True]: ties count

`approx_max_k` and `approx_min_k` are exact here (TF's CPU kernel is exact
too, and takes only the last dimension and max_k; we take any dimension and
both directions, as TF under XLA).
"""

import collections

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import FLOATS, INTEGERS, NUMERIC, convert_pair, dtype_error
from runtime._src.ops.array_ops import reshape
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops.manipulation_ops import transpose
from runtime._src.ops.math_ops import (add_n, cast, equal, greater, greater_equal, multiply,
                                      scalar_mul,
                                       negative, truediv, where)
from runtime._src.ops.bitwise_ops import invert
from runtime._src.ops.reduction_ops import reduce_all, reduce_mean
from runtime._src.ops.sort_ops import top_k
from runtime._src.ops.special_math_ops import divide_no_nan

__all__ = ["accumulate_n", "scalar_mul", "xdivy", "reciprocal_no_nan", "nextafter",
           "zero_fraction", "is_non_decreasing", "is_strictly_increasing",
           "invert_permutation", "in_top_k", "approx_max_k", "approx_min_k", "approx_top_k"]


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """`tf.math.accumulate_n`: the elementwise sum of a list of tensors, as
    `add_n`; `shape` and `tensor_dtype`, when given, must match them."""
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("accumulate_n: inputs must be a non-empty list of tensors")
    inputs = [convert_to_tensor(t) for t in inputs]
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) is not inputs[0].dtype:
        raise TypeError(f"accumulate_n: tensor_dtype {dtypes.as_dtype(tensor_dtype).name} "
                        f"does not match the inputs' dtype {inputs[0].dtype.name}")
    if shape is not None and not TensorShape(shape).is_compatible_with(inputs[0].shape):
        raise ValueError(f"accumulate_n: shape {TensorShape(shape)} does not match the "
                         f"inputs' shape {inputs[0].shape}")
    return add_n(inputs)


def xdivy(x, y, name=None):
    """`tf.math.xdivy`: x / y, and 0 wherever x == 0 (even for y 0 or NaN)."""
    x, y = convert_pair(x, y, "Xdivy")
    if x.dtype not in FLOATS and not x.dtype.is_complex:
        raise dtype_error("Xdivy", x.dtype, FLOATS)
    zero = equal(x, 0)
    out = truediv(x, where(zero, convert_to_tensor(1, y.dtype), y))
    return where(zero, convert_to_tensor(0, out.dtype), out)


def reciprocal_no_nan(x, name=None):
    """`tf.math.reciprocal_no_nan`: 1 / x, and 0 where x == 0."""
    x = convert_to_tensor(x)
    if x.dtype not in FLOATS and not x.dtype.is_complex:
        raise dtype_error("ReciprocalNoNan", x.dtype, FLOATS)
    return divide_no_nan(convert_to_tensor(1, x.dtype), x)


@define_op("NextAfter", infer=rules.elementwise)
def _nextafter(x1, x2):
    return np.nextafter(x1, x2)


@define_grad("NextAfter")
def _nextafter_grad(op, grad):
    x1, x2 = op.inputs
    return [unbroadcast(grad, x1), unbroadcast(multiply(grad, 0), x2)]


def nextafter(x1, x2, name=None):
    """`tf.math.nextafter`: the next representable value after x1 toward x2
    (float32 and float64); its gradient is 1 for x1 and 0 for x2, as TF's."""
    x1, x2 = convert_pair(x1, x2, "NextAfter")
    if x1.dtype not in (dtypes.float32, dtypes.float64):
        raise dtype_error("NextAfter", x1.dtype, frozenset((dtypes.float32, dtypes.float64)))
    return apply("NextAfter", (x1, x2))


def zero_fraction(value, name=None):
    """`tf.math.zero_fraction`: the fraction of zeros in `value`, as float32
    (NaN for an empty tensor)."""
    value = convert_to_tensor(value)
    return reduce_mean(cast(equal(value, convert_to_tensor(0, value.dtype)), dtypes.float32))


def _monotone(x, compare, what):
    x = convert_to_tensor(x)
    if x.dtype not in NUMERIC:
        raise TypeError(f"{what}: expected a numeric tensor, got {x.dtype.name}")
    flat = reshape(x, [-1])
    return reduce_all(compare(flat[1:], flat[:-1]))


def is_non_decreasing(x, name=None):
    """`tf.math.is_non_decreasing`: True if x (read in row-major order) never
    decreases; True for fewer than two elements."""
    return _monotone(x, greater_equal, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """`tf.math.is_strictly_increasing`: True if each element (row-major order)
    is above the one before; True for fewer than two elements."""
    return _monotone(x, greater, "is_strictly_increasing")


def _infer_invert_permutation(inputs, attrs):
    (x,) = inputs
    if x.shape.rank not in (1, None):
        raise ValueError(f"InvertPermutation: x must be 1-D, got shape {x.shape}")
    return [(x.dtype, x.shape)]


@define_op("InvertPermutation", infer=_infer_invert_permutation)
def _invert_permutation(x):
    n = x.shape[0]
    out = np.full(n, -1, x.dtype)
    for i, v in enumerate(x.tolist()):
        if not 0 <= v < n:
            raise InvalidArgumentError(f"x[{i}] = {v} is not in [0, {n})",
                                       "InvertPermutation")
        if out[v] != -1:
            raise InvalidArgumentError(f"{v} is duplicated in the input.", "InvertPermutation")
        out[v] = i
    return out


not_differentiable("InvertPermutation")


def invert_permutation(x, name=None):
    """`tf.math.invert_permutation`: y with y[x[i]] = i, for a 1-D int32/int64
    permutation of 0..n-1 (an error names a duplicate or out-of-range value)."""
    x = convert_to_tensor(x)
    if x.dtype not in (dtypes.int32, dtypes.int64):
        raise dtype_error("InvertPermutation", x.dtype, frozenset((dtypes.int32, dtypes.int64)))
    return apply("InvertPermutation", (x,))


def _infer_in_top_k(inputs, attrs):
    predictions, targets, _ = inputs
    if predictions.shape.rank not in (2, None):
        raise ValueError(f"InTopKV2: predictions must be 2-D, got shape {predictions.shape}")
    if targets.shape.rank not in (1, None):
        raise ValueError(f"InTopKV2: targets must be 1-D, got shape {targets.shape}")
    return [(dtypes.bool, TensorShape([predictions.shape[0] if predictions.shape.rank else None]))]


@define_op("InTopKV2", infer=_infer_in_top_k)
def _in_top_k(predictions, targets, k):
    batch, classes = predictions.shape
    if targets.shape[0] != batch:
        raise InvalidArgumentError(f"First dimension of predictions {batch} must match length "
                                   f"of targets {targets.shape[0]}", "InTopKV2")
    valid = (targets >= 0) & (targets < classes)
    rows = np.arange(batch)
    target_value = predictions[rows, np.where(valid, targets, 0)]
    finite = np.all(np.isfinite(predictions), axis=1) & np.isfinite(target_value)
    above = np.sum(predictions > target_value[:, None], axis=1)
    return valid & finite & (above < k)


not_differentiable("InTopKV2")


def in_top_k(targets, predictions, k, name=None):
    """`tf.math.in_top_k`: whether each row's target class is among its k
    highest predictions (ties count in its favour; False for a target out of
    range or a row with a non-finite prediction, as TF)."""
    predictions = convert_to_tensor(predictions)
    targets = convert_to_tensor(targets)
    if predictions.dtype is not dtypes.float32:
        raise dtype_error("InTopKV2", predictions.dtype, frozenset((dtypes.float32,)))
    if targets.dtype not in (dtypes.int32, dtypes.int64):
        raise dtype_error("InTopKV2", targets.dtype, frozenset((dtypes.int32, dtypes.int64)))
    k = convert_to_tensor(k, targets.dtype)
    return apply("InTopKV2", (predictions, targets, k))


ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])


def _approx_k(operand, k, reduction_dimension, largest, what):
    operand = convert_to_tensor(operand)
    rank = operand.shape.rank
    if rank is None or rank == 0:
        raise ValueError(f"{what}: operand must have a known rank >= 1, got {operand.shape}")
    axis = rules.normalize_axis(reduction_dimension, rank, "reduction_dimension")
    perm = [i for i in range(rank) if i != axis] + [axis]
    back = list(np.argsort(perm))
    moved = transpose(operand, perm) if axis != rank - 1 else operand
    if largest:
        values, indices = top_k(moved, k)
    else:   # the smallest first: top_k of an order-reversing map (~x for integers)
        flipped = invert(moved) if moved.dtype in INTEGERS else negative(moved)
        values, indices = top_k(flipped, k)
        values = invert(values) if moved.dtype in INTEGERS else negative(values)
    if axis != rank - 1:
        values, indices = transpose(values, back), transpose(indices, back)
    return ApproxTopK(values, indices)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """`tf.math.approx_max_k`: the k largest values along `reduction_dimension`
    and their int32 indices, largest first (exact here, as TF's CPU kernel)."""
    if isinstance(k, Tensor):
        k = rules.static_int(k, "approx_max_k", "k")
    return _approx_k(operand, k, reduction_dimension, True, "approx_max_k")


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """`tf.math.approx_min_k`: the k smallest values along `reduction_dimension`
    and their int32 indices, smallest first (exact)."""
    if isinstance(k, Tensor):
        k = rules.static_int(k, "approx_min_k", "k")
    return _approx_k(operand, k, reduction_dimension, False, "approx_min_k")


def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """`tf.approx_top_k` (the `ApproxTopK` op): `approx_max_k` or, with
    `is_max_k=False`, `approx_min_k` of a float16 or float32 `input`; exact here
    (TF's CPU kernel is exact for the max along the last dimension; the others are
    TF's XLA results)."""
    input = convert_to_tensor(input)  # noqa: A001
    if input.dtype not in (dtypes.float16, dtypes.float32):
        raise InvalidArgumentError(f"approx_top_k: input must be float16 or float32 "
                                   f"(TF's ApproxTopK types), got {input.dtype.name}")
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 0:
        raise InvalidArgumentError(f"approx_top_k: k must be a Python int >= 0, got {k!r}")
    return _approx_k(input, int(k), reduction_dimension, bool(is_max_k), "approx_top_k")
