"""More losses, as Keras 3 computes them: each a per-sample function and its
Loss class (reduced like every Loss, see losses/losses.py).

    huber(delta=1)          e = y_pred - y_true: mean(0.5 e^2 where |e| <= delta,
                            else delta * |e| - 0.5 delta^2)
    log_cosh                mean(e + softplus(-2 e) - log 2)
    kl_divergence           t, p clipped to [1e-7, 1]: sum(t * log(t / p))
    poisson                 mean(p - t * log(p + 1e-7))
    cosine_similarity(axis) -sum(l2_normalize(t) * l2_normalize(p)) over `axis`
    hinge, squared_hinge    labels in {0, 1} become {-1, 1}; mean(max(1 - t p, 0))
                            (squared: of its square)
    binary_focal_crossentropy(apply_class_balancing, alpha=0.25, gamma=2,
        from_logits, label_smoothing)
                            mean((1 - p_t)^gamma * bce) (times alpha / 1 - alpha
                            when balancing), p_t = t p + (1 - t)(1 - p); bce
                            from the logits when p is a sigmoid's (Keras 3)
    categorical_focal_crossentropy(alpha=0.25, gamma=2, from_logits,
        label_smoothing)    sum(alpha (1 - p)^gamma * -t log p), p normalized
                            and clipped to [1e-7, 1 - 1e-7]

All means and sums are over the last axis (`axis` where given).
"""

import math

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.activations import activations
from runtime._src.keras.losses.losses import (EPSILON, LossFunctionWrapper, _as_float, binary_entries,
                                       match_rank, register_function)
from runtime._src.ops import array_ops, math_ops, nn_ops, reduction_ops

__all__ = ["Huber", "LogCosh", "KLDivergence", "Poisson", "CosineSimilarity", "Hinge",
           "SquaredHinge", "CategoricalHinge", "categorical_hinge", "BinaryFocalCrossentropy",
           "CategoricalFocalCrossentropy", "huber",
           "log_cosh", "kl_divergence", "poisson", "cosine_similarity", "hinge",
           "squared_hinge", "binary_focal_crossentropy", "categorical_focal_crossentropy"]


def _pair(y_true, y_pred):
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    return match_rank(y_true, y_pred)


def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    abs_error = math_ops.abs(error)
    quadratic = 0.5 * math_ops.square(error)
    linear = delta * abs_error - 0.5 * delta * delta
    return reduction_ops.reduce_mean(
        math_ops.where(math_ops.less_equal(abs_error, delta), quadratic, linear), -1)


def log_cosh(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    return reduction_ops.reduce_mean(x + nn_ops.softplus(-2.0 * x) - math.log(2.0), -1)


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = math_ops.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = math_ops.clip_by_value(y_pred, EPSILON, 1.0)
    return reduction_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), -1)


def poisson(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return reduction_ops.reduce_mean(y_pred - y_true * math_ops.log(y_pred + EPSILON), -1)


def normalize(x, axis=-1, epsilon=EPSILON):
    """Keras 3's L2 normalize: x * min(rsqrt(sum(x^2)), 1 / epsilon). A zero
    vector gives 0 with the gradient 1 / epsilon (TF 2.21: 1e7 for the
    losses' epsilon 1e-7, 1e12 for UnitNormalization's 1e-12)."""
    square_sum = reduction_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
    inv_norm = math_ops.minimum(math_ops.rsqrt(square_sum),
                                array_ops.constant(1.0 / epsilon, x.dtype))
    return x * inv_norm


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.negative(reduction_ops.reduce_sum(
        normalize(y_true, axis) * normalize(y_pred, axis), axis))


def _hinge_labels(y_true):
    """{0, 1} labels as {-1, 1} (others unchanged), as Keras 3."""
    is_binary = reduction_ops.reduce_all(math_ops.logical_or(
        math_ops.equal(y_true, 0.0), math_ops.equal(y_true, 1.0)))
    return math_ops.where(is_binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    margin = math_ops.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)
    return reduction_ops.reduce_mean(margin, -1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    margin = math_ops.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)
    return reduction_ops.reduce_mean(math_ops.square(margin), -1)


def categorical_hinge(y_true, y_pred):
    """max(max((1 - t) * p) - sum(t * p) + 1, 0) over the last axis (one-hot t)."""
    y_true, y_pred = _pair(y_true, y_pred)
    pos = reduction_ops.reduce_sum(y_true * y_pred, -1)
    neg = reduction_ops.reduce_max((1.0 - y_true) * y_pred, -1)
    return math_ops.maximum(neg - pos + 1.0, 0.0)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = activations.sigmoid(y_pred)     # marked: the cross-entropy uses the logits
    bce = binary_entries(y_true, y_pred, False)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = math_ops.pow(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return reduction_ops.reduce_mean(focal, axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        y_pred = nn_ops.softmax(y_pred, axis=axis)
    output = y_pred / reduction_ops.reduce_sum(y_pred, axis, keepdims=True)
    output = math_ops.clip_by_value(output, EPSILON, 1.0 - EPSILON)
    cce = math_ops.negative(y_true) * math_ops.log(output)
    focal = math_ops.pow(1.0 - output, gamma) * alpha * cce
    return reduction_ops.reduce_sum(focal, axis)


class Huber(LossFunctionWrapper):
    """`tf.keras.losses.Huber(delta=1.0)`."""


    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss"):
        super().__init__(huber, reduction, name, delta=delta)


class LogCosh(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="log_cosh"):
        super().__init__(log_cosh, reduction, name)


class KLDivergence(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence"):
        super().__init__(kl_divergence, reduction, name)


class Poisson(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="poisson"):
        super().__init__(poisson, reduction, name)


class CosineSimilarity(LossFunctionWrapper):
    """`tf.keras.losses.CosineSimilarity(axis=-1)`: -cos(y_true, y_pred)."""


    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity"):
        super().__init__(cosine_similarity, reduction, name, axis=axis)


class Hinge(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="hinge"):
        super().__init__(hinge, reduction, name)


class SquaredHinge(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge"):
        super().__init__(squared_hinge, reduction, name)


class CategoricalHinge(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge"):
        super().__init__(categorical_hinge, reduction, name)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """`tf.keras.losses.BinaryFocalCrossentropy(apply_class_balancing=False,
    alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)`."""


    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_focal_crossentropy"):
        super().__init__(binary_focal_crossentropy, reduction, name,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """`tf.keras.losses.CategoricalFocalCrossentropy(alpha=0.25, gamma=2.0,
    from_logits=False, label_smoothing=0.0, axis=-1)`."""


    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                 axis=-1, reduction="sum_over_batch_size",
                 name="categorical_focal_crossentropy"):
        super().__init__(categorical_focal_crossentropy, reduction, name, alpha=alpha,
                         gamma=gamma, from_logits=from_logits, label_smoothing=label_smoothing,
                         axis=axis)
        self.from_logits = from_logits


for _fn in (huber, log_cosh, poisson, cosine_similarity, hinge, squared_hinge,
            categorical_hinge, binary_focal_crossentropy, categorical_focal_crossentropy):
    register_function(_fn)
register_function(kl_divergence, "kld", "KLD")
