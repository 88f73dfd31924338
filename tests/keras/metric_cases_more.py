"""Metric cases shared by tests/keras/test_metrics_more.py and the script that
records their results from Keras 3.15 (tools/record_keras_metrics_more.py):
name -> (class name, constructor kwargs, updates), each update
(y_true, y_pred) or (y_true, y_pred, sample_weight)."""

import numpy as np

_R = np.random.RandomState(7)
PROBS = _R.dirichlet(np.ones(3), size=6).astype("float32")
ONE_HOT = np.eye(3, dtype="float32")[[0, 2, 1, 1, 0, 2]]
LABELS = np.array([0, 2, 1, 1, 0, 2], "int32")
SCORES = np.array([0.13, 0.91, 0.42, 0.77, 0.05, 0.66, 0.58, 0.29], "float32")
BINARY = np.array([0, 1, 0, 1, 0, 1, 1, 0], "float32")
REG_T = np.sin(np.arange(12.0)).reshape(3, 4).astype("float32")
REG_P = (np.sin(np.arange(12.0)) + 0.3 * np.cos(3 * np.arange(12.0))).reshape(3, 4).astype(
    "float32")
W6 = np.array([1.0, 0.5, 2.0, 0.0, 1.0, 1.5], "float32")

CASES = {
    "hinge": ("Hinge", {}, [(BINARY.reshape(4, 2), SCORES.reshape(4, 2) * 2 - 1)]),
    "squared_hinge": ("SquaredHinge", {}, [(BINARY.reshape(4, 2), SCORES.reshape(4, 2) - 0.5)]),
    "categorical_hinge": ("CategoricalHinge", {}, [(ONE_HOT, PROBS, W6)]),
    "kl_divergence": ("KLDivergence", {}, [(ONE_HOT * 0.8 + 0.05, PROBS)]),
    "logcosh": ("LogCoshError", {}, [(REG_T, REG_P)]),
    "poisson": ("Poisson", {}, [(np.abs(REG_T), np.abs(REG_P) + 0.1)]),
    "categorical_crossentropy": ("CategoricalCrossentropy", {"label_smoothing": 0.1},
                                 [(ONE_HOT, PROBS), (ONE_HOT[:3], PROBS[3:])]),
    "categorical_crossentropy_logits": ("CategoricalCrossentropy", {"from_logits": True},
                                        [(ONE_HOT, REG_T[:, :3].repeat(2, 0), W6)]),
    "sparse_categorical_crossentropy": ("SparseCategoricalCrossentropy", {},
                                        [(LABELS, PROBS, W6)]),
    "sparse_categorical_crossentropy_ignore": ("SparseCategoricalCrossentropy",
                                               {"ignore_class": 2}, [(LABELS, PROBS)]),
    "pearson": ("PearsonCorrelation", {}, [(REG_T, REG_P), (REG_P, REG_T * 2)]),
    "concordance": ("ConcordanceCorrelation", {}, [(REG_T, REG_P)]),
    "true_positives": ("TruePositives", {}, [(BINARY, SCORES)]),
    "false_positives_thresholds": ("FalsePositives", {"thresholds": [0.1, 0.5, 0.8]},
                                   [(BINARY, SCORES), (BINARY[::-1].copy(), SCORES)]),
    "true_negatives_weighted": ("TrueNegatives", {}, [(BINARY, SCORES, SCORES + 1)]),
    "false_negatives": ("FalseNegatives", {"thresholds": 0.7}, [(BINARY, SCORES)]),
    "sensitivity_at_specificity": ("SensitivityAtSpecificity", {"specificity": 0.7},
                                   [(BINARY, SCORES)]),
    "specificity_at_sensitivity": ("SpecificityAtSensitivity",
                                   {"sensitivity": 0.9, "num_thresholds": 7},
                                   [(BINARY, SCORES)]),
    "precision_at_recall": ("PrecisionAtRecall", {"recall": 0.6}, [(BINARY, SCORES)]),
    "recall_at_precision": ("RecallAtPrecision", {"precision": 0.8},
                            [(BINARY, SCORES), (BINARY, SCORES[::-1].copy())]),
    "fbeta_macro": ("FBetaScore", {"average": "macro", "beta": 2.0}, [(ONE_HOT, PROBS)]),
    "fbeta_threshold": ("FBetaScore", {"beta": 0.5, "threshold": 0.3}, [(ONE_HOT, PROBS)]),
    "iou": ("IoU", {"num_classes": 3, "target_class_ids": [0, 2]},
            [(LABELS, np.array([0, 2, 2, 1, 1, 2]))]),
    "binary_iou": ("BinaryIoU", {"threshold": 0.4}, [(BINARY, SCORES)]),
    "binary_iou_one": ("BinaryIoU", {"target_class_ids": [1]}, [(BINARY, SCORES)]),
    "one_hot_iou": ("OneHotIoU", {"num_classes": 3, "target_class_ids": [1, 2]},
                    [(ONE_HOT, PROBS)]),
    "one_hot_mean_iou": ("OneHotMeanIoU", {"num_classes": 3}, [(ONE_HOT, PROBS)]),
}

# keras.metrics functions: name -> (function name, kwargs, y_true, y_pred)
FUNCTIONS = {
    "binary_accuracy": ("binary_accuracy", {}, BINARY.reshape(4, 2), SCORES.reshape(4, 2)),
    "categorical_accuracy": ("categorical_accuracy", {}, ONE_HOT, PROBS),
    "sparse_categorical_accuracy": ("sparse_categorical_accuracy", {}, LABELS, PROBS),
    "top_k": ("top_k_categorical_accuracy", {"k": 2}, ONE_HOT, PROBS),
    "sparse_top_k": ("sparse_top_k_categorical_accuracy", {"k": 1}, LABELS, PROBS),
    "pearson_correlation": ("pearson_correlation", {}, REG_T, REG_P),
    "concordance_correlation": ("concordance_correlation", {}, REG_T, REG_P),
    "hinge_fn": ("hinge", {}, BINARY.reshape(4, 2), SCORES.reshape(4, 2)),
    "huber_fn": ("huber", {"delta": 0.5}, REG_T, REG_P),
    "log_cosh_fn": ("log_cosh", {}, REG_T, REG_P),
}


def run(keras, name):
    """The result of case `name` as a float64 array."""
    cls, kwargs, updates = CASES[name]
    metric = getattr(keras.metrics, cls)(**kwargs)
    for update in updates:
        metric.update_state(*update)
    return np.asarray(metric.result(), dtype=np.float64)


def call(keras, name):
    fn, kwargs, y_true, y_pred = FUNCTIONS[name]
    return np.asarray(getattr(keras.metrics, fn)(y_true, y_pred, **kwargs), dtype=np.float64)
