"""keras.distillation against Keras 3.15's recorded results (on TF 2.21;
tools/record_distillation.py wrote tests/data/distillation_keras315.json):
Distiller.fit/evaluate logs, the student's weights after two epochs, the
losses' values and configs, and every error message, for logits and
feature distillation, weighted and alone, and a user's DistillationLoss."""

import json
import os
import re

import numpy as np
import pytest

import runtime.keras as keras
from tools.record_distillation import _data, _models, run_cases

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "distillation_keras315.json")
RECORDED = json.load(open(DATA))["cases"]


@pytest.fixture(scope="module")
def ours():
    return run_cases(keras)


def _close(ours, theirs, path):
    if isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs), path
        for key in theirs:
            _close(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list) and theirs and not isinstance(theirs[0], str):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, f"{path}[{i}]")
    elif isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=1e-5, abs=1e-5), path
    else:
        assert ours == theirs, path


@pytest.mark.parametrize("case", ["logits_kl", "logits_cce_weighted", "features_and_logits",
                                  "only_distillation", "custom_loss", "compute_loss", "feature_compute_loss",
                                  "configs", "distiller_config_keys", "distiller_attrs"])
def test_training_and_values_match_keras(ours, case):
    _close(ours[case], RECORDED[case], case)


def _plain(message):
    """A message without what names Keras's and our module paths or the
    process's layer counters."""
    return re.sub(r"dense_\d+", "dense_N", message.replace("runtime._src.keras.", "keras.src."))


@pytest.mark.parametrize("name", sorted(RECORDED["errors"]))
def test_errors_match_keras(ours, name):
    assert _plain(ours["errors"][name]) == _plain(RECORDED["errors"][name])


def test_layer_names_need_symbolic_models():
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(3)

        def call(self, x):
            return self.d(x)
    teacher, _ = _models(keras)
    with pytest.raises(ValueError, match="The student model\\(s\\) appear to be subclassed"):
        keras.distillation.Distiller(teacher, Sub(), keras.distillation.FeatureDistillation(
            teacher_layer_name=teacher.layers[0].name, student_layer_name="d"))


def test_round_trip_through_config_and_the_student_alone():
    teacher, student = _models(keras)
    distiller = keras.distillation.Distiller(
        teacher, student, keras.distillation.LogitsDistillation(temperature=2.0),
        student_loss_weight=0.4)
    again = keras.distillation.Distiller.from_config(distiller.get_config())
    assert again.student_loss_weight == 0.4 and again.teacher.trainable is False
    assert again.distillation_losses[0].temperature == 2.0
    x, _ = _data()
    np.testing.assert_allclose(distiller.predict(x, verbose=0), student.predict(x, verbose=0))
    assert [w.name for w in distiller.trainable_weights] == \
        [w.name for w in student.trainable_weights]


def test_the_base_loss_is_for_subclasses():
    base = keras.distillation.DistillationLoss()
    with pytest.raises(NotImplementedError, match="Subclasses must implement compute_loss"):
        base.compute_loss(1.0, 2.0)
    base.validate_outputs([1.0], [2.0])            # the same structure: no error
    with pytest.raises(ValueError):
        base.validate_outputs([1.0], (2.0, 3.0))
