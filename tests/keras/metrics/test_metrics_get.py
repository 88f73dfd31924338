"""keras.metrics.get against Keras 3.15's recorded results (on TF 2.21):
each identifier's class and name, or Keras's error. What compile(metrics=...)
makes of a name ("accuracy" by the labels' shape, a loss's name kept) is
compile_metric's, tested with the training tests."""

import pytest

import runtime.keras as keras

# identifier -> (class, name) or the ValueError, as Keras 3.15 gave them
RECORDED = {
    "MeanAbsoluteError": ("MeanAbsoluteError", "mean_absolute_error"),
    "mean_absolute_error": ("MeanAbsoluteError", "mean_absolute_error"),
    "MAE": ("MeanAbsoluteError", "mean_absolute_error"),
    "mae": ("MeanAbsoluteError", "mean_absolute_error"),
    "binary_accuracy": ("BinaryAccuracy", "binary_accuracy"),
    "BinaryAccuracy": ("BinaryAccuracy", "binary_accuracy"),
    "r2_score": ("R2Score", "r2_score"),
    "categorical_crossentropy": ("CategoricalCrossentropy", "categorical_crossentropy"),
    "hinge": ("Hinge", "hinge"),
    "log_cosh_error": ("LogCoshError", "logcosh"),
    "poisson": ("Poisson", "poisson"),
    "top_k_categorical_accuracy": ("TopKCategoricalAccuracy", "top_k_categorical_accuracy"),
    "mean": ("Mean", "mean"),
    "sum": ("Sum", "sum"),
    "precision": ("Precision", "precision"),
    "recall": ("Recall", "recall"),
    "msle": ("MeanSquaredLogarithmicError", "mean_squared_logarithmic_error"),
    "mape": ("MeanAbsolutePercentageError", "mean_absolute_percentage_error"),
    "MSE": ("MeanSquaredError", "mean_squared_error"),
    "bce": ("BinaryCrossentropy", "binary_crossentropy"),
    "cosine_similarity": ("CosineSimilarity", "cosine_similarity"),
    "f1_score": ("F1Score", "f1_score"),
    "kl_divergence": ("KLDivergence", "kl_divergence"),
    "KLDivergence": ("KLDivergence", "kl_divergence"),
    "sparse_categorical_crossentropy": ("SparseCategoricalCrossentropy",
                                        "sparse_categorical_crossentropy"),
    "root_mean_squared_error": ("RootMeanSquaredError", "root_mean_squared_error"),
    "accuracy": ("Accuracy", "accuracy"),
}
REFUSED = ["iou", "mean_iou", "acc", "nope", 3]


@pytest.mark.parametrize("identifier", sorted(RECORDED))
def test_a_name_gives_keras_metric(identifier):
    metric = keras.metrics.get(identifier)
    assert (type(metric).__name__, metric.name) == RECORDED[identifier]


@pytest.mark.parametrize("identifier", REFUSED, ids=str)
def test_unknown_identifiers_raise_keras_error(identifier):
    with pytest.raises(ValueError, match=f"^Could not interpret metric identifier: "
                                         f"{identifier}$"):
        keras.metrics.get(identifier)


def test_none_functions_configs_and_metrics():
    assert keras.metrics.get(None) is None
    fn = keras.losses.mean_absolute_error
    assert keras.metrics.get(fn) is fn                  # a function as it is
    auc = keras.metrics.AUC()
    assert keras.metrics.get(auc) is auc
    made = keras.metrics.get({"class_name": "Accuracy", "config": {"name": "a"}})
    assert (type(made).__name__, made.name) == ("Accuracy", "a")
    assert keras.metrics.deserialize("mae").name == "mean_absolute_error"
