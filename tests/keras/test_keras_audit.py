"""The Keras names no other test covered (tools/keras_name_tests.py), against
Keras 3.15's values recorded on TF 2.21 by tools/record_keras_audit.py into
tests/data/keras_audit.json: layers' outputs and gradients for identical weights
and inputs (eagerly and traced) and one fit step; metrics, schedules, losses,
ops and the (de)serialization helpers, eagerly and inside tf.function."""

import json
import pathlib
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_audit import (  # noqa: E402
    CASES, LAYERS, METRICS, build_layer, constraint_step, encode, fit_step, layer_grads,
    metric_outcome, outcome, save_and_load, schedule_in_optimizer)

REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_audit.json")
                 .read_text())
K = tf.keras


def _same(got, want, where="result"):
    if isinstance(want, dict) and "array" in want:
        assert isinstance(got, dict) and got.get("dtype") == want["dtype"], (where, got)
        np.testing.assert_allclose(np.asarray(got["array"], "float64"),
                                   np.asarray(want["array"], "float64"),
                                   rtol=2e-5, atol=2e-5, err_msg=where)
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got, want)
        for k in want:
            _same(got[k], want[k], f"{where}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-6), (where, got, want)
    else:
        assert got == want, (where, got, want)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_output_and_gradients_as_keras(name, traced):
    model, x = build_layer(K, name)
    run = tf.function(lambda x: layer_grads(tf, model, x)) if traced else (
        lambda x: layer_grads(tf, model, x))
    out, grads = run(x)
    want = REC["layers"][name]
    _same(encode(out), want["output"], "output")
    _same([None if g is None else encode(g) for g in grads], want["grads"], "grads")


@pytest.mark.parametrize("name", [n for n, c in LAYERS.items() if c[2]])
def test_layer_one_fit_step_as_keras(name):
    model, x = build_layer(K, name)
    shape = np.shape(model(x))
    _same([encode(w) for w in fit_step(K, model, x, shape)], REC["layers"][name]["fit"])


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
@pytest.mark.parametrize("name", list(METRICS))
def test_metric_as_keras(name, traced):
    fn = tf.function if traced else (lambda f: f)
    _same(metric_outcome(K, fn, *METRICS[name]), REC["metrics"][name])


@pytest.mark.parametrize("case", [c for c, _ in CASES])
def test_case_as_keras_eagerly(case):
    _same(outcome(K, case), REC["cases"][case])


@pytest.mark.parametrize("case", [c for c, traced in CASES if traced])
def test_case_as_keras_traced(case):
    _same(outcome(K, case, tf.function), REC["cases"][case])


def test_constraint_subclass_in_a_fit_step_as_keras():
    _same(constraint_step(K), REC["constraint"])


def test_schedule_subclass_drives_an_optimizer_as_keras():
    _same(schedule_in_optimizer(K), REC["schedule"])


@pytest.mark.parametrize("which", ["models", "saving"])
def test_save_model_round_trip_as_keras(which, tmp_path):
    saver = getattr(K, which).save_model
    _same(save_and_load(K, saver, str(tmp_path)), REC["save_model"][which])


def test_model_to_dot_is_graphviz_text_of_the_layers():
    # Keras 3.15 returns a pydot.Dot (ImportError without pydot, as in TF's venv);
    # here the DOT text itself (docs/tf_differences.md)
    inp = K.Input((2,), name="x")
    out = K.layers.Add(name="sum")([K.layers.Dense(2, name="a")(inp),
                                   K.layers.Dense(2, name="b")(inp)])
    dot = K.utils.model_to_dot(K.Model(inp, out, name="two"), show_shapes=True,
                               rankdir="LR")
    assert dot.startswith('digraph "two" {\n  rankdir=LR;')
    assert '[label="a (Dense)\\n(None, 2)"]' in dot and "sum (Add)" in dot
    assert dot.count(" -> ") == 4 and dot.endswith("}\n")
