"""`tf.nn` statistics, small losses and label ops: `sufficient_statistics`,
`normalize_moments`, `weighted_moments`, `crelu`, `log_poisson_loss`,
`batch_norm_with_global_normalization`, `collapse_repeated` and
`isotonic_regression` (`in_top_k` and `zero_fraction` are tf.math's, in
math_more_ops.py).

    tf.nn.weighted_moments(x, [0], frequency_weights=[[1.], [3.]])   # (mean, variance)
    tf.nn.isotonic_regression([[1., 3., 2., 4.]])                    # non-increasing fit

The differentiable ones are built from differentiable ops the way TF builds
them, so their gradients (NaNs included, as `log_poisson_loss`'s at a target
of 0) are TF's; `isotonic_regression`'s gradient averages the incoming
gradient over each pooled segment.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import shape, zeros_like
from runtime._src.ops.manipulation_ops import concat, squeeze, transpose
from runtime._src.ops.nn_ops import batch_normalization, relu
from runtime._src.ops.reduction_ops import reduce_mean, reduce_prod, reduce_sum, static_axis
from runtime._src.ops.special_math_ops import divide_no_nan

__all__ = ["sufficient_statistics", "normalize_moments", "weighted_moments", "crelu",
           "log_poisson_loss", "batch_norm_with_global_normalization", "collapse_repeated",
           "isotonic_regression"]


def _tensor(x):
    return convert_to_tensor(unwrap_variable(x))


def _axes(axes, op_name):
    axes = static_axis(axes, op_name, "axes")
    return None if axes is None else list(axes) if isinstance(axes, (tuple, list)) else [axes]


# --- moments ---------------------------------------------------------------------

def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """`(count, mean_ss, variance_ss, shift)`: the element count over `axes`
    and the sums of `x - shift` and of its squares (of `x` and `x**2` when
    `shift` is None)."""
    x = _tensor(x)
    axes = _axes(axes, "sufficient_statistics")
    dims = shape(x)
    sizes = [dims[a] for a in (axes if axes is not None else range(x.shape.rank))]
    count = math_ops.cast(reduce_prod(sizes) if sizes else 1, x.dtype)
    if shift is not None:
        shift = convert_to_tensor(shift, x.dtype)
        m_ss = reduce_sum(math_ops.subtract(x, shift), axes, keepdims=keepdims)
        v_ss = reduce_sum(math_ops.squared_difference(x, shift), axes, keepdims=keepdims)
    else:
        m_ss = reduce_sum(x, axes, keepdims=keepdims)
        v_ss = reduce_sum(math_ops.square(x), axes, keepdims=keepdims)
    return count, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """`(mean, variance)` from `sufficient_statistics`' sums."""
    divisor = math_ops.reciprocal(_tensor(counts))
    shifted_mean = math_ops.multiply(_tensor(mean_ss), divisor)
    mean = shifted_mean if shift is None else math_ops.add(shifted_mean, shift)
    variance = math_ops.subtract(math_ops.multiply(_tensor(variance_ss), divisor),
                                 math_ops.square(shifted_mean))
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """`(mean, variance)` of `x` over `axes`, each element counted
    `frequency_weights` times (broadcast to x); zero total weight gives 0."""
    x = _tensor(x)
    low = x.dtype == dtypes.float16
    if low:
        x = math_ops.cast(x, dtypes.float32)
    weights = convert_to_tensor(frequency_weights, x.dtype)
    axes = _axes(axes, "weighted_moments")
    total = reduce_sum(math_ops.multiply(weights, x), axes, keepdims=True)
    weight_sum = reduce_sum(math_ops.add(weights, zeros_like(x)), axes, keepdims=True)
    mean = divide_no_nan(total, weight_sum)
    spread = reduce_sum(math_ops.multiply(weights, math_ops.squared_difference(x, mean)), axes,
                        keepdims=True)
    variance = divide_no_nan(spread, weight_sum)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if low:
        mean, variance = math_ops.cast(mean, dtypes.float16), math_ops.cast(variance,
                                                                            dtypes.float16)
    return mean, variance


# --- activations and losses -----------------------------------------------------------

def crelu(features, axis=-1, name=None):
    """`relu(concat([features, -features], axis))`: twice the channels."""
    features = _tensor(features)
    return relu(concat([features, math_ops.negative(features)], axis))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """`exp(log_input) - targets * log_input`, plus (with `compute_full_loss`)
    the Stirling term of `log(targets!)` for targets above 1."""
    log_input = _tensor(log_input)
    targets = convert_to_tensor(unwrap_variable(targets), log_input.dtype)
    if log_input.shape.rank is not None and targets.shape.rank is not None \
            and not log_input.shape.is_compatible_with(targets.shape):
        raise ValueError(f"log_input and targets must have the same shape ({log_input.shape} vs "
                         f"{targets.shape})")
    result = math_ops.subtract(math_ops.exp(log_input), math_ops.multiply(log_input, targets))
    if not compute_full_loss:
        return result
    stirling = math_ops.add(
        math_ops.subtract(math_ops.multiply(targets, math_ops.log(targets)), targets),
        math_ops.multiply(0.5, math_ops.log(math_ops.multiply(2 * np.pi, targets))))
    zeros = zeros_like(targets)
    small = math_ops.logical_and(math_ops.greater_equal(targets, zeros),
                                 math_ops.less_equal(targets, math_ops.add(zeros, 1)))
    return math_ops.add(result, math_ops.where(small, zeros, stirling))


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,
                                         variance_epsilon, scale_after_normalization,
                                         name=None):  # TensorFlow's names
    """`batch_normalization` with `gamma` applied only if
    `scale_after_normalization` (TF 1's argument order)."""
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon)


# --- collapse_repeated ----------------------------------------------------------------

def _infer_collapse(inputs, attrs):
    labels = inputs[0]
    batch = labels.shape.dims[0] if labels.shape.rank == 2 else None
    return [(labels.dtype, TensorShape([batch, None])), (inputs[1].dtype, TensorShape([batch]))]


@define_op("CollapseRepeated", infer=_infer_collapse, num_outputs=2)
def _collapse_repeated(labels, lengths):
    rows = []
    for row, n in zip(labels, lengths):
        row = row[:max(int(n), 0)]
        keep = np.ones(len(row), bool)
        keep[1:] = row[1:] != row[:-1]
        rows.append(row[keep])
    width = max((len(r) for r in rows), default=0)
    out = np.zeros((len(rows), width), labels.dtype)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out, np.array([len(r) for r in rows], lengths.dtype)


not_differentiable("CollapseRepeated")


def collapse_repeated(labels, seq_length, name=None):
    """`(collapsed, new_lengths)`: each row's first `seq_length` labels with
    runs of one label merged, padded with 0 to the longest result."""
    return apply("CollapseRepeated", [_tensor(labels), _tensor(seq_length)])


# --- isotonic_regression ------------------------------------------------------------

def _pool_adjacent_violators(row):
    """(fitted values, segment ids) of the non-increasing least-squares fit."""
    sums, counts = [], []
    for v in row:
        total, count = float(v), 1
        while sums and sums[-1] / counts[-1] < total / count:    # a rise: pool it
            total, count = total + sums.pop(), count + counts.pop()
        sums.append(total)
        counts.append(count)
    values = np.repeat([s / c for s, c in zip(sums, counts)], counts)
    return values, np.repeat(np.arange(len(counts)), counts)


def _infer_isotonic(inputs, attrs):
    x = inputs[0]
    return [(attrs["out_dtype"], x.shape), (dtypes.int32, x.shape)]


@define_op("IsotonicRegression", infer=_infer_isotonic, num_outputs=2)
def _isotonic(x, *, out_dtype):
    rows = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
    values = np.empty(rows.shape, out_dtype.np_dtype)
    segments = np.empty(rows.shape, np.int32)
    for i, row in enumerate(rows):
        values[i], segments[i] = _pool_adjacent_violators(row.astype(np.float64))
    return values.reshape(x.shape), segments.reshape(x.shape)


@define_op("IsotonicRegressionGrad", infer=lambda inputs, attrs: [(inputs[0].dtype,
                                                                    inputs[0].shape)])
def _isotonic_grad_kernel(grad, segments):
    flat_grad = grad.reshape(-1, grad.shape[-1]) if grad.ndim else grad.reshape(1, 1)
    flat_seg = segments.reshape(flat_grad.shape)
    out = np.empty_like(flat_grad)
    for i, (g, s) in enumerate(zip(flat_grad, flat_seg)):
        totals = np.bincount(s, weights=g)
        counts = np.bincount(s)
        out[i] = (totals / np.maximum(counts, 1))[s]
    return out.reshape(grad.shape)


not_differentiable("IsotonicRegressionGrad")


@define_grad("IsotonicRegression")
def _isotonic_grad(op, grad, segments_grad):
    return [apply("IsotonicRegressionGrad", [grad, op.outputs[1]])]


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """`tf.nn.isotonic_regression`: `(values, segments)`, the least-squares
    monotone (non-increasing, or non-decreasing with `decreasing=False`) fit
    along `axis` and, for each element, the index of its pooled segment.
    Floating inputs keep their dtype; others give float64."""
    x = _tensor(inputs)
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"isotonic_regression: a numeric tensor is needed, got {x.dtype.name}")
    rank = x.shape.rank
    if rank is None:
        raise ValueError("isotonic_regression: the input's rank must be known")
    axis = axis % rank
    out_dtype = x.dtype if x.dtype.is_floating else dtypes.float64
    if x.dtype != out_dtype:
        x = math_ops.cast(x, out_dtype)
    perm = None
    if axis != rank - 1:
        perm = [d for d in range(rank) if d != axis] + [axis]
        x = transpose(x, perm)
    if not decreasing:
        x = math_ops.negative(x)
    values, segments = apply("IsotonicRegression", [x], {"out_dtype": out_dtype})
    if not decreasing:
        values = math_ops.negative(values)
    if perm is not None:
        back = list(np.argsort(perm))
        values, segments = transpose(values, back), transpose(segments, back)
    return values, segments
