"""More of Keras 3's metrics, checked against Keras 3: each metric is updated with two
batches (the second weighted), then reset and updated with the first, eagerly
and with `update_state` traced by tf.function; and compiled metrics in `fit`.
The expected values were recorded from TensorFlow 2.21 with Keras 3 on the
same data."""

import numpy as np
import pytest

import runtime as tf

M = tf.keras.metrics
rng = np.random.RandomState(0)
yb = (rng.rand(12) > 0.5).astype("float32")
pb = rng.rand(12).astype("float32")
wb = rng.rand(12).astype("float32")
yc = rng.randint(0, 4, size=10)
pc = rng.rand(10, 4).astype("float32")
oc = np.eye(4, dtype="float32")[yc]
yr = rng.randn(10, 3).astype("float32")
pr = (yr + 0.5 * rng.randn(10, 3)).astype("float32")
wr = rng.rand(10).astype("float32")

BATCHES = {
    "B": [(yb[:6], pb[:6]), (yb[6:], pb[6:], wb[6:])],
    "LOGITS": [(yb, pb * 4 - 2)],
    "R": [(yr[:5], pr[:5]), (yr[5:], pr[5:], wr[5:])],
    "C": [(oc[:5], pc[:5]), (oc[5:], pc[5:], wr[5:])],
    "SC": [(yc[:5], pc[:5]), (yc[5:], pc[5:], wr[5:])],
    "BCOL": [(yb[:6, None], pb[:6, None]), (yb[6:, None], pb[6:, None], wb[6:])],
    "BCOL_LOGITS": [(yb[:, None], pb[:, None] * 4 - 2)],
    "SUM": [(pb[:6],), (pb[6:], wb[6:])],
}


def _squared(y_true, y_pred):
    return (y_true - y_pred) ** 2


CASES = {
    "AUC": (lambda: M.AUC(), "B"),
    "AUC_PR": (lambda: M.AUC(curve="PR"), "B"),
    "AUC_10": (lambda: M.AUC(num_thresholds=10), "B"),
    "AUC_logits": (lambda: M.AUC(from_logits=True), "LOGITS"),
    "AUC_minoring": (lambda: M.AUC(num_thresholds=20, summation_method="minoring"), "B"),
    "Precision": (lambda: M.Precision(), "B"),
    "Recall": (lambda: M.Recall(), "B"),
    "Precision_thr": (lambda: M.Precision(thresholds=[0.3, 0.7]), "B"),
    "Recall_thr": (lambda: M.Recall(thresholds=0.3), "B"),
    "MSE": (lambda: M.MeanSquaredError(), "R"),
    "RMSE": (lambda: M.RootMeanSquaredError(), "R"),
    "MAE": (lambda: M.MeanAbsoluteError(), "R"),
    "MAPE": (lambda: M.MeanAbsolutePercentageError(), "R"),
    "R2": (lambda: M.R2Score(), "R"),
    "R2_raw": (lambda: M.R2Score(class_aggregation=None), "R"),
    "R2_vw": (lambda: M.R2Score(class_aggregation="variance_weighted_average"), "R"),
    "Top2": (lambda: M.TopKCategoricalAccuracy(k=2), "C"),
    "SparseTop2": (lambda: M.SparseTopKCategoricalAccuracy(k=2), "SC"),
    "F1_none": (lambda: M.F1Score(), "C"),
    "F1_macro": (lambda: M.F1Score(average="macro", threshold=0.5), "C"),
    "F1_micro": (lambda: M.F1Score(average="micro", threshold=0.5), "C"),
    "F1_weighted": (lambda: M.F1Score(average="weighted"), "C"),
    "BCE": (lambda: M.BinaryCrossentropy(), "BCOL"),
    "BCE_logits": (lambda: M.BinaryCrossentropy(from_logits=True, label_smoothing=0.1),
                   "BCOL_LOGITS"),
    "Sum": (lambda: M.Sum(), "SUM"),
    "Wrapper": (lambda: M.MeanMetricWrapper(_squared, name="sq"), "B"),
}

# Keras 3 (TF 2.21): (result after every batch, result after reset_state and the first)
EXPECTED = {
    "AUC": (0.772324, 1.0),
    "AUC_PR": (0.927158, 1.0),
    "AUC_10": (0.641623, 0.8),
    "AUC_logits": (0.666667, 0.666667),
    "AUC_minoring": (0.714181, 1.0),
    "Precision": (0.853373, 1.0),
    "Recall": (0.706008, 0.6),
    "Precision_thr": ([0.853856, 0.822049], [1.0, 1.0]),
    "Recall_thr": (0.708744, 0.6),
    "MSE": (0.27288, 0.245988),
    "RMSE": (0.522379, 0.495972),
    "MAE": (0.433808, 0.423046),
    "MAPE": (84.476135, 94.972313),
    "R2": (0.627424, 0.59941),
    "R2_raw": ([0.797686, 0.329928, 0.754659], [0.816486, 0.262757, 0.718987]),
    "R2_vw": (0.656718, 0.659259),
    "Top2": (0.452929, 0.4),
    "SparseTop2": (0.452929, 0.4),
    "F1_none": ([0.632412, 0.0, 0.0, 0.301575], [0.666667, 0.0, 0.0, 0.0]),
    "F1_macro": (0.182036, 0.166667),
    "F1_micro": (0.191253, 0.181818),
    "F1_weighted": (0.253087, 0.266667),
    "BCE": (0.865248, 0.988568),
    "BCE_logits": (0.771996, 0.771996),
    "Sum": (4.775523, 2.504645),
    "Wrapper": (0.286049, 0.319476),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_metric_matches_keras(name, traced):
    make, data = CASES[name]
    metric = make()
    update = tf.function(metric.update_state) if traced else metric.update_state
    batches = BATCHES[data]
    for batch in batches:
        update(*[tf.constant(b) for b in batch])
    every, first = EXPECTED[name]
    np.testing.assert_allclose(np.asarray(metric.result()), every, rtol=2e-5, atol=2e-6)
    metric.reset_state()
    update(*[tf.constant(b) for b in batches[0]])
    np.testing.assert_allclose(np.asarray(metric.result()), first, rtol=2e-5, atol=2e-6)


def test_compiled_metrics_in_fit_match_keras():
    rng2 = np.random.RandomState(1)
    x = rng2.randn(32, 4).astype("float32")
    y = (x[:, 0] + 0.3 * rng2.randn(32) > 0).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((4,)),
                                 tf.keras.layers.Dense(3, activation="tanh"),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.set_weights([np.linspace(-0.5, 0.7, v.numpy().size).reshape(v.shape)
                       .astype("float32") for v in model.weights])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                  metrics=["auc", M.Precision(name="p"), M.Recall(name="r"),
                           M.AUC(curve="PR", name="pr"), "mse"])
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    # Keras 3 (TF 2.21), same weights and data
    expected = {
        "auc": [0.545098, 0.862745],
        "loss": [0.693693, 0.594785],
        "mse": [0.250206, 0.201634],
        "p": [0.5, 0.846154],
        "pr": [0.652964, 0.903243],
        "r": [0.533333, 0.733333],
    }
    assert sorted(history.history) == sorted(expected)
    for key, values in expected.items():
        np.testing.assert_allclose(history.history[key], values, atol=3e-6)
    assert model.evaluate(x, y, verbose=0, return_dict=True)["auc"] == \
        pytest.approx(0.868627, abs=2e-6)


def test_metric_configs_round_trip_and_names():
    for metric in (M.AUC(num_thresholds=50, curve="PR"), M.Precision(thresholds=[0.2, 0.4]),
                   M.F1Score(average="macro"), M.R2Score(class_aggregation=None),
                   M.TopKCategoricalAccuracy(k=3), M.BinaryCrossentropy(from_logits=True)):
        clone = type(metric).from_config(metric.get_config())
        assert clone.get_config() == metric.get_config()
    assert [type(M.get(n)).__name__ for n in ("auc", "AUC", "precision", "recall",
                                              "f1_score", "r2_score")] == [
        "AUC", "AUC", "Precision", "Recall", "F1Score", "R2Score"]
    with pytest.raises(ValueError, match="Invalid AUC curve value"):
        M.AUC(curve="XY")
