"""Losses: `SparseCategoricalCrossentropy`, `CategoricalCrossentropy`,
`BinaryCrossentropy`, `MeanSquaredError`, `MeanAbsoluteError`, `Huber`,
`KLDivergence`, `LogCosh`, `Poisson`, `CosineSimilarity`, `Hinge`,
`SquaredHinge`, `BinaryFocalCrossentropy`, `CategoricalFocalCrossentropy`
(the formulas of the last nine are with their functions, in
runtime/_src/keras/losses/loss_functions.py).

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
"""

import warnings

from runtime._src.core import dtypes
from runtime._src.core.tensor import SymbolicTensor, Tensor, convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.saving.auto_config import AutoConfigured
from runtime._src.ops import array_ops, math_ops, nn_ops, reduction_ops

__all__ = ["Loss", "SparseCategoricalCrossentropy", "CategoricalCrossentropy",
           "BinaryCrossentropy", "MeanSquaredError", "MeanAbsoluteError",
           "MeanSquaredLogarithmicError", "MeanAbsolutePercentageError",
           "sparse_categorical_crossentropy", "categorical_crossentropy",
           "binary_crossentropy", "mean_squared_error", "mean_absolute_error",
           "mean_squared_logarithmic_error", "mean_absolute_percentage_error", "get",
           "as_loss", "register_function"]

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


def _in_dtype(x, dtype):
    """x as a tensor of `dtype` (Keras's Loss computes in floatx); a tensor
    already of that dtype is returned as it is (it may carry `_keras_logits`)."""
    if isinstance(x, (list, tuple, dict)) and not isinstance(x, Tensor):
        return x
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else math_ops.cast(x, dtype)


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
    return nn_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)


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
    return reduction_ops.reduce_mean(binary_entries(y_true, y_pred, from_logits), axis)


def binary_entries(y_true, y_pred, from_logits):
    """The binary cross-entropy of each entry (Keras's ops.binary_crossentropy):
    from the logits (given, or behind a sigmoid), else from probabilities
    clipped to [1e-7, 1 - 1e-7]."""
    y_pred, from_logits = logits_behind(y_pred, "Sigmoid", from_logits, "binary_crossentropy")
    if from_logits:
        return nn_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
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
    `get_config()` gives the constructor arguments. It computes in
    `keras.backend.floatx()`: inputs of another dtype are cast first."""

    _config_module = "keras.losses"

    def __init__(self, reduction="sum_over_batch_size", name=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of "
                             f"{list(_REDUCTIONS)}. Received: reduction={reduction!r}")
        self.reduction = reduction
        self.name = name or type(self).__name__

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__}.call")

    def __call__(self, y_true, y_pred, sample_weight=None):
        dtype = dtypes.as_dtype(backend_config.floatx())
        values = self.call(_in_dtype(y_true, dtype), _in_dtype(y_pred, dtype))
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


_FUNCTIONS = {}   # name -> per-sample function (Keras 3's names and aliases)


def register_function(fn, *aliases):
    """Make `get(name)` give `fn` for its own name and each alias."""
    for name in (fn.__name__,) + aliases:
        _FUNCTIONS[name] = fn


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
    if identifier is None or isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, dict):
        return serialization.deserialize_keras_object(identifier, module="keras.losses")
    if isinstance(identifier, str):
        if identifier in _FUNCTIONS:
            return _FUNCTIONS[identifier]
        cls = serialization.BUILTIN.get("keras.losses", {}).get(identifier)
        if cls is None or not (isinstance(cls, type) and issubclass(cls, Loss)) \
                or cls in (Loss, LossFunctionWrapper):
            raise ValueError(f"Could not interpret loss identifier: {identifier}")
        return cls()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier}")


def as_loss(identifier):
    """What `compile(loss=...)` computes with: `get(identifier)` as a Loss (a
    per-sample function wrapped, reduced like every Loss)."""
    loss = get(identifier)
    if loss is None or isinstance(loss, Loss):
        return loss
    return LossFunctionWrapper(loss)
