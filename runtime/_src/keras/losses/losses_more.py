"""Keras 3's newer losses (the per-sample functions and their Loss classes):

    dice(y_true, y_pred, axis=None)
        1 - 2 sum(y_true y_pred) / (sum(y_true) + sum(y_pred) + epsilon)
    tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None)
        1 - tp / (tp + alpha fp + beta fn + epsilon), with tp = sum(y_true y_pred),
        fp = sum((1 - y_pred) y_true), fn = sum(y_pred (1 - y_true)) (Keras's naming)
    categorical_generalized_cross_entropy(y_true, y_pred, q)
        (1 - p^q) / q, p the probability of the integer label y_true
    circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True,
           gamma=80, margin=0.4)
        softplus(logsumexp of the weighted positive-pair terms + logsumexp of the
        negative-pair ones), over cosine distances of L2-normalized embeddings

    ctc(y_true, y_pred)
        the negative log-likelihood of the labels y_true (batch, max_length), 0 the
        blank and the padding, under the per-step logits y_pred (batch, steps,
        classes): the CTC forward recursion over the labels with blanks between

axis=None sums over every axis (one value for the batch); Dice(axis=...) and
Tversky(axis=...) sum over the axes given.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.losses.losses import LossFunctionWrapper, register_function
from runtime._src.ops import array_ops, manipulation_ops, math_ops, nn_ops, reduction_ops

__all__ = ["dice", "tversky", "categorical_generalized_cross_entropy", "circle", "ctc", "Dice",
           "Tversky", "CategoricalGeneralizedCrossEntropy", "Circle", "CTC"]

_NEG = -1e30       # log(0), finite so that the gradient of a logsumexp stays defined


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    return math_ops.cast(convert_to_tensor(y_true), y_pred.dtype), y_pred


def _axis(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else axis


def dice(y_true, y_pred, axis=None):
    y_true, y_pred = _pair(y_true, y_pred)
    axis = _axis(axis)
    intersection = reduction_ops.reduce_sum(y_true * y_pred, axis)
    total = reduction_ops.reduce_sum(y_true, axis) + reduction_ops.reduce_sum(y_pred, axis)
    return 1.0 - 2.0 * intersection / (total + backend_config.epsilon())


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    y_true, y_pred = _pair(y_true, y_pred)
    axis = _axis(axis)
    tp = reduction_ops.reduce_sum(y_true * y_pred, axis)
    fp = reduction_ops.reduce_sum((1.0 - y_pred) * y_true, axis)
    fn = reduction_ops.reduce_sum(y_pred * (1.0 - y_true), axis)
    return 1.0 - tp / (tp + fp * alpha + fn * beta + backend_config.epsilon())


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    y_pred = convert_to_tensor(y_pred)
    labels = math_ops.cast(convert_to_tensor(y_true), dtypes.int32)
    if labels.shape.rank == y_pred.shape.rank:
        labels = array_ops.squeeze(labels, [-1])
    hot = manipulation_ops.one_hot(labels, y_pred.shape.dims[-1], dtype=y_pred.dtype)
    p = reduction_ops.reduce_sum(y_pred * hot, -1)
    return (1.0 - math_ops.pow(p, q)) / q


def _masks(query, key, remove_diagonal):
    positive = math_ops.equal(array_ops.reshape(query, [-1, 1]),
                              array_ops.reshape(key, [1, -1]))
    negative = math_ops.logical_not(positive)
    if remove_diagonal:
        rows = array_ops.reshape(array_ops.range(array_ops.size(query)), [-1, 1])
        cols = array_ops.reshape(array_ops.range(array_ops.size(key)), [1, -1])
        positive = math_ops.logical_and(positive, math_ops.not_equal(rows, cols))
    return positive, negative


def _masked_logsumexp(values, mask):
    low = array_ops.fill(array_ops.shape(values), array_ops.constant(float("-inf"),
                                                                     values.dtype))
    return reduction_ops.reduce_logsumexp(math_ops.where(mask, values, low), axis=1)


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True,
           gamma=80, margin=0.4):
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), dtypes.int32)
    ref = y_pred if ref_embeddings is None else convert_to_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else math_ops.cast(
        convert_to_tensor(ref_labels), dtypes.int32)
    distances = math_ops.maximum(1.0 - math_ops.matmul(y_pred, ref, transpose_b=True), 0.0)
    positive, negative = _masks(y_true, ref_labels, remove_diagonal)
    pos_w = math_ops.maximum((margin + distances) * math_ops.cast(positive, distances.dtype),
                             0.0)
    neg_w = math_ops.maximum((1.0 + margin - distances) *
                             math_ops.cast(negative, distances.dtype), 0.0)
    p_loss = _masked_logsumexp(-gamma * pos_w * (margin - distances), positive)
    n_loss = _masked_logsumexp(gamma * neg_w * (1.0 - margin - distances), negative)
    return nn_ops.softplus(p_loss + n_loss)


def _logsumexp(*terms):
    return reduction_ops.reduce_logsumexp(array_ops.stack(terms, 0), axis=0)


def ctc(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    labels = math_ops.cast(convert_to_tensor(y_true), dtypes.int32)
    if labels.shape.rank != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape "
                         "`(batch_size, max_length)` in integer format. Received: "
                         f"y_true.shape={tuple(labels.shape.as_list())}")
    if y_pred.shape.rank != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape "
                         "`(batch_size, max_length, num_classes)`. Received: "
                         f"y_pred.shape={tuple(y_pred.shape.as_list())}")
    logp = nn_ops.log_softmax(math_ops.cast(y_pred, dtypes.float32), axis=-1)
    steps, n = y_pred.shape.as_list()[1], labels.shape.as_list()[1]
    lengths = reduction_ops.reduce_sum(math_ops.cast(math_ops.not_equal(labels, 0),
                                                     dtypes.int32), axis=1)
    # the extended labels: blank, l1, blank, l2, ..., blank  (2n + 1)
    blanks = array_ops.zeros_like(labels)
    ext = array_ops.reshape(array_ops.stack([blanks, labels], 2), [-1, 2 * n])
    ext = array_ops.concat([ext, blanks[:, :1]], 1)
    size = 2 * n + 1
    # a skip from s - 2 is allowed onto a label different from the one two back
    two_back = array_ops.concat([array_ops.fill(array_ops.stack(
        [array_ops.shape(ext)[0], 2]), -1), ext[:, :-2]], 1)
    skip = math_ops.logical_and(math_ops.not_equal(ext, 0), math_ops.not_equal(ext, two_back))
    neg = array_ops.fill(array_ops.shape(ext), _NEG)
    position = array_ops.reshape(array_ops.range(size), [1, -1])

    def emit(t):
        return array_ops.gather(logp[:, t], ext, batch_dims=1)
    alpha = math_ops.where(position < 2, emit(0), neg)
    alpha = math_ops.where(position < 1 + array_ops.reshape(
        math_ops.minimum(lengths, 1), [-1, 1]), alpha, neg)
    pad1 = array_ops.fill(array_ops.stack([array_ops.shape(ext)[0], 1]), _NEG)
    pad2 = array_ops.concat([pad1, pad1], 1)
    for t in range(1, steps):
        from_one = array_ops.concat([pad1, alpha[:, :-1]], 1)
        from_two = math_ops.where(skip, array_ops.concat([pad2, alpha[:, :-2]], 1), neg)
        alpha = _logsumexp(alpha, from_one, from_two) + emit(t)
    last = array_ops.gather(alpha, 2 * lengths, batch_dims=1)
    before = array_ops.gather(alpha, math_ops.maximum(2 * lengths - 1, 0), batch_dims=1)
    before = math_ops.where(lengths > 0, before, array_ops.fill(array_ops.shape(last), _NEG))
    return math_ops.cast(-_logsumexp(last, before), y_pred.dtype)


class _Wrapper(LossFunctionWrapper):
    """Takes Keras's `dtype=` (the computation is in floatx) and leaves it out of
    the config, as Keras 3.15 does."""

    def get_config(self):
        config = super().get_config()
        config.pop("dtype", None)
        return config


class Dice(_Wrapper):
    """`keras.losses.Dice(reduction="sum_over_batch_size", name="dice", axis=None)`."""

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, reduction, name, axis=axis)
        self.axis = axis


class Tversky(_Wrapper):
    """`keras.losses.Tversky(alpha=0.5, beta=0.5, reduction=..., name="tversky",
    axis=None)`."""

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky",
                 axis=None, dtype=None):
        super().__init__(tversky, reduction, name, alpha=alpha, beta=beta, axis=axis)
        self.alpha, self.beta, self.axis = alpha, beta, axis


class CategoricalGeneralizedCrossEntropy(_Wrapper):
    """`keras.losses.CategoricalGeneralizedCrossEntropy(q=0.5)`: integer labels."""

    def __init__(self, q=0.5, reduction="sum_over_batch_size",
                 name="categorical_generalized_cross_entropy", dtype=None):
        if not 0 < q < 1:
            raise ValueError(f"q must be in the interval (0, 1). Received: q={q}")
        super().__init__(categorical_generalized_cross_entropy, reduction, name, q=q)
        self.q = q


class Circle(_Wrapper):
    """`keras.losses.Circle(gamma=80.0, margin=0.4, remove_diagonal=True)`: integer
    labels y_true (batch,), L2-normalized embeddings y_pred (batch, dim)."""

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True,
                 reduction="sum_over_batch_size", name="circle", dtype=None):
        super().__init__(circle, reduction, name, gamma=gamma, margin=margin,
                         remove_diagonal=remove_diagonal)
        self.gamma, self.margin, self.remove_diagonal = gamma, margin, remove_diagonal

    def call(self, y_true, y_pred):
        """As Keras 3.15, a sample without a positive pair (its loss 0) is left out
        of the "sum_over_batch_size" mean."""
        values = super().call(y_true, y_pred)
        if self.reduction != "sum_over_batch_size":
            return values
        valid = reduction_ops.reduce_sum(math_ops.cast(math_ops.greater(values, 0.0),
                                                       values.dtype))
        total = math_ops.cast(array_ops.size(values), values.dtype)
        return values * (total / (valid + backend_config.epsilon()))


class CTC(_Wrapper):
    """`keras.losses.CTC(reduction="sum_over_batch_size", name="ctc")`: see `ctc`."""

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, reduction, name)


for _fn in (dice, tversky, categorical_generalized_cross_entropy, circle, ctc):
    register_function(_fn)
