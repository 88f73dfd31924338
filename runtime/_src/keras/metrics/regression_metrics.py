"""Regression metrics: `MeanSquaredError`, `RootMeanSquaredError`,
`MeanAbsoluteError`, `MeanAbsolutePercentageError`, `MeanSquaredLogarithmicError`,
`CosineSimilarity`, `LogCoshError`, `R2Score`.

    MeanSquaredError     the mean of mean((y_pred - y_true)^2) per sample (likewise MAE)
    RootMeanSquaredError sqrt of the mean squared error
    MeanAbsolutePercentageError  100 * mean(|y_true - y_pred| / max(|y_true|, 1e-7))
    MeanSquaredLogarithmicError  the mean of losses.mean_squared_logarithmic_error
    CosineSimilarity(axis=-1)    the mean cosine (Keras's normalize: 0 for a zero vector)
    LogCoshError         the mean of losses.log_cosh
    R2Score              1 - sum((y_true - y_pred)^2) / sum((y_true - mean)^2) per
                         output column, then averaged ("uniform_average"),
                         weighted by the column variances
                         ("variance_weighted_average"), or per column (None)
"""

from runtime._src.keras.losses.losses import cosine_similarity as cosine_similarity_loss
from runtime._src.keras.losses.losses import (match_rank, mean_absolute_error,
                                              mean_absolute_percentage_error, mean_squared_error,
                                              mean_squared_logarithmic_error)
from runtime._src.keras.metrics.metrics import Mean, MeanMetricWrapper, Metric, _as
from runtime._src.ops import array_ops, math_ops, reduction_ops, shape_ops
from runtime._src.keras.losses.losses import log_cosh
from runtime._src.keras.metrics.metrics import _loss_metric

__all__ = ["MeanSquaredError", "RootMeanSquaredError", "MeanAbsoluteError",
           "MeanAbsolutePercentageError", "R2Score", "mean_absolute_percentage_error",
           "MeanSquaredLogarithmicError", "CosineSimilarity", "cosine_similarity",
           "LogCoshError"]


class MeanSquaredError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name, dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name, dtype)


class MeanAbsolutePercentageError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name, dtype)


class MeanSquaredLogarithmicError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name, dtype)


def cosine_similarity(y_true, y_pred, axis=-1):
    """sum(normalize(y_true) * normalize(y_pred)) over `axis` (the metric's
    sign: 1 for the same direction; 0 for a zero vector)."""
    return math_ops.negative(cosine_similarity_loss(y_true, y_pred, axis=axis))


class CosineSimilarity(MeanMetricWrapper):
    """`tf.keras.metrics.CosineSimilarity(name="cosine_similarity", dtype=None,
    axis=-1)`: the mean cosine of y_true and y_pred along `axis`."""

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name, dtype, axis=axis)

    def get_config(self):
        # Keras 3 (TF 2.21) leaves `axis` out of the config
        return {"name": self.name, "dtype": self.dtype.name}


class RootMeanSquaredError(Mean):
    """`tf.keras.metrics.RootMeanSquaredError()`: sqrt(mean((y_pred - y_true)^2))."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _as(y_pred, self.dtype)
        y_true = _as(y_true, self.dtype)
        y_true, y_pred = match_rank(y_true, y_pred)
        super().update_state(math_ops.square(y_pred - y_true), sample_weight)

    def result(self):
        return math_ops.sqrt(super().result())


class R2Score(Metric):
    """`tf.keras.metrics.R2Score(class_aggregation="uniform_average",
    num_regressors=0, name="r2_score")` over y of shape (n, outputs) or (n,)."""

    _direction = "up"

    def __init__(self, class_aggregation="uniform_average", num_regressors=0,
                 name="r2_score", dtype=None):
        super().__init__(name, dtype)
        if class_aggregation not in (None, "uniform_average", "variance_weighted_average"):
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one of "
                             "(None, 'uniform_average', 'variance_weighted_average'). "
                             f"Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable("num_samples", dtype="int32")
        self._state = None

    def _build(self, outputs):
        self._state = {k: self.add_variable(k, shape=(outputs,))
                       for k in ("squared_sum", "sum", "total_mse", "count")}

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = match_rank(_as(y_true, self.dtype), _as(y_pred, self.dtype))
        if y_true.shape.rank == 1:
            y_true, y_pred = array_ops.expand_dims(y_true, 1), array_ops.expand_dims(y_pred, 1)
        if self._state is None:
            self._build(y_pred.shape.dims[-1])
        weight = array_ops.constant(1.0, self.dtype) if sample_weight is None \
            else _as(sample_weight, self.dtype)
        if weight.shape.rank == 1:
            weight = array_ops.expand_dims(weight, 1)
        weight = shape_ops.broadcast_to(weight, array_ops.shape(y_true))
        weighted = y_true * weight
        state = self._state
        state["sum"].assign_add(reduction_ops.reduce_sum(weighted, 0))
        state["squared_sum"].assign_add(reduction_ops.reduce_sum(y_true * weighted, 0))
        state["total_mse"].assign_add(reduction_ops.reduce_sum(
            math_ops.square(y_true - y_pred) * weight, 0))
        state["count"].assign_add(reduction_ops.reduce_sum(weight, 0))
        self.num_samples.assign_add(array_ops.shape(y_true)[0])

    def result(self):
        if self._state is None:
            return array_ops.constant(0.0, self.dtype)
        state = {k: v.read_value() for k, v in self._state.items()}
        mean = state["sum"] / state["count"]
        total = state["squared_sum"] - state["sum"] * mean
        raw = 1.0 - state["total_mse"] / total
        raw = math_ops.where(math_ops.is_inf(raw), array_ops.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = reduction_ops.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = reduction_ops.reduce_sum(total * raw) / reduction_ops.reduce_sum(total)
        else:
            score = raw
        if self.num_regressors:
            n = math_ops.cast(self.num_samples.read_value(), self.dtype)
            score = 1.0 - (1.0 - score) * (n - 1.0) / (n - float(self.num_regressors) - 1.0)
        return score

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name,
                "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}


LogCoshError = _loss_metric("LogCoshError", log_cosh, "logcosh")
