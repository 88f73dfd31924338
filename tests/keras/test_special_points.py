"""Keras losses, activations and weighted layers at special points (0 and
+-1, bounds, saturation, probabilities 0 and 1, zero vectors, zero variance,
ties, repeated ids) against TensorFlow 2.21's values and gradients, eagerly
and inside tf.function. The expected numbers are TF 2.21's (Keras 3.15),
recorded by tools/tf_special_keras.py in tests/data/tf_special_points/keras.json;
the cases are tests/keras/special_cases.py."""

import json
import os
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, os.path.dirname(__file__))
import special_cases  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "tf_special_points", "keras.json")
with open(DATA) as _f:
    RECORDED = json.load(_f)["cases"]
CASES = special_cases.all_cases()

def _params():
    for name in sorted(CASES):
        for mode in ("eager", "function"):
            yield pytest.param(name, mode, id=f"{name}-{mode}")


def _close(got, want, what):
    if want is None:
        assert got is None, f"{what}: TF gives no gradient (None), got {got}"
        return
    assert got is not None, f"{what}: TF gives {want}, got None"
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=2e-5, atol=2e-6, err_msg=what)


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED)
    assert len(CASES) >= 100


@pytest.mark.parametrize("name,mode", list(_params()))
def test_special_point(name, mode):
    build, inputs = CASES[name]
    want = RECORDED[name][mode]
    assert "error" not in want, want
    value, dtype, grads = special_cases.run(tf, build, inputs, mode)
    assert dtype == want["dtype"], f"{name}: dtype {dtype}, TF {want['dtype']}"
    _close(value, want["value"], f"{name} value")
    assert len(grads) == len(want["grads"])
    for i, (g, w) in enumerate(zip(grads, want["grads"])):
        _close(g, w, f"{name} gradient {i}")
