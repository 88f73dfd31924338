"""keras.ops.image.elastic_transform against Keras 3.15's recorded outputs
(on TF 2.21; tools/record_elastic_transform.py wrote
tests/data/elastic_transform_keras315.json): every interpolation and fill
mode, a single image, channels_first, float64, alpha 0, and its errors; on
KerasTensors it keeps the images' shape."""

import json
import os

import numpy as np
import pytest

import runtime.keras as keras
from tools.record_elastic_transform import CASES, run_cases

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data",
                    "elastic_transform_keras315.json")
RECORDED = json.load(open(DATA))["cases"]


@pytest.fixture(scope="module")
def ours():
    return run_cases(keras)


@pytest.mark.parametrize("case", sorted(CASES))
def test_output_matches_keras(ours, case):
    shape, dtype, values = RECORDED[case]
    assert ours[case][:2] == [shape, dtype]
    np.testing.assert_allclose(ours[case][2], values, atol=2e-5)   # recorded to 5 decimals


@pytest.mark.parametrize("name", sorted(RECORDED["errors"]))
def test_errors_match_keras(ours, name):
    assert ours["errors"][name] == RECORDED["errors"][name]


def test_symbolic_output_keeps_the_shape():
    x = keras.Input((9, 8, 2))
    y = keras.ops.image.elastic_transform(x, seed=1)
    assert tuple(y.shape) == (None, 9, 8, 2) and y.dtype == "float32"
    model = keras.Model(x, y)
    assert model(np.ones((1, 9, 8, 2), "float32")).shape == (1, 9, 8, 2)
