"""`tf.nn.ctc_loss` with dense labels, and `tf.nn.ctc_unique_labels`.

    loss = tf.nn.ctc_loss(labels, logits, label_length, logit_length)
    # labels [batch, max_label], logits [frames, batch, classes] (time-major),
    # class 0 the blank unless blank_index says otherwise; loss [batch]

The kernel is TF's dense CTC (its `ctc_loss_dense`): an alignment model of
2 (L + 1) states per label sequence (a start state, one state per label, a
blank state after each), run forward and backward in log space with each
frame's sum normalized away, so the loss and its gradient (softmax minus the
posterior occupancy of each class, zero past a sequence's frames) are TF's.
Like TF's, it never gives an infinite loss: an impossible alignment (labels
too long for the frames) costs about 709 instead, as the start and final
states are weighted with log(1e-307) rather than log(0).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.array_ops import reshape
from runtime._src.ops.manipulation_ops import concat, transpose

__all__ = ["ctc_loss", "ctc_unique_labels"]

_LOG_0 = float(np.float32(np.log(1e-307)))      # TF's stand-in for log(0)


def _logsumexp(x, axis, keepdims=False):
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True)) + peak
    return out if keepdims else np.squeeze(out, axis=axis)


def _log_softmax(x):
    return x - _logsumexp(x, -1, keepdims=True)


def _transitions(labels):
    """log of the [batch, to, from] 0/1 transition matrix of the alignment model."""
    batch, width = labels.shape
    states = 2 * (width + 1)
    trans = np.eye(states)
    blank = width + 1                                 # blank_i is state blank + i
    trans[1, 0] = 1                                   # start -> first label
    for i in range(width):
        trans[1 + i, blank + i] = 1                   # blank_i -> label_{i+1}
    for i in range(width + 1):
        trans[blank + i, i] = 1                       # label_i -> blank_i
    out = np.repeat(trans[None], batch, axis=0)
    for i in range(1, width):                         # label_i -> label_{i+1}, not repeats
        out[:, i + 1, i] += (labels[:, i - 1] != labels[:, i])
    with np.errstate(divide="ignore"):
        return np.log(out)


def _state_log_probs(labels, log_probs):
    """[frames, batch, states] emission log-probabilities of each state."""
    frames, batch, _ = log_probs.shape
    width = labels.shape[1]
    picked = np.take_along_axis(log_probs, np.broadcast_to(labels[None], (frames, batch, width)),
                                axis=2)
    blank = np.repeat(log_probs[:, :, :1], width + 1, axis=2)
    start = np.full((frames, batch, 1), -np.inf)
    return np.concatenate([start, picked, blank], axis=2)


def _end_states(label_length, width):
    """[batch, states]: 0 at the two final states of each sequence, log(1e-307) elsewhere."""
    mask = np.zeros((len(label_length), width + 1))
    mask[np.arange(len(label_length)), label_length] = 1
    return (1 - np.concatenate([mask, mask], axis=1)) * _LOG_0


def _forward_backward(trans, observed, start, end, mask):
    """(normalized log occupancy [frames, batch, states], log-likelihood [batch])."""
    frames = observed.shape[0]
    fwd = np.empty_like(observed)
    state = start
    for t in range(frames):
        state = _logsumexp(state[:, None, :] + trans, -1) + observed[t]
        state = state - _logsumexp(state, -1, keepdims=True)
        fwd[t] = state
    back_trans = np.swapaxes(trans, 1, 2)
    bwd = np.empty_like(observed)
    state, total = end, np.zeros(observed.shape[1])
    for t in range(frames - 1, -1, -1):
        bwd[t] = state                                # excludes frame t's emission
        step = _logsumexp((state + observed[t])[:, None, :] + back_trans, -1)
        norm = _logsumexp(step, -1, keepdims=True)
        total = total + norm[:, 0] * mask[t]
        state = np.where(mask[t][:, None] > 0, step - norm, end)
    joint = fwd + bwd
    joint = joint - _logsumexp(joint, 2, keepdims=True)
    with np.errstate(divide="ignore"):
        joint = joint + np.log(mask)[:, :, None]
    return joint, state[:, 0] + total


def _class_occupancy(labels, joint, classes):
    """[frames, batch, classes] log posterior of each class per frame."""
    width = labels.shape[1]
    label_states, blank_states = joint[:, :, 1:width + 1], joint[:, :, width + 1:]
    out = np.full(joint.shape[:2] + (classes,), -np.inf)
    out[:, :, 0] = _logsumexp(blank_states, 2)
    for b in range(labels.shape[0]):
        for j in range(width):
            k = labels[b, j]
            if 1 <= k < classes:
                out[:, b, k] = np.logaddexp(out[:, b, k], label_states[:, b, j])
    return out


def _infer_ctc(inputs, attrs):
    logits = inputs[0]
    frames, batch = (logits.shape.dims[:2] if logits.shape.rank == 3 else (None, None))
    return [(logits.dtype, TensorShape([batch])), (logits.dtype, logits.shape)]


@define_op("CTCLossDense", infer=_infer_ctc, num_outputs=2)
def _ctc_loss_dense(logits, labels, label_length, logit_length):
    frames, batch, classes = logits.shape
    if labels.shape[0] != batch or len(label_length) != batch or len(logit_length) != batch:
        raise InvalidArgumentError(f"ctc_loss: labels, label_length and logit_length must "
                                   f"have the batch size {batch} of the logits", "CTCLossDense")
    if ((label_length < 0) | (label_length > labels.shape[1])).any():
        raise InvalidArgumentError(f"ctc_loss: label_length must be within [0, "
                                   f"{labels.shape[1]}], got {label_length.tolist()}",
                                   "CTCLossDense")
    log_probs = _log_softmax(logits.astype(np.float64))
    labels = labels.astype(np.int64)
    mask = (np.arange(frames)[:, None] < logit_length[None, :]).astype(np.float64)
    start = np.full((batch, 2 * (labels.shape[1] + 1)), _LOG_0)
    start[:, 0] = 0.0
    observed = _state_log_probs(np.clip(labels, 0, classes - 1), log_probs)
    joint, likelihood = _forward_backward(_transitions(labels), observed, start,
                                          _end_states(label_length, labels.shape[1]), mask)
    occupancy = _class_occupancy(labels, joint, classes)
    grad = (np.exp(log_probs) - np.exp(occupancy)) * mask[:, :, None]
    return (-likelihood).astype(logits.dtype), grad.astype(logits.dtype)


@define_grad("CTCLossDense")
def _ctc_loss_grad(op, grad_loss, grad_grad):
    return [math_ops.multiply(reshape(grad_loss, [1, -1, 1]), op.outputs[1]), None, None, None]


def _blank_first(logits, labels, blank_index):
    """Move class `blank_index` to 0 and renumber the labels below it, as TF's."""
    classes = logits.shape.dims[2]
    if blank_index < 0:
        if classes is None:
            raise ValueError("ctc_loss: a negative blank_index needs the number of classes "
                             "known while tracing")
        blank_index += classes
    logits = concat([logits[:, :, blank_index:blank_index + 1], logits[:, :, :blank_index],
                     logits[:, :, blank_index + 1:]], axis=2)
    labels = math_ops.where(math_ops.less(labels, blank_index), labels + 1, labels)
    return logits, labels


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """`tf.nn.ctc_loss` with dense labels `[batch, max_label]`: the negative
    log-probability of each label sequence under CTC, shape `[batch]`.

    `logits` are `[frames, batch, classes]` (`[batch, frames, classes]` with
    `logits_time_major=False`); the blank is class 0 unless `blank_index`
    (negative counts from the end) says otherwise. `unique` (TF's TPU
    speed-up) changes nothing here."""
    if hasattr(labels, "indices") and hasattr(labels, "dense_shape"):
        raise TypeError("ctc_loss: SparseTensor labels are not supported yet; pass dense "
                        "labels [batch, max_label] with label_length")
    logits = convert_to_tensor(unwrap_variable(logits))
    low = logits.dtype in (dtypes.float16,)
    if low:
        logits = math_ops.cast(logits, dtypes.float32)
    if not logits.dtype.is_floating:
        raise TypeError(f"ctc_loss: logits must be floating point, got {logits.dtype.name}")
    labels = convert_to_tensor(labels)
    if not logits_time_major:
        logits = transpose(logits, [1, 0, 2])
    if blank_index not in (None, 0):
        logits, labels = _blank_first(logits, labels, int(blank_index))
    loss, _ = apply("CTCLossDense", [logits, labels, convert_to_tensor(label_length),
                                     convert_to_tensor(logit_length)])
    return math_ops.cast(loss, dtypes.float16) if low else loss


# --- ctc_unique_labels ----------------------------------------------------------------------

@define_op("CTCUniqueLabels", num_outputs=2,
           infer=lambda inputs, attrs: [(inputs[0].dtype, inputs[0].shape),
                                        (inputs[0].dtype, inputs[0].shape)])
def _ctc_unique_labels(labels):
    values = np.zeros_like(labels)
    index = np.zeros_like(labels)
    for b, row in enumerate(labels):
        seen = {}
        for j, label in enumerate(row):
            index[b, j] = seen.setdefault(label, len(seen))
        values[b, :len(seen)] = list(seen)
    return values, index


not_differentiable("CTCUniqueLabels")


def ctc_unique_labels(labels, name=None):
    """`(unique_y, unique_idx)`: each row's distinct labels in order of first
    appearance (padded with 0) and each label's index among them."""
    return apply("CTCUniqueLabels", [convert_to_tensor(labels)])
