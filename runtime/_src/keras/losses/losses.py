"""The losses, as Keras 3 computes them: each a per-sample function and its Loss
class (the base, `Loss`, and its reductions are in loss.py).

A loss object computes one value per sample (the function of the same
name, e.g. `sparse_categorical_crossentropy(y_true, y_pred)`), then reduces
them as Keras does: "sum_over_batch_size" (the default: the sum divided by
the number of values, i.e. the mean), "sum", or "none".

    loss = SparseCategoricalCrossentropy(from_logits=True)
    loss([1, 0], [[0.1, 2.0], [1.5, -0.3]])     # a float32 scalar

With `from_logits=True` the cross-entropies use the stable fused ops of
`tf.nn`; on probabilities they follow Keras: (categorical only) divide by
the sum over the class axis, clip to [1e-7, 1 - 1e-7], take the log.

Keras 3's logits recovery: probabilities that come out of a sigmoid (for
binary_crossentropy) or a softmax (for the categorical ones) are not used;
the logits behind them are, with the fused op. That holds for the output
of `keras.activations.sigmoid` / `softmax` (a Dense or Activation layer's
too: the output carries `_keras_logits`) and, inside tf.function, for the
output of any Sigmoid / Softmax op. So at saturation the value and the
gradient are the logits' (TF 2.21: 30 and 0.5 for sigmoid(30) against a
label 0, not the clipped 16.1 and 0).

A Loss object computes in `keras.backend.floatx()` (float32): float64
inputs give a float32 loss, as in Keras 3; the per-sample functions keep
their input's dtype.

The other per-sample functions (e = y_pred - y_true; means and sums over the
last axis, `axis` where given):

    huber(delta=1)          mean(0.5 e^2 where |e| <= delta, else delta * |e| - 0.5 delta^2)
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

For dice and tversky, axis=None sums over every axis (one value for the batch);
Dice(axis=...) and Tversky(axis=...) sum over the axes given.
"""

import warnings

from runtime._src.core import dtypes
from runtime._src.core.tensor import SymbolicTensor, Tensor, convert_to_tensor
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import array_ops, cross_entropy_ops, math_ops, nn_ops, reduction_ops
from runtime._src.keras.losses.loss import Loss, LossFunctionWrapper
import math
from runtime._src.keras.activations import activations
from runtime._src.keras.backend import config as backend_config
from runtime._src.ops import manipulation_ops

__all__ = ["SparseCategoricalCrossentropy", "CategoricalCrossentropy", "BinaryCrossentropy",
           "MeanSquaredError", "MeanAbsoluteError", "MeanSquaredLogarithmicError",
           "MeanAbsolutePercentageError", "sparse_categorical_crossentropy",
           "categorical_crossentropy", "binary_crossentropy", "mean_squared_error",
           "mean_absolute_error", "mean_squared_logarithmic_error",
           "mean_absolute_percentage_error", "get", "as_loss", "register_function", "Huber",
           "LogCosh", "KLDivergence", "Poisson", "CosineSimilarity", "Hinge", "SquaredHinge",
           "CategoricalHinge", "categorical_hinge", "BinaryFocalCrossentropy",
           "CategoricalFocalCrossentropy", "huber", "log_cosh", "kl_divergence", "poisson",
           "cosine_similarity", "hinge", "squared_hinge", "binary_focal_crossentropy",
           "categorical_focal_crossentropy", "dice", "tversky",
           "categorical_generalized_cross_entropy", "circle", "ctc", "Dice", "Tversky",
           "CategoricalGeneralizedCrossEntropy", "Circle", "CTC"]

EPSILON = 1e-7


def _as_float(x, dtype=dtypes.float32):
    """x as a floating tensor: numpy and Python values become float32."""
    if not isinstance(x, Tensor):
        x = convert_to_tensor(x)
        if not x.dtype.is_floating or x.dtype == dtypes.float64:
            x = math_ops.cast(x, dtype)
    elif not x.dtype.is_floating:
        x = math_ops.cast(x, dtype)
    return x


def match_rank(a, b):
    """Give a and b the same rank when they differ by a trailing size-1 axis
    (Keras's `squeeze_or_expand_to_same_rank`): a vector gains the axis,
    anything else loses it."""
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None:
        return a, b
    if ra == rb + 1 and a.shape.dims[-1] == 1:
        if rb == 1:
            return a, array_ops.expand_dims(b, -1)
        return array_ops.squeeze(a, [-1]), b
    if rb == ra + 1 and b.shape.dims[-1] == 1:
        if ra == 1:
            return array_ops.expand_dims(a, -1), b
        return a, array_ops.squeeze(b, [-1])
    return a, b


def _made_by(output, op_type):
    """Whether a graph tensor is the output of a one-input `op_type` op (for
    Softmax: over the last axis, the only one TF's Softmax op has)."""
    if not isinstance(output, SymbolicTensor) or output.op.type != op_type \
            or len(output.op.inputs) != 1:
        return False
    axis, rank = output.op.attrs.get("axis", -1), output.shape.rank
    return axis == -1 or (bool(rank) and axis % rank == rank - 1)


def logits_behind(output, op_type, from_logits, fn_name):
    """(tensor, from_logits) as Keras 3's cross-entropies see `output`: the
    logits a Keras sigmoid/softmax left on it (`_keras_logits`), or inside a
    traced function the input of the `op_type` op ("Sigmoid" / "Softmax")
    that made it; otherwise `output` itself."""
    logits = getattr(output, "_keras_logits", None)
    if logits is None and _made_by(output, op_type):
        logits = output.op.inputs[0]
    if logits is None:
        return output, from_logits
    if from_logits:
        warnings.warn(f'"`{fn_name}` received `from_logits=True`, but the `output` argument '
                      f"was produced by a {op_type} activation and thus does not represent "
                      "logits. Was this intended?", stacklevel=3)
    return logits, True


def _clipped_log_probs(y_pred, axis):
    """log of probabilities normalized over `axis` and clipped to [eps, 1 - eps]."""
    y_pred = math_ops.divide(y_pred, reduction_ops.reduce_sum(y_pred, axis, keepdims=True))
    y_pred = math_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
    return math_ops.log(y_pred)


# --- the per-sample functions --------------------------------------------------

def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """-log p[label] per sample; labels are integer class ids."""
    y_pred = _as_float(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.shape.rank is not None and y_pred.shape.rank is not None and \
            y_true.shape.rank == y_pred.shape.rank and y_true.shape.dims[-1] == 1:
        y_true = array_ops.squeeze(y_true, [-1])
    if y_true.dtype not in (dtypes.int32, dtypes.int64):
        y_true = math_ops.cast(y_true, dtypes.int32)
    if axis not in (-1, y_pred.shape.rank - 1 if y_pred.shape.rank else -1):
        raise ValueError(f"sparse_categorical_crossentropy: only the last axis is supported "
                         f"as the class axis, got axis={axis}")
    y_pred, from_logits = logits_behind(y_pred, "Softmax", from_logits,
                                        "sparse_categorical_crossentropy")
    if not from_logits:       # Keras clips without normalizing here
        y_pred = math_ops.log(math_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON))
    return cross_entropy_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log p) over the class axis; labels are one-hot (or soft)."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    y_pred, from_logits = logits_behind(y_pred, "Softmax", from_logits,
                                        "categorical_crossentropy")
    if from_logits:
        return cross_entropy_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    return math_ops.negative(reduction_ops.reduce_sum(
        math_ops.multiply(y_true, _clipped_log_probs(y_pred, axis)), axis))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-(y log p + (1 - y) log(1 - p)), averaged over the last axis."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return reduction_ops.reduce_mean(binary_entries(y_true, y_pred, from_logits), axis)


def binary_entries(y_true, y_pred, from_logits):
    """The binary cross-entropy of each entry (Keras's ops.binary_crossentropy):
    from the logits (given, or behind a sigmoid), else from probabilities
    clipped to [1e-7, 1 - 1e-7]."""
    y_pred, from_logits = logits_behind(y_pred, "Sigmoid", from_logits, "binary_crossentropy")
    if from_logits:
        return cross_entropy_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    p = math_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
    return math_ops.negative(y_true * math_ops.log(p) + (1.0 - y_true) * math_ops.log(1.0 - p))


def mean_squared_error(y_true, y_pred):
    """mean((y_pred - y_true) ** 2) over the last axis."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    return reduction_ops.reduce_mean(math_ops.square(y_pred - y_true), -1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_pred - y_true|) over the last axis."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    return reduction_ops.reduce_mean(math_ops.abs(y_pred - y_true), -1)


def mean_absolute_percentage_error(y_true, y_pred):
    """100 * mean(|(y_true - y_pred) / max(|y_true|, 1e-7)|) over the last axis."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    floor = array_ops.constant(EPSILON, y_pred.dtype)
    diff = math_ops.abs((y_true - y_pred) / math_ops.maximum(math_ops.abs(y_true), floor))
    return 100.0 * reduction_ops.reduce_mean(diff, -1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """mean((log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1)) ** 2) over
    the last axis."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    floor = array_ops.constant(EPSILON, y_pred.dtype)
    first = math_ops.log(math_ops.maximum(y_pred, floor) + 1.0)
    second = math_ops.log(math_ops.maximum(y_true, floor) + 1.0)
    return reduction_ops.reduce_mean(math_ops.square(first - second), -1)


# --- loss objects -----------------------------------------------------------------


_FUNCTIONS = {}   # name -> per-sample function (Keras 3's names and aliases)


def register_function(fn, *aliases):
    """Make `get(name)` give `fn` for its own name and each alias, and a
    saved config naming the function find it."""
    for name in (fn.__name__,) + aliases:
        _FUNCTIONS[name] = fn
    serialization.register_builtin("keras.losses", fn)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", ignore_class=None):
        if ignore_class is not None:
            raise TypeError("SparseCategoricalCrossentropy: ignore_class is not supported by "
                            "runtime.keras")
        super().__init__(sparse_categorical_crossentropy, reduction, name,
                         from_logits=from_logits)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction, name)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """`tf.keras.losses.MeanAbsolutePercentageError()`: 100 * mean(|(t - p) / t|),
    |t| floored at 1e-7."""

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_absolute_percentage_error"):
        super().__init__(mean_absolute_percentage_error, reduction, name)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """`tf.keras.losses.MeanSquaredLogarithmicError()`: mean((log(p + 1) -
    log(t + 1))^2), p and t floored at 1e-7."""

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_squared_logarithmic_error"):
        super().__init__(mean_squared_logarithmic_error, reduction, name)


register_function(sparse_categorical_crossentropy)
register_function(categorical_crossentropy)
register_function(binary_crossentropy)
register_function(mean_squared_error, "mse", "MSE")
register_function(mean_absolute_error, "mae", "MAE")
register_function(mean_absolute_percentage_error, "mape", "MAPE")
register_function(mean_squared_logarithmic_error, "msle", "MSLE")


def get(identifier):
    """As Keras 3: a function's name or alias ("mean_squared_error", "mse",
    "huber") gives the per-sample function; a class name ("MeanSquaredError")
    an instance; a config dict its Loss; a Loss or a callable itself; None None."""
    classes = {name: cls for name, cls in serialization.BUILTIN.get("keras.losses", {}).items()
               if isinstance(cls, type) and issubclass(cls, Loss)
               and cls not in (Loss, LossFunctionWrapper)}
    return serialization.get_by_identifier(identifier, "loss", {**classes, **_FUNCTIONS},
                                           "keras.losses", base=Loss, quote=False, known=False)


def as_loss(identifier):
    """What `compile(loss=...)` computes with: `get(identifier)` as a Loss (a
    per-sample function wrapped, reduced like every Loss)."""
    loss = get(identifier)
    if loss is None or isinstance(loss, Loss):
        return loss
    return LossFunctionWrapper(loss)


def _float_pair(y_true, y_pred):
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    return match_rank(y_true, y_pred)


def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = _float_pair(y_true, y_pred)
    error = y_pred - y_true
    abs_error = math_ops.abs(error)
    quadratic = 0.5 * math_ops.square(error)
    linear = delta * abs_error - 0.5 * delta * delta
    return reduction_ops.reduce_mean(
        math_ops.where(math_ops.less_equal(abs_error, delta), quadratic, linear), -1)


def log_cosh(y_true, y_pred):
    y_true, y_pred = _float_pair(y_true, y_pred)
    x = y_pred - y_true
    return reduction_ops.reduce_mean(x + nn_ops.softplus(-2.0 * x) - math.log(2.0), -1)


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _float_pair(y_true, y_pred)
    y_true = math_ops.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = math_ops.clip_by_value(y_pred, EPSILON, 1.0)
    return reduction_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), -1)


def poisson(y_true, y_pred):
    y_true, y_pred = _float_pair(y_true, y_pred)
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
    y_true, y_pred = _float_pair(y_true, y_pred)
    return math_ops.negative(reduction_ops.reduce_sum(
        normalize(y_true, axis) * normalize(y_pred, axis), axis))


def _hinge_labels(y_true):
    """{0, 1} labels as {-1, 1} (others unchanged), as Keras 3."""
    is_binary = reduction_ops.reduce_all(math_ops.logical_or(
        math_ops.equal(y_true, 0.0), math_ops.equal(y_true, 1.0)))
    return math_ops.where(is_binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _float_pair(y_true, y_pred)
    margin = math_ops.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)
    return reduction_ops.reduce_mean(margin, -1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _float_pair(y_true, y_pred)
    margin = math_ops.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)
    return reduction_ops.reduce_mean(math_ops.square(margin), -1)


def categorical_hinge(y_true, y_pred):
    """max(max((1 - t) * p) - sum(t * p) + 1, 0) over the last axis (one-hot t)."""
    y_true, y_pred = _float_pair(y_true, y_pred)
    pos = reduction_ops.reduce_sum(y_true * y_pred, -1)
    neg = reduction_ops.reduce_max((1.0 - y_true) * y_pred, -1)
    return math_ops.maximum(neg - pos + 1.0, 0.0)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _float_pair(y_true, y_pred)
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


_NEG = -1e30       # log(0), finite so that the gradient of a logsumexp stays defined


def _cast_pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    return math_ops.cast(convert_to_tensor(y_true), y_pred.dtype), y_pred


def _axis(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else axis


def dice(y_true, y_pred, axis=None):
    y_true, y_pred = _cast_pair(y_true, y_pred)
    axis = _axis(axis)
    intersection = reduction_ops.reduce_sum(y_true * y_pred, axis)
    total = reduction_ops.reduce_sum(y_true, axis) + reduction_ops.reduce_sum(y_pred, axis)
    return 1.0 - 2.0 * intersection / (total + backend_config.epsilon())


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    y_true, y_pred = _cast_pair(y_true, y_pred)
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
