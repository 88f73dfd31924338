"""`keras.metrics.PearsonCorrelation(axis=-1)`, `ConcordanceCorrelation(axis=-1)`: the
mean over samples of pearson_correlation / concordance_correlation of each row
(computed along `axis`, as Keras 3.15's functions)."""

from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.metrics.metrics import MeanMetricWrapper
from runtime._src.ops import math_ops, reduction_ops
from runtime._src.keras.metrics.metrics import _float_pair

__all__ = ["pearson_correlation", "concordance_correlation", "PearsonCorrelation",
           "ConcordanceCorrelation"]


def _std(x, axis):
    mean = reduction_ops.reduce_mean(x, axis, keepdims=True)
    return math_ops.sqrt(reduction_ops.reduce_mean(math_ops.square(x - mean), axis,
                                                   keepdims=True))


def pearson_correlation(y_true, y_pred, axis=-1):
    """mean(z(y_true) * z(y_pred)) along `axis`, z the standardized values."""
    y_true, y_pred = _float_pair(y_true, y_pred)
    t = y_true - reduction_ops.reduce_mean(y_true, axis, keepdims=True)
    p = y_pred - reduction_ops.reduce_mean(y_pred, axis, keepdims=True)
    return reduction_ops.reduce_mean(t / _std(t, axis) * (p / _std(p, axis)), axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """mean(2 (y_true - mean(y_pred)) (y_pred - mean(y_pred)) / (var(y_true) +
    var(y_pred) + (mean(y_true) - mean(y_pred))^2 + epsilon)) along `axis`, as
    Keras 3.15 writes it."""
    y_true, y_pred = _float_pair(y_true, y_pred)
    t_mean = reduction_ops.reduce_mean(y_true, axis, keepdims=True)
    p_mean = reduction_ops.reduce_mean(y_pred, axis, keepdims=True)
    t_var = math_ops.square(_std(y_true - t_mean, axis))
    p_var = math_ops.square(_std(y_pred - p_mean, axis))
    covar = (y_true - p_mean) * (y_pred - p_mean)
    norm = t_var + p_var + math_ops.square(t_mean - p_mean)
    return reduction_ops.reduce_mean(2.0 * covar / (norm + backend_config.epsilon()), axis)


class _Correlation(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name=None, dtype=None, axis=-1):
        super().__init__(self._function, name or self._default, dtype, axis=axis)
        self.axis = axis


class PearsonCorrelation(_Correlation):
    """`keras.metrics.PearsonCorrelation(name="pearson_correlation", axis=-1)`."""

    _function, _default = staticmethod(pearson_correlation), "pearson_correlation"


class ConcordanceCorrelation(_Correlation):
    """`keras.metrics.ConcordanceCorrelation(name="concordance_correlation", axis=-1)`."""

    _function, _default = staticmethod(concordance_correlation), "concordance_correlation"
