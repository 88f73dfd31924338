"""Optimizers' moving averages of the weights (`use_ema`, `ema_momentum`,
`ema_overwrite_frequency`) and `keras.callbacks.SwapEMAWeights`, against
Keras 3.15's values recorded on TF 2.21 by tools/record_keras_ema.py into
tests/data/keras_ema.json: three optimizer steps eagerly and traced, and fit
(with its traced train step), evaluate and predict with and without the swap."""

import json
import pathlib
import sys

import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_ema import (  # noqa: E402
    BAD, OPTIMIZERS, _names, apply_steps, bad_outcome, fit_run, swap_without_ema)

REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_ema.json")
                 .read_text())
K = tf.keras


def _close(got, want):
    if isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            _close(got[k], want[k])
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _close(g, w)
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=2e-6)
    else:
        assert got == want


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_optimizer_steps_keep_keras_moving_averages(name, traced):
    got = apply_steps(K, name, tf.function if traced else (lambda f: f))
    want = REC["apply"][name]
    assert got["config"] == want["config"]
    _close(got["variable"], want["variable"])
    _close(got["optimizer"], want["optimizer"])


@pytest.mark.parametrize("source", BAD)
def test_bad_ema_arguments_as_keras(source):
    assert bad_outcome(K, source) == REC["bad"][source]


def test_average_variables_named_and_ordered_as_keras():
    assert [v.name for v in _names(K)] == REC["names"]


@pytest.mark.parametrize("case", ["plain", "swap", "swap_on_epoch"])
def test_fit_evaluate_predict_with_moving_averages_as_keras(case):
    got, want = fit_run(K, case), REC["fit"][case]
    assert sorted(got) == sorted(want)
    for key in want:
        _close(got[key], want[key])


def test_swap_without_use_ema_is_keras_error():
    assert swap_without_ema(K) == REC["swap_without_ema"]
