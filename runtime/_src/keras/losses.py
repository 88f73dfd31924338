"""Losses: `SparseCategoricalCrossentropy`, `CategoricalCrossentropy`,
`BinaryCrossentropy`, `MeanSquaredError`, `MeanAbsoluteError`, `Huber`,
`KLDivergence`, `LogCosh`, `Poisson`, `CosineSimilarity`, `Hinge`,
`SquaredHinge`, `BinaryFocalCrossentropy`, `CategoricalFocalCrossentropy`
(the formulas of the last nine are with their functions, in
runtime/_src/keras/loss_functions.py).

A loss object computes one value per sample (the function of the same
name, e.g. `sparse_categorical_crossentropy(y_true, y_pred)`), then reduces
them as Keras does: "sum_over_batch_size" (the default: the sum divided by
the number of values, i.e. the mean), "sum", or "none".

    loss = SparseCategoricalCrossentropy(from_logits=True)
    loss([1, 0], [[0.1, 2.0], [1.5, -0.3]])     # a float32 scalar

With `from_logits=True` the cross-entropies use the stable fused ops of
`tf.nn`; on probabilities they follow Keras: divide by the sum over the
class axis, clip to [1e-7, 1 - 1e-7], take the log.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras import serialization
from runtime._src.keras.layer_config import AutoConfigured, builtin_class
from runtime._src.ops import array_ops, math_ops, nn_ops, reduction_ops

__all__ = ["Loss", "SparseCategoricalCrossentropy", "CategoricalCrossentropy",
           "BinaryCrossentropy", "MeanSquaredError", "MeanAbsoluteError",
           "sparse_categorical_crossentropy", "categorical_crossentropy",
           "binary_crossentropy", "mean_squared_error", "mean_absolute_error", "get"]

EPSILON = 1e-7
_REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


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
    logits = y_pred if from_logits else _clipped_log_probs(y_pred, -1)
    return nn_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=logits)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log p) over the class axis; labels are one-hot (or soft)."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    return math_ops.negative(reduction_ops.reduce_sum(
        math_ops.multiply(y_true, _clipped_log_probs(y_pred, axis)), axis))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-(y log p + (1 - y) log(1 - p)), averaged over the last axis."""
    y_pred = _as_float(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        per_entry = nn_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = math_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        per_entry = math_ops.negative(
            y_true * math_ops.log(p) + (1.0 - y_true) * math_ops.log(1.0 - p))
    return reduction_ops.reduce_mean(per_entry, axis)


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


# --- loss objects -----------------------------------------------------------------

def _same_rank(values, weights):
    """Keras's squeeze-or-expand: a trailing axis of size 1 on the one of rank
    one more is dropped (or a rank-1 other side gets one), so per-sample
    weights (n,) or (n, 1) line up with per-sample losses."""
    rv, rw = values.shape.rank, weights.shape.rank
    if rv is None or rw is None or rv == rw:
        return values, weights
    if rv == rw + 1 and values.shape.dims[-1] == 1:
        if rw == 1:
            weights = array_ops.expand_dims(weights, -1)
        else:
            values = array_ops.squeeze(values, [-1])
    if rw == rv + 1 and weights.shape.dims[-1] == 1:
        if rv == 1:
            values = array_ops.expand_dims(values, -1)
        else:
            weights = array_ops.squeeze(weights, [-1])
    return values, weights


class Loss(AutoConfigured):
    """`Loss(reduction="sum_over_batch_size", name=None)`: call it as
    `loss(y_true, y_pred, sample_weight=None)` for a reduced value.
    `get_config()` gives the constructor arguments; a subclass's `_names`
    are the strings `get` (and `compile(loss=...)`) know it by."""

    _names = ()
    _config_module = "keras.losses"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if builtin_class(cls):
            for name in cls.__dict__.get("_names", ()):
                _BY_NAME[name] = cls

    def __init__(self, reduction="sum_over_batch_size", name=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of "
                             f"{list(_REDUCTIONS)}. Received: reduction={reduction!r}")
        self.reduction = reduction
        self.name = name or type(self).__name__

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__}.call")

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.call(y_true, y_pred)
        weights = None
        if sample_weight is not None:
            weights = math_ops.cast(convert_to_tensor(sample_weight), values.dtype)
            values, weights = _same_rank(values, weights)
            values = values * weights
        if self.reduction in ("none", None) or values.shape.rank == 0:
            return values
        total = reduction_ops.reduce_sum(values)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean_with_sample_weight" and weights is not None:
            count = reduction_ops.reduce_sum(weights)
        else:
            count = math_ops.cast(array_ops.size(values), values.dtype)
        empty = math_ops.equal(count, array_ops.zeros_like(count))
        safe = math_ops.where(empty, array_ops.ones_like(count), count)
        return math_ops.where(empty, array_ops.zeros_like(total), math_ops.divide(total, safe))

    def get_config(self):
        config = {"name": self.name, "reduction": self.reduction}
        auto = getattr(self, "_auto_config", None) or {}
        config.update({k: v for k, v in auto.items() if k not in config and k != "fn"})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss computing `fn(y_true, y_pred, **kwargs)` per sample."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, **kwargs):
        super().__init__(reduction, name or fn.__name__)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)


_BY_NAME = {}     # name -> Loss class, filled from each class's `_names`


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    _names = ("sparse_categorical_crossentropy",)

    def __init__(self, from_logits=False, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", ignore_class=None):
        if ignore_class is not None:
            raise TypeError("SparseCategoricalCrossentropy: ignore_class is not supported by "
                            "runtime.keras")
        super().__init__(sparse_categorical_crossentropy, reduction, name,
                         from_logits=from_logits)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    _names = ("categorical_crossentropy",)

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class BinaryCrossentropy(LossFunctionWrapper):
    _names = ("binary_crossentropy",)

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class MeanSquaredError(LossFunctionWrapper):
    _names = ("mean_squared_error", "mse")

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):
    _names = ("mean_absolute_error", "mae")

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction, name)


def get(identifier):
    """A Loss from a name ("sparse_categorical_crossentropy", "mse", "huber",
    ...), a config dict, a Loss, or a function `fn(y_true, y_pred)` giving
    per-sample values."""
    if isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, dict):
        return serialization.deserialize_keras_object(identifier, module="keras.losses")
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier) or serialization.BUILTIN.get("keras.losses", {}).get(
            identifier)
        if cls is None:
            raise ValueError(f"Could not interpret loss identifier: {identifier!r}. Known "
                             f"names: {', '.join(sorted(_BY_NAME))}")
        return cls()
    if callable(identifier):
        return LossFunctionWrapper(identifier)
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}")
