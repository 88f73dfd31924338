"""Metrics: running values kept in Variables, so they update inside graphs.

    m = Mean()
    m.update_state([1.0, 2.0])
    m.update_state(3.0)
    m.result()          # 2.0 (float32)
    m.reset_state()

`Mean` keeps a total and a count, `Sum` the (weighted) sum of everything
seen; `SparseCategoricalAccuracy`,
`CategoricalAccuracy`, `BinaryAccuracy` and `Accuracy` are means of a
per-sample 0/1 match. Calling a metric updates it and returns the result.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.function.variables import Variable
from runtime._src.function.variable_sync import VariableAggregation
from runtime._src.core.context import init_scope
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.saving.auto_config import AutoConfigured
from runtime._src.keras.losses.losses import (match_rank, mean_absolute_error,
                                              mean_absolute_percentage_error, mean_squared_error,
                                              mean_squared_logarithmic_error)
from runtime._src.keras.utils.naming import to_snake_case
from runtime._src.ops import array_ops, math_ops, reduction_ops, shape_ops

__all__ = ["Metric", "Mean", "MeanMetricWrapper", "SparseCategoricalAccuracy",
           "CategoricalAccuracy", "BinaryAccuracy", "Accuracy", "get", "Sum"]


class Metric(AutoConfigured):
    """Base class: `update_state(...)`, `result()`, `reset_state()`;
    `get_config()` gives the constructor arguments (Keras 3's)."""

    _config_module = "keras.metrics"

    def __init__(self, name=None, dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self.dtype = dtypes.as_dtype(serialization.dtype_from_config(dtype) or dtypes.float32)
        self._variables = []
        self._initial_values = []

    def add_variable(self, name, shape=(), initializer="zeros", dtype=None):
        """A non-trainable state Variable of this metric, filled with
        `initializer` ("zeros", "ones" or a number); `reset_state` refills it.
        Its aggregation is SUM, as Keras 3's: under a tf.distribute strategy
        the replicas' updates add up."""
        fill = {"zeros": 0.0, "ones": 1.0}.get(initializer, initializer)
        dtype = dtypes.as_dtype(dtype or self.dtype)
        with init_scope():
            value = array_ops.fill(list(shape), array_ops.constant(fill, dtype))
        v = Variable(value, trainable=False, name=f"{self.name}/{name}",
                     aggregation=VariableAggregation.SUM)
        self._variables.append(v)
        self._initial_values.append(fill)
        return v

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype.name}
        auto = getattr(self, "_auto_config", None) or {}
        config.update({k: v for k, v in auto.items() if k not in config})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def variables(self):
        return list(self._variables)

    def reset_state(self):
        for v, fill in zip(self._variables, self._initial_values):
            v.assign(array_ops.fill(v.shape.dims, array_ops.constant(fill, v.dtype)))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}.update_state")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__}.result")

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Mean(Metric):
    """`tf.keras.metrics.Mean(name="mean")`: the (weighted) mean of every value seen."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_variable("total")
        self.count = self.add_variable("count")

    def update_state(self, values, sample_weight=None):
        values, weights = samplewise_values(values, sample_weight, self.dtype)
        self.total.assign_add(reduction_ops.reduce_sum(values))
        if weights is not None:
            count = reduction_ops.reduce_sum(weights)
        elif values.shape.rank:
            count = math_ops.cast(array_ops.shape(values)[0], self.dtype)
        else:
            count = array_ops.constant(1.0, self.dtype)
        self.count.assign_add(count)

    def result(self):
        # Keras's divide_no_nan: 0 before any update.
        return math_ops.divide(self.total.read_value(),
                               math_ops.maximum(self.count.read_value(), 1e-30))


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred)` over every sample seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name or fn.__name__, dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype.name, **self._fn_kwargs}
        if type(self) is MeanMetricWrapper:
            config["fn"] = serialization.serialize_keras_object(self._fn)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "fn" in config:
            config["fn"] = serialization.deserialize_keras_object(config["fn"])
        return cls(**config)

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)


def _mean_over_axes(x, start, stop=None):
    stop = x.shape.rank if stop is None else stop
    if stop <= start:
        return x
    return reduction_ops.reduce_mean(x, list(range(start, stop)))


def samplewise_values(values, sample_weight, dtype):
    """Keras 3's `reduce_to_samplewise_values`: (per-sample values times their
    weights, the per-sample weights or None); each sample's values averaged."""
    values = _as(values, dtype)
    weights = None
    if sample_weight is not None:
        weights = _as(sample_weight, dtype)
        values, weights = match_rank(values, weights)
        values = _mean_over_axes(values, weights.shape.rank)
        weights = shape_ops.broadcast_to(weights, array_ops.shape(values))
        values = values * weights
        if weights.shape.rank > 1:
            weights = _mean_over_axes(weights, 1)
    if values.shape.rank and values.shape.rank > 1:
        values = _mean_over_axes(values, 1)
    return values, weights


def _as(x, dtype):
    x = x.read_value() if isinstance(x, Variable) else x
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return x if x.dtype == dtype else math_ops.cast(x, dtype)


def _tensor(x):
    x = x.read_value() if isinstance(x, Variable) else x
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) is the integer label y_true, else 0.0."""
    y_true, y_pred = _tensor(y_true), _tensor(y_pred)
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank and \
            y_true.shape.dims[-1] == 1:
        y_true = array_ops.squeeze(y_true, [-1])
    predicted = reduction_ops.argmax(y_pred, -1)
    if not y_true.dtype.is_integer:
        predicted = math_ops.cast(predicted, y_true.dtype)
    elif y_true.dtype != predicted.dtype:
        y_true = math_ops.cast(y_true, predicted.dtype)
    return math_ops.cast(math_ops.equal(y_true, predicted), dtypes.float32)


def categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) == argmax(y_true) (one-hot labels)."""
    y_true, y_pred = _tensor(y_true), _tensor(y_pred)
    return math_ops.cast(math_ops.equal(reduction_ops.argmax(y_true, -1),
                                        reduction_ops.argmax(y_pred, -1)), dtypes.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """mean over the last axis of (y_pred > threshold) == y_true."""
    y_true, y_pred = match_rank(_tensor(y_true), _tensor(y_pred))
    predicted = math_ops.cast(math_ops.greater(y_pred, math_ops.cast(threshold, y_pred.dtype)),
                              dtypes.float32)
    matches = math_ops.cast(math_ops.equal(math_ops.cast(y_true, dtypes.float32), predicted),
                            dtypes.float32)
    if matches.shape.rank:
        return reduction_ops.reduce_mean(matches, -1)
    return matches


def accuracy(y_true, y_pred):
    """1.0 where y_pred == y_true."""
    y_true, y_pred = _tensor(y_true), _tensor(y_pred)
    if y_true.dtype != y_pred.dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), dtypes.float32)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"          # higher is better (EarlyStopping's mode="auto")

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype)


class CategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"          # higher is better (EarlyStopping's mode="auto")

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype)


class BinaryAccuracy(MeanMetricWrapper):
    _direction = "up"          # higher is better (EarlyStopping's mode="auto")

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class Accuracy(MeanMetricWrapper):
    _direction = "up"          # higher is better (EarlyStopping's mode="auto")

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype)


# Losses as metrics, named as given ("mae" logs as "mae"), as Keras does.
_LOSS_METRICS = {"mae": mean_absolute_error, "mean_absolute_error": mean_absolute_error,
                 "mse": mean_squared_error, "mean_squared_error": mean_squared_error,
                 "mape": mean_absolute_percentage_error,
                 "msle": mean_squared_logarithmic_error}

_BY_NAME = {
    "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "categorical_accuracy": CategoricalAccuracy,
    "binary_accuracy": BinaryAccuracy,
    "mean": Mean,
}


def _builtin_by_name():
    """{name: class} of the built-in metrics: each class by its name ("AUC"), its
    snake-case and lower-case names ("auc", "precision"), and the names above."""
    table = serialization.BUILTIN.get("keras.metrics", {})
    found = {}
    for name, cls in reversed(table.items()):         # the first class a name fits wins
        found[to_snake_case(name)] = found[name.lower()] = cls
    found.update({name: cls for name, cls in table.items() if name != "Metric"})
    found.update(_BY_NAME)
    return found


# Keras's short names of metric classes (besides each class's name and snake-case name).
_ALIASES = {"bce": "BinaryCrossentropy", "BCE": "BinaryCrossentropy",
            "mse": "MeanSquaredError", "MSE": "MeanSquaredError",
            "mae": "MeanAbsoluteError", "MAE": "MeanAbsoluteError",
            "mape": "MeanAbsolutePercentageError", "MAPE": "MeanAbsolutePercentageError",
            "msle": "MeanSquaredLogarithmicError", "MSLE": "MeanSquaredLogarithmicError"}


def get(identifier):
    """`keras.metrics.get(identifier)`, as Keras 3.15: None; a Metric class's
    name, snake-case name or short name ("mae") gives an instance with its
    defaults; a config dict its metric; a function or Metric itself. (What
    `compile(metrics=[...])` makes of a name is `compile_metric`.)"""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = serialization.deserialize_keras_object(identifier, module="keras.metrics")
    elif isinstance(identifier, str):
        table = serialization.BUILTIN.get("keras.metrics", {})
        by_name = {**{to_snake_case(n): c for n, c in table.items()}, **table}
        found = by_name.get(_ALIASES.get(identifier, identifier))
    else:
        found = identifier
    if not callable(found):
        raise ValueError(f"Could not interpret metric identifier: {identifier}")
    return found() if isinstance(found, type) else found


def compile_metric(identifier, loss=None, y_true=None, y_pred=None):
    """The Metric `compile(metrics=[...])` makes of a name, a config dict or a
    Metric. "accuracy" (or "acc") picks the accuracy that fits the labels, as
    Keras does: binary when predictions have one column, sparse categorical
    when labels have one fewer axis than predictions (or a last axis of 1),
    categorical otherwise; a loss's name is the mean of that loss, named as
    given."""
    if isinstance(identifier, str) and identifier in ("accuracy", "acc"):
        return _accuracy_for(y_true, y_pred)(name=identifier)
    if isinstance(identifier, str) and identifier in _LOSS_METRICS:
        return MeanMetricWrapper(_LOSS_METRICS[identifier], name=identifier)
    if callable(identifier) and not isinstance(identifier, Metric):
        return MeanMetricWrapper(identifier)
    names = (f"accuracy, {', '.join(sorted(list(_BY_NAME) + list(_LOSS_METRICS)))}, "
             "and the metric classes' names")
    return serialization.get_by_identifier(identifier, "metric", _builtin_by_name(),
                                           "keras.metrics", none=serialization.REJECT,
                                           base=Metric, names=names)


def _accuracy_for(y_true, y_pred):
    pred_dims = getattr(getattr(y_pred, "shape", None), "dims", None)
    true_dims = getattr(getattr(y_true, "shape", None), "dims", None)
    if pred_dims is None or true_dims is None:
        return SparseCategoricalAccuracy
    if pred_dims[-1:] == [1] or pred_dims[-1:] == (1,):
        return BinaryAccuracy
    if len(true_dims) < len(pred_dims) or tuple(true_dims[-1:]) == (1,):
        return SparseCategoricalAccuracy
    return CategoricalAccuracy


def _loss_metric(class_name, fn, default_name, direction="down"):
    def __init__(self, name=default_name, dtype=None):
        MeanMetricWrapper.__init__(self, fn, name, dtype)
    doc = f"`keras.metrics.{class_name}(name={default_name!r})`: the mean of {fn.__name__}."
    return type(class_name, (MeanMetricWrapper,), {
        "__init__": __init__, "__doc__": doc, "__module__": __name__, "_direction": direction})


def _float_pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = math_ops.cast(y_pred, dtypes.float32)
    return match_rank(_as(y_true, y_pred.dtype), y_pred)


class Sum(Metric):
    """`tf.keras.metrics.Sum(name="sum")`: the (weighted) sum of the values."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_variable("total")

    def update_state(self, values, sample_weight=None):
        values, _ = samplewise_values(values, sample_weight, self.dtype)
        self.total.assign_add(reduction_ops.reduce_sum(values))

    def result(self):
        return self.total.read_value()
