"""More of Keras 3's metrics:

    Hinge, SquaredHinge, CategoricalHinge, KLDivergence, LogCoshError, Poisson,
    CategoricalCrossentropy, SparseCategoricalCrossentropy
        the mean over samples of the loss function of the same name
    PearsonCorrelation(axis=-1), ConcordanceCorrelation(axis=-1)
        the mean over samples of pearson_correlation / concordance_correlation
        of each row (computed along `axis`, as Keras 3.15's functions)
    TruePositives, FalsePositives, TrueNegatives, FalseNegatives(thresholds=None)
        weighted counts of y_pred > threshold against y_true != 0, one per threshold
    SensitivityAtSpecificity(specificity), SpecificityAtSensitivity(sensitivity),
    PrecisionAtRecall(recall), RecallAtPrecision(precision)   (num_thresholds=200)
        the best of one rate over the thresholds where the other is >= the value
    FBetaScore(average=None, beta=1.0, threshold=None)   F1Score with any beta
    IoU(num_classes, target_class_ids), BinaryIoU(target_class_ids=(0, 1),
    threshold=0.5), OneHotIoU(num_classes, target_class_ids), OneHotMeanIoU(num_classes)
        MeanIoU's confusion matrix; the mean IoU over the target classes
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.metrics.confusion_metrics import (F1Score, _confusion_counts,
                                                  _divide_no_nan, _thresholds)
from runtime._src.keras.metrics.iou_metrics import MeanIoU
from runtime._src.keras.losses.losses import categorical_hinge, hinge, kl_divergence, log_cosh, poisson, squared_hinge
from runtime._src.keras.losses.losses import (categorical_crossentropy, match_rank,
                                       sparse_categorical_crossentropy)
from runtime._src.keras.metrics.metrics import Mean, MeanMetricWrapper, Metric, _as
from runtime._src.ops import array_ops, math_ops, matrix_diag_ops, reduction_ops

__all__ = ["Hinge", "SquaredHinge", "CategoricalHinge", "KLDivergence", "LogCoshError",
           "Poisson", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "PearsonCorrelation", "ConcordanceCorrelation", "pearson_correlation",
           "concordance_correlation", "TruePositives", "FalsePositives", "TrueNegatives",
           "FalseNegatives", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
           "PrecisionAtRecall", "RecallAtPrecision", "FBetaScore", "IoU", "BinaryIoU",
           "OneHotIoU", "OneHotMeanIoU", "binary_accuracy"]


def _loss_metric(class_name, fn, default_name, direction="down"):
    def __init__(self, name=default_name, dtype=None):
        MeanMetricWrapper.__init__(self, fn, name, dtype)
    doc = f"`keras.metrics.{class_name}(name={default_name!r})`: the mean of {fn.__name__}."
    return type(class_name, (MeanMetricWrapper,), {
        "__init__": __init__, "__doc__": doc, "__module__": __name__, "_direction": direction})


Hinge = _loss_metric("Hinge", hinge, "hinge")
SquaredHinge = _loss_metric("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _loss_metric("CategoricalHinge", categorical_hinge, "categorical_hinge")
KLDivergence = _loss_metric("KLDivergence", kl_divergence, "kl_divergence")
LogCoshError = _loss_metric("LogCoshError", log_cosh, "logcosh")
Poisson = _loss_metric("Poisson", poisson, "poisson")


class CategoricalCrossentropy(MeanMetricWrapper):
    """`keras.metrics.CategoricalCrossentropy(from_logits=False, label_smoothing=0,
    axis=-1)`."""

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(categorical_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(Mean):
    """`keras.metrics.SparseCategoricalCrossentropy(from_logits=False,
    ignore_class=None, axis=-1)`; samples labelled `ignore_class` are left out."""

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(name, dtype)
        self.from_logits, self.ignore_class, self.axis = from_logits, ignore_class, axis

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _as(y_true, dtypes.int64)
        if self.ignore_class is None:
            loss = sparse_categorical_crossentropy(y_true, y_pred, self.from_logits, self.axis)
            return super().update_state(loss, sample_weight)
        if y_true.shape.rank == _as(y_pred, self.dtype).shape.rank:
            y_true = array_ops.squeeze(y_true, [-1])
        keep = math_ops.not_equal(y_true, self.ignore_class)
        labels = math_ops.where(keep, y_true, array_ops.zeros_like(y_true))
        loss = sparse_categorical_crossentropy(labels, y_pred, self.from_logits, self.axis)
        # as Keras 3.15: an ignored sample's loss is 0, and it still counts
        return super().update_state(loss * math_ops.cast(keep, loss.dtype), sample_weight)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name, "from_logits": self.from_logits,
                "ignore_class": self.ignore_class, "axis": self.axis}


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = math_ops.cast(y_pred, dtypes.float32)
    return match_rank(_as(y_true, y_pred.dtype), y_pred)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """`keras.metrics.binary_accuracy`: 1.0 where (y_pred > threshold) == y_true,
    elementwise (the BinaryAccuracy metric averages these)."""
    y_true, y_pred = _pair(y_true, y_pred)
    hit = math_ops.greater(y_pred, math_ops.cast(threshold, y_pred.dtype))
    return math_ops.cast(math_ops.equal(y_true, math_ops.cast(hit, y_true.dtype)),
                         dtypes.float32)


def _std(x, axis):
    mean = reduction_ops.reduce_mean(x, axis, keepdims=True)
    return math_ops.sqrt(reduction_ops.reduce_mean(math_ops.square(x - mean), axis,
                                                   keepdims=True))


def pearson_correlation(y_true, y_pred, axis=-1):
    """mean(z(y_true) * z(y_pred)) along `axis`, z the standardized values."""
    y_true, y_pred = _pair(y_true, y_pred)
    t = y_true - reduction_ops.reduce_mean(y_true, axis, keepdims=True)
    p = y_pred - reduction_ops.reduce_mean(y_pred, axis, keepdims=True)
    return reduction_ops.reduce_mean(t / _std(t, axis) * (p / _std(p, axis)), axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """mean(2 (y_true - mean(y_pred)) (y_pred - mean(y_pred)) / (var(y_true) +
    var(y_pred) + (mean(y_true) - mean(y_pred))^2 + epsilon)) along `axis`, as
    Keras 3.15 writes it."""
    y_true, y_pred = _pair(y_true, y_pred)
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


class _Count(Metric):
    """One confusion count per threshold."""

    _key = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name, dtype)
        self.init_thresholds = thresholds
        self.thresholds, self._scalar = _thresholds(thresholds)
        self.accumulator = self.add_variable("accumulator", shape=(len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight, self.dtype)
        self.accumulator.assign_add(counts[self._key])

    def result(self):
        value = self.accumulator.read_value()
        return value[0] if self._scalar else value

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name,
                "thresholds": self.init_thresholds}


def _count_class(class_name, key, default_name):
    doc = (f"`keras.metrics.{class_name}(thresholds=None, name={default_name!r})`: the "
           f"weighted number of {default_name.replace('_', ' ')}.")

    def __init__(self, thresholds=None, name=None, dtype=None):
        _Count.__init__(self, thresholds, name or default_name, dtype)
    return type(class_name, (_Count,), {"_key": key, "__init__": __init__, "__doc__": doc,
                                        "__module__": __name__})


TruePositives = _count_class("TruePositives", "tp", "true_positives")
FalsePositives = _count_class("FalsePositives", "fp", "false_positives")
TrueNegatives = _count_class("TrueNegatives", "tn", "true_negatives")
FalseNegatives = _count_class("FalseNegatives", "fn", "false_negatives")


class _AtValue(Metric):
    """The best `_maximized` rate over the thresholds where `_constrained` >= value."""

    _direction = "up"
    _value_name = None

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(name, dtype)
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        if not 0 <= value <= 1:
            raise ValueError(f"Argument `{self._value_name}` must be in the range [0, 1]. "
                             f"Received: {self._value_name}={value}")
        if class_id is not None:
            raise ValueError(f"{type(self).__name__} here takes class_id=None only")
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        self.thresholds = [0.5] if num_thresholds == 1 else \
            [0.0] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
        self._counts = {k: self.add_variable(name, shape=(len(self.thresholds),))
                        for k, name in (("tp", "true_positives"), ("fp", "false_positives"),
                                        ("tn", "true_negatives"), ("fn", "false_negatives"))}

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight, self.dtype)
        for key, variable in self._counts.items():
            variable.assign_add(counts[key])

    def _rates(self):
        tp, fp, tn, fn = (self._counts[k].read_value() for k in ("tp", "fp", "tn", "fn"))
        return {"sensitivity": _divide_no_nan(tp, tp + fn),
                "specificity": _divide_no_nan(tn, tn + fp),
                "recall": _divide_no_nan(tp, tp + fn),
                "precision": _divide_no_nan(tp, tp + fp)}

    def result(self):
        rates = self._rates()
        feasible = math_ops.greater_equal(rates[self._value_name], self.value)
        best = math_ops.where(feasible, rates[self._maximized],
                              array_ops.zeros_like(rates[self._maximized]))
        return math_ops.maximum(reduction_ops.reduce_max(best), 0.0)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name, "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._value_name: self.value}


class SensitivityAtSpecificity(_AtValue):
    """`keras.metrics.SensitivityAtSpecificity(specificity, num_thresholds=200)`: the
    best sensitivity where the specificity is at least `specificity`."""

    _maximized, _value_name = "sensitivity", "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None,
                 dtype=None):
        super().__init__(specificity, num_thresholds, class_id,
                         name or "sensitivity_at_specificity", dtype)


class SpecificityAtSensitivity(_AtValue):
    """`keras.metrics.SpecificityAtSensitivity(sensitivity, num_thresholds=200)`."""

    _maximized, _value_name = "specificity", "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None,
                 dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id,
                         name or "specificity_at_sensitivity", dtype)


class PrecisionAtRecall(_AtValue):
    """`keras.metrics.PrecisionAtRecall(recall, num_thresholds=200)`."""

    _maximized, _value_name = "precision", "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name or "precision_at_recall",
                         dtype)


class RecallAtPrecision(_AtValue):
    """`keras.metrics.RecallAtPrecision(precision, num_thresholds=200)`."""

    _maximized, _value_name = "recall", "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name or "recall_at_precision",
                         dtype)


class FBetaScore(F1Score):
    """`keras.metrics.FBetaScore(average=None, beta=1.0, threshold=None)`:
    (1 + beta^2) precision recall / (beta^2 precision + recall) per class."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        if not isinstance(beta, float) or beta <= 0:
            raise ValueError("Invalid `beta` argument value. It should be a Python float "
                             f"greater than 0. Received: beta={beta}")
        super().__init__(average=average, threshold=threshold, name=name, dtype=dtype)
        self.beta = beta

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name, "average": self.average,
                "beta": self.beta, "threshold": self.threshold}


class IoU(MeanIoU):
    """`keras.metrics.IoU(num_classes, target_class_ids, ignore_class=None,
    sparse_y_true=True, sparse_y_pred=True, axis=-1)`."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, "
                             f"which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        cm = math_ops.cast(self.total_cm.read_value(), dtypes.float32)
        tp = array_ops.gather(matrix_diag_ops.diag_part(cm), self.target_class_ids)
        denominator = array_ops.gather(reduction_ops.reduce_sum(cm, 0) +
                                       reduction_ops.reduce_sum(cm, 1), self.target_class_ids)
        denominator = denominator - tp
        valid = reduction_ops.reduce_sum(math_ops.cast(math_ops.greater(denominator, 1e-9),
                                                       dtypes.float32))
        eps = backend_config.epsilon()
        return reduction_ops.reduce_sum(tp / (denominator + eps)) / (valid + eps)

    def get_config(self):
        config = super().get_config()
        config["target_class_ids"] = self.target_class_ids
        return config


class BinaryIoU(IoU):
    """`keras.metrics.BinaryIoU(target_class_ids=(0, 1), threshold=0.5)`: y_pred >
    threshold is class 1."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _as(y_pred, dtypes.float32)
        y_pred = math_ops.cast(math_ops.greater_equal(y_pred, self.threshold), y_pred.dtype)
        y_true = math_ops.cast(math_ops.greater_equal(_as(y_true, dtypes.float32),
                                                      self.threshold), dtypes.float32)
        return super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype.name}


class OneHotIoU(IoU):
    """`keras.metrics.OneHotIoU(num_classes, target_class_ids)`: one-hot y_true,
    scores y_pred (the argmax of each)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids,
                "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """`keras.metrics.OneHotMeanIoU(num_classes)`: MeanIoU of one-hot y_true and
    scores y_pred."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}
