"""Keras 3.15's other metrics and the keras.metrics functions against the
results recorded from TensorFlow 2.21 / Keras 3.15 (tests/data/keras_metrics_more.json,
by tools/record_keras_metrics_more.py from the cases of metric_cases_more.py),
eagerly and with update_state/result inside tf.function."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from tests.keras import metric_cases_more as cases

with open(os.path.join(os.path.dirname(__file__), "..", "data",
                       "keras_metrics_more.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_metric_matches_keras(name):
    np.testing.assert_allclose(cases.run(tf.keras, name), RECORDED["metrics"][name],
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(cases.FUNCTIONS))
def test_function_matches_keras(name):
    np.testing.assert_allclose(cases.call(tf.keras, name), RECORDED["functions"][name],
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["pearson", "sparse_categorical_crossentropy_ignore",
                                  "false_positives_thresholds", "recall_at_precision",
                                  "fbeta_macro", "one_hot_iou"])
def test_updates_inside_tf_function(name):
    cls, kwargs, updates = cases.CASES[name]
    metric = getattr(tf.keras.metrics, cls)(**kwargs)
    step = tf.function(lambda *args: metric.update_state(*args))
    for update in updates:
        step(*[tf.constant(a) for a in update])
    np.testing.assert_allclose(tf.function(metric.result)(), RECORDED["metrics"][name],
                               rtol=1e-5, atol=1e-6)


def test_configs_names_and_serialization():
    M = tf.keras.metrics
    assert M.IoU(3, [0, 2]).get_config() == {
        "num_classes": 3, "name": "io_u", "dtype": "int64", "ignore_class": None,
        "sparse_y_true": True, "sparse_y_pred": True, "axis": -1, "target_class_ids": [0, 2]}
    assert M.BinaryIoU().get_config() == {"target_class_ids": [0, 1], "threshold": 0.5,
                                          "name": "binary_io_u", "dtype": "int64"}
    assert M.LogCoshError().name == "logcosh"
    assert M.PrecisionAtRecall(0.5).get_config() == {
        "name": "precision_at_recall", "dtype": "float32", "class_id": None,
        "num_thresholds": 200, "recall": 0.5}
    assert M.FBetaScore().get_config()["beta"] == 1.0
    config = M.serialize(M.TruePositives(thresholds=[0.2, 0.6]))
    assert config["class_name"] == "TruePositives"
    again = M.deserialize(config)
    assert type(again) is M.TruePositives and again.thresholds == [0.2, 0.6]
    assert type(M.get("hinge")) is M.Hinge and type(M.deserialize("hinge")) is M.Hinge
    assert M.hinge is tf.keras.losses.hinge
    with pytest.raises(ValueError, match="num_thresholds"):
        M.SensitivityAtSpecificity(0.5, num_thresholds=0)
    with pytest.raises(ValueError, match="beta"):
        M.FBetaScore(beta=0)
