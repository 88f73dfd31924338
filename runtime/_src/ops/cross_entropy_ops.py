"""The cross-entropy ops: `softmax_cross_entropy_with_logits` (dense labels),
`sparse_softmax_cross_entropy_with_logits` (class indices),
`sigmoid_cross_entropy_with_logits` and `weighted_cross_entropy_with_logits`,
computed stably from logits as TensorFlow's kernels, with their gradients."""

import numpy as np

from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops import array_ops, math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import FLOATS, dtype_error
from runtime._src.ops.reduction_ops import reduce_sum
from runtime._src.ops.gradient_ops import broadcast_scalar
from runtime._src.ops.nn_ops import _checked, log_softmax, relu

__all__ = ["softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits",
           "sigmoid_cross_entropy_with_logits", "weighted_cross_entropy_with_logits"]


# --- cross-entropy -----------------------------------------------------------------

def _infer_sparse_xent(inputs, attrs):
    logits, labels = inputs
    problem = _sparse_shape_problem(logits.shape, labels.shape)
    if problem:
        raise ValueError(problem)
    if labels.shape.dims is not None:
        shape = labels.shape
    elif logits.shape.dims is not None:
        shape = TensorShape(logits.shape.dims[:-1])
    else:
        shape = TensorShape(None)
    if shape.dims is not None and logits.shape.dims is not None:
        shape = TensorShape([a if a is not None else b
                             for a, b in zip(shape.dims, logits.shape.dims[:-1])])
    return [(logits.dtype, shape)]


def _sparse_shape_problem(logits_shape, labels_shape):
    if logits_shape.rank == 0:
        return "Logits cannot be scalars - received shape []."
    if logits_shape.rank is None or labels_shape.rank is None:
        return None
    if labels_shape.rank != logits_shape.rank - 1:
        return (f"Rank mismatch: Rank of labels (received {labels_shape.rank}) should equal "
                f"rank of logits minus 1 (received {logits_shape.rank}).")
    if not labels_shape.is_compatible_with(TensorShape(logits_shape.dims[:-1])):
        return (f"Shape mismatch: The shape of labels (received {rules.dims_text(labels_shape)}) "
                f"should equal the shape of logits except for the last dimension "
                f"(received {rules.dims_text(logits_shape)}).")
    return None


def _infer_sparse_xent_pair(inputs, attrs):
    (loss,) = _infer_sparse_xent(inputs, attrs)
    return [loss, (inputs[0].dtype, inputs[0].shape)]


@define_op("SparseSoftmaxCrossEntropyWithLogits", infer=_infer_sparse_xent_pair, num_outputs=2)
def _sparse_xent(logits, labels):
    """(loss, backprop) as TensorFlow's kernel: -log(softmax(logits)[label]) per row,
    and its derivative for each logit, softmax(logits) - one_hot(labels), from one
    softmax. The loss's gradient is then one multiply."""
    classes = logits.shape[-1] if logits.ndim else 0
    if logits.ndim != labels.ndim + 1 or labels.shape != logits.shape[:-1]:
        problem = _sparse_shape_problem(TensorShape(logits.shape), TensorShape(labels.shape))
        raise InvalidArgumentError(f"SparseSoftmaxCrossEntropyWithLogits: {problem}",
                                   "SparseSoftmaxCrossEntropyWithLogits")
    flat = logits.reshape(-1, classes)
    rows = flat.shape[0]
    # Unsigned labels make a negative label as out of range as a too large one.
    index = labels.reshape(-1).view(np.uint32 if labels.dtype == np.int32 else np.uint64)
    if rows == 0:
        return np.zeros(labels.shape, logits.dtype), np.zeros(logits.shape, logits.dtype)
    if classes == 0 or index.max() >= classes:
        flat_labels = labels.reshape(-1)
        bad = (flat_labels < 0) | (flat_labels >= classes)
        raise InvalidArgumentError(
            f"SparseSoftmaxCrossEntropyWithLogits: Received a label value of "
            f"{flat_labels[bad][0]} which is outside the valid range of [0, {classes}).  "
            f"Label values: {' '.join(str(v) for v in flat_labels)}",
            "SparseSoftmaxCrossEntropyWithLogits")
    # numpy reduces along the first axis of a C-ordered array in SIMD across the
    # columns, but along a short last axis one row at a time: with few classes
    # (a typical batch), work on the transposed copy, classes x rows.
    across = classes < 128 and rows > classes
    work, axis = (np.ascontiguousarray(flat.T), 0) if across else (flat, 1)
    top = work.max(axis=axis, keepdims=True)
    e = np.exp(work - top)
    total = e.sum(axis=axis, keepdims=True)
    at = (np.arange(rows), index)
    # -log(exp(x_label - top) / total) = log(total) + top - x_label
    loss = (np.log(total) + top).reshape(rows) - flat[at]
    e /= total
    backprop = e.T if across else e
    backprop[at] -= 1
    return loss.reshape(labels.shape), backprop.reshape(logits.shape)


@define_grad("SparseSoftmaxCrossEntropyWithLogits", takes_none=True)
def _sparse_xent_grad(op, grad, grad_backprop):
    """The loss's gradient is backprop scaled by `grad`; a gradient reaching the
    backprop output (second order) goes through softmax's Jacobian, since
    backprop = softmax(logits) - one_hot(labels)."""
    backprop = op.outputs[1]
    result = None
    if grad is not None:
        scalar = broadcast_scalar(grad)
        if scalar is not None:       # the gradient of a mean: one number for every row
            result = math_ops.multiply(backprop, scalar)
        else:
            result = math_ops.multiply(backprop, apply("ExpandDims", (grad,), {"axis": -1}))
    if grad_backprop is not None:
        p = apply("Softmax", (op.inputs[0],), {"axis": -1})
        inner = reduce_sum(math_ops.multiply(grad_backprop, p), -1, keepdims=True)
        second = math_ops.multiply(math_ops.subtract(grad_backprop, inner), p)
        result = second if result is None else math_ops.add(result, second)
    return [result, None]


def _precise(op_name, logits):
    """Float logits, float16 computed in float32 as in TF; (logits, original dtype)."""
    logits = _checked(op_name, logits, FLOATS)
    if logits.dtype == dtypes.float16:
        return math_ops.cast(logits, dtypes.float32), dtypes.float16
    return logits, logits.dtype


def _restore(result, dtype):
    return math_ops.cast(result, dtype) if result.dtype != dtype else result


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log(softmax(logits)[label]) per row: `labels` are int32/int64 class indices
    of shape logits.shape[:-1]; a label outside [0, num_classes) is an error."""
    op = "SparseSoftmaxCrossEntropyWithLogits"
    labels = convert_to_tensor(labels)
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise dtype_error(op, labels.dtype, frozenset((dtypes.int32, dtypes.int64)))
    logits, dtype = _precise(op, logits)
    problem = _sparse_shape_problem(logits.shape, labels.shape)
    if problem:
        raise ValueError(problem)
    return _restore(apply(op, (logits, labels))[0], dtype)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits, axis), axis); labels are cast to the
    logits' dtype and must broadcast to the logits' shape."""
    op = "SoftmaxCrossEntropyWithLogits"
    logits, dtype = _precise(op, logits)
    labels = math_ops.cast(convert_to_tensor(labels), logits.dtype)
    if logits.shape.rank == 0:
        raise ValueError("SoftmaxCrossEntropyWithLogits: logits must have rank >= 1, got a scalar")
    try:
        merged = rules.broadcast_shapes(labels.shape, logits.shape)
        ok = merged.is_compatible_with(logits.shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{op}: logits and labels must be broadcastable: logits_size="
                         f"{rules.dims_text(logits.shape)} labels_size="
                         f"{rules.dims_text(labels.shape)}")
    axis = rules.static_int(axis, op, "axis")
    loss = math_ops.negative(reduce_sum(math_ops.multiply(labels, log_softmax(logits, axis)),
                                        axis))
    return _restore(loss, dtype)


def _binary_xent_inputs(op, labels, logits):
    logits = _checked(op, logits, FLOATS)
    labels = convert_to_tensor(labels, logits.dtype) if not hasattr(labels, "dtype") \
        else convert_to_tensor(labels)
    if labels.dtype != logits.dtype:
        raise TypeError(f"{op}: labels must have the logits' dtype {logits.dtype.name}, got "
                        f"{labels.dtype.name}; use tf.cast to convert them")
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({rules.dims_text(logits.shape)} vs {rules.dims_text(labels.shape)}).")
    return labels, logits


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z (TF's
    numerically stable form). As TF, max and -|x| are selects on x >= 0, so at
    x == 0 the gradient is TF's sigmoid(0) - z = 0.5 - z (abs's would give 1 - z)."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    labels, logits = _binary_xent_inputs("SigmoidCrossEntropyWithLogits", labels, logits)
    zeros = array_ops.zeros_like(logits)
    nonnegative = math_ops.greater_equal(logits, zeros)
    relu_logits = math_ops.where(nonnegative, logits, zeros)
    neg_abs_logits = math_ops.where(nonnegative, math_ops.negative(logits), logits)
    return math_ops.add(math_ops.subtract(relu_logits, math_ops.multiply(logits, labels)),
                        math_ops.log1p(math_ops.exp(neg_abs_logits)))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy with the positive term weighted by `pos_weight`:
    (1 - z) * x + (1 + (pos_weight - 1) * z) * (log(1 + exp(-|x|)) + max(-x, 0))."""
    labels, logits = _binary_xent_inputs("WeightedCrossEntropyWithLogits", labels, logits)
    one = math_ops.cast(1, logits.dtype)
    pos_weight = convert_to_tensor(pos_weight, logits.dtype) \
        if not hasattr(pos_weight, "dtype") else convert_to_tensor(pos_weight)
    log_weight = math_ops.add(one, math_ops.multiply(math_ops.subtract(pos_weight, one), labels))
    softplus_neg = math_ops.add(math_ops.log1p(math_ops.exp(math_ops.negative(
        math_ops.abs(logits)))), relu(math_ops.negative(logits)))
    return math_ops.add(math_ops.multiply(math_ops.subtract(one, labels), logits),
                        math_ops.multiply(log_weight, softplus_neg))
