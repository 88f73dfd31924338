"""Metrics counted from a confusion matrix: `Precision`, `Recall`, `AUC`, `F1Score`,
`FBetaScore`, the counts (`TruePositives`, ...) and the rates at a value of another
(`SensitivityAtSpecificity`, ...).

    m = AUC(num_thresholds=200, curve="ROC")
    m.update_state([0, 1, 1], [0.2, 0.7, 0.4])
    m.result()          # area under the ROC curve of everything seen

For each threshold t a prediction p counts as positive when p > t; a label
is positive when it is not 0. Each update adds the (weighted) numbers of
true/false positives/negatives per threshold to Variables, so the metrics
run inside traced training steps. AUC's thresholds are Keras's: -1e-7, then
i / (num_thresholds - 1) for i = 1 .. num_thresholds - 2, then 1 + 1e-7.

    Precision  tp / (tp + fp)        Recall  tp / (tp + fn)   (0 when empty)
    AUC        ROC: sum over thresholds of (fpr[i] - fpr[i+1]) * mean of recall at both;
               PR: Davis & Goadrich's interpolation (Keras's interpolate_pr_auc);
               summation_method "minoring" / "majoring": min / max instead of the mean
    F1Score    per class 2 * p * r / (p + r) (with 1e-7 guards), averaged as asked
               (None: per class, "micro", "macro", "weighted"); the prediction is
               the row's maximum when threshold=None, else p > threshold
    FBetaScore(average=None, beta=1.0, threshold=None)   F1Score with any beta
    TruePositives, FalsePositives, TrueNegatives, FalseNegatives(thresholds=None)
               weighted counts of y_pred > threshold against y_true != 0, one per threshold
    SensitivityAtSpecificity(specificity), SpecificityAtSensitivity(sensitivity),
    PrecisionAtRecall(recall), RecallAtPrecision(precision)   (num_thresholds=200)
               the best of one rate over the thresholds where the other is >= the value
"""

from runtime._src.keras.losses.losses import match_rank
from runtime._src.keras.metrics.metrics import Metric, _as
from runtime._src.ops import array_ops, math_ops, nn_ops, reduction_ops

__all__ = ["Precision", "Recall", "AUC", "F1Score", "TruePositives", "FalsePositives",
           "TrueNegatives", "FalseNegatives", "SensitivityAtSpecificity",
           "SpecificityAtSensitivity", "PrecisionAtRecall", "RecallAtPrecision", "FBetaScore"]

EPSILON = 1e-7


def _divide_no_nan(a, b):
    safe = math_ops.where(math_ops.equal(b, 0.0), array_ops.ones_like(b), b)
    return math_ops.where(math_ops.equal(b, 0.0), array_ops.zeros_like(a),
                          math_ops.divide(a, safe))


def _confusion_counts(y_true, y_pred, thresholds, sample_weight, dtype):
    """{"tp", "fp", "tn", "fn"}: weighted counts per threshold (shape (T,))."""
    y_true = _as(y_true, dtype)
    y_pred = _as(y_pred, dtype)
    y_true, y_pred = match_rank(y_true, y_pred)
    labels = array_ops.reshape(math_ops.cast(math_ops.not_equal(y_true, 0.0), dtype), [1, -1])
    preds = array_ops.reshape(y_pred, [1, -1])
    t = array_ops.reshape(array_ops.constant(list(thresholds), dtype), [-1, 1])
    pred_pos = math_ops.cast(math_ops.greater(preds, t), dtype)
    weights = array_ops.ones_like(preds)
    if sample_weight is not None:
        w = _as(sample_weight, dtype)
        while 0 < w.shape.rank < y_pred.shape.rank:        # one weight per sample
            w = array_ops.expand_dims(w, -1)
        weights = array_ops.reshape(math_ops.multiply(w, array_ops.ones_like(y_pred)), [1, -1])
    pos, neg = labels * weights, (1.0 - labels) * weights
    return {"tp": reduction_ops.reduce_sum(pred_pos * pos, 1),
            "fp": reduction_ops.reduce_sum(pred_pos * neg, 1),
            "fn": reduction_ops.reduce_sum((1.0 - pred_pos) * pos, 1),
            "tn": reduction_ops.reduce_sum((1.0 - pred_pos) * neg, 1)}


def _thresholds(thresholds, default=0.5):
    if thresholds is None:
        return [default], True
    if isinstance(thresholds, (int, float)):
        return [float(thresholds)], True
    return [float(t) for t in thresholds], False


class _ConfusionMetric(Metric):
    """Precision and Recall: counts `_counted` kept per threshold."""

    _direction = "up"
    _counted = ()

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name, dtype)
        if top_k is not None or class_id is not None:
            raise TypeError(f"{type(self).__name__}: top_k and class_id are not supported by "
                            "runtime.keras")
        self.init_thresholds = thresholds
        self.thresholds, self._scalar = _thresholds(thresholds)
        self._counts = {key: self.add_variable(name, shape=(len(self.thresholds),))
                        for key, name in self._counted}

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight, self.dtype)
        for key, variable in self._counts.items():
            variable.assign_add(counts[key])

    def result(self):
        value = self._ratio()
        return value[0] if self._scalar else value

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name,
                "thresholds": self.init_thresholds, "top_k": None, "class_id": None}


class Precision(_ConfusionMetric):
    """`tf.keras.metrics.Precision(thresholds=None, name=None)`: tp / (tp + fp)."""

    _counted = (("tp", "true_positives"), ("fp", "false_positives"))

    def _ratio(self):
        tp = self._counts["tp"].read_value()
        return _divide_no_nan(tp, tp + self._counts["fp"].read_value())


class Recall(_ConfusionMetric):
    """`tf.keras.metrics.Recall(thresholds=None, name=None)`: tp / (tp + fn)."""

    _counted = (("tp", "true_positives"), ("fn", "false_negatives"))

    def _ratio(self):
        tp = self._counts["tp"].read_value()
        return _divide_no_nan(tp, tp + self._counts["fn"].read_value())


class AUC(Metric):
    """`tf.keras.metrics.AUC(num_thresholds=200, curve="ROC",
    summation_method="interpolation", name=None, thresholds=None,
    from_logits=False)` (one label per prediction: multi_label=False)."""

    _direction = "up"

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False,
                 num_labels=None, label_weights=None, from_logits=False):
        super().__init__(name, dtype)
        if multi_label or label_weights is not None:
            raise TypeError("AUC: multi_label and label_weights are not supported by "
                            "runtime.keras")
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are '
                             "['ROC', 'PR']")
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             "Expected values are ['interpolation', 'majoring', 'minoring']")
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            num_thresholds = len(inner) + 2
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self.num_thresholds = num_thresholds
        self.thresholds = [0.0 - EPSILON] + inner + [1.0 + EPSILON]
        self._init_from_thresholds = thresholds is not None
        self.curve, self.summation_method = curve, summation_method
        self.from_logits = from_logits
        self._counts = {key: self.add_variable(name, shape=(num_thresholds,))
                        for key, name in (("tp", "true_positives"), ("fp", "false_positives"),
                                          ("tn", "true_negatives"), ("fn", "false_negatives"))}

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _as(y_pred, self.dtype)
        if self.from_logits:
            y_pred = nn_ops.sigmoid(y_pred)
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight, self.dtype)
        for key, variable in self._counts.items():
            variable.assign_add(counts[key])

    def _interpolate_pr_auc(self, tp, fp, fn):
        n = self.num_thresholds
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        dp = p[:n - 1] - p[1:]
        slope = _divide_no_nan(dtp, math_ops.maximum(dp, 0.0))
        intercept = tp[1:] - slope * p[1:]
        both = math_ops.logical_and(math_ops.greater(p[:n - 1], 0.0),
                                    math_ops.greater(p[1:], 0.0))
        ratio = math_ops.where(both, _divide_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0.0)),
                               array_ops.ones_like(p[1:]))
        safe_ratio = math_ops.where(both, ratio, array_ops.ones_like(ratio))
        increment = _divide_no_nan(slope * (dtp + intercept * math_ops.log(safe_ratio)),
                                   math_ops.maximum(tp[1:] + fn[1:], 0.0))
        return reduction_ops.reduce_sum(increment)

    def result(self):
        tp, fp, tn, fn = (self._counts[k].read_value() for k in ("tp", "fp", "tn", "fn"))
        n = self.num_thresholds
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(tp, fp, fn)
        recall = _divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _divide_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _divide_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(y[:n - 1], y[1:])
        else:
            heights = math_ops.maximum(y[:n - 1], y[1:])
        return reduction_ops.reduce_sum((x[:n - 1] - x[1:]) * heights)

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype.name,
                  "num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": False,
                  "num_labels": None, "label_weights": None, "from_logits": self.from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


class F1Score(Metric):
    """`tf.keras.metrics.F1Score(average=None, threshold=None, name="f1_score")`
    over one-hot (or multi-label) y_true and scores y_pred of shape (n, classes)."""

    _direction = "up"

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(name, dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: "
                             "[None, 'micro', 'macro', 'weighted']. "
                             f"Received: average={average}")
        if threshold is not None and not 0.0 < threshold <= 1.0:
            raise ValueError("Invalid `threshold` argument value. It should be a Python "
                             f"float in the range ]0, 1]. Received: threshold={threshold}")
        self.average, self.threshold, self.beta = average, threshold, 1.0
        self._state = None

    def _build(self, classes):
        shape = () if self.average == "micro" else (classes,)
        self._state = {k: self.add_variable(k, shape=shape) for k in (
            "true_positives", "false_positives", "false_negatives", "intermediate_weights")}

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _as(y_true, self.dtype), _as(y_pred, self.dtype)
        if self._state is None:
            self._build(y_pred.shape.dims[-1])
        if self.threshold is None:
            top = reduction_ops.reduce_max(y_pred, -1, keepdims=True)
            hit = math_ops.logical_and(math_ops.greater_equal(y_pred, top),
                                       math_ops.greater(math_ops.abs(y_pred), 1e-9))
        else:
            hit = math_ops.greater(y_pred, self.threshold)
        y_pred = math_ops.cast(hit, self.dtype)
        axis = None if self.average == "micro" else 0

        def weighted_sum(value):
            if sample_weight is not None:
                value = value * array_ops.expand_dims(_as(sample_weight, self.dtype), 1)
            return reduction_ops.reduce_sum(value, axis)
        for key, value in (("true_positives", y_pred * y_true),
                           ("false_positives", y_pred * (1.0 - y_true)),
                           ("false_negatives", (1.0 - y_pred) * y_true),
                           ("intermediate_weights", y_true)):
            self._state[key].assign_add(weighted_sum(value))

    def result(self):
        if self._state is None:
            return array_ops.constant(0.0, self.dtype)
        tp, fp, fn, weights = (self._state[k].read_value() for k in (
            "true_positives", "false_positives", "false_negatives", "intermediate_weights"))
        precision = tp / (tp + fp + EPSILON)
        recall = tp / (tp + fn + EPSILON)
        b2 = self.beta ** 2
        f1 = precision * recall / (b2 * precision + recall + EPSILON) * (1.0 + b2)
        if self.average == "weighted":
            share = weights / (reduction_ops.reduce_sum(weights) + EPSILON)
            return reduction_ops.reduce_sum(f1 * share)
        if self.average is not None:
            return reduction_ops.reduce_mean(f1)
        return f1

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name, "average": self.average,
                "threshold": self.threshold}


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
