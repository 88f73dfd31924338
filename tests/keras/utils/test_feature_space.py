"""keras.utils.FeatureSpace against Keras 3.15's recorded results (on TF 2.21;
tools/record_feature_space.py wrote tests/data/feature_space_keras315.json):
every feature kind with crosses, concatenated and as a dict, on a batch, on
one example and inside Dataset.map, the encoded features, the config and
every error message."""

import json
import os
import warnings

import numpy as np
import pytest

import runtime as tf
import runtime.keras as keras
from tools.record_feature_space import run_cases, table

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "feature_space_keras315.json")
RECORDED = json.load(open(DATA))["cases"]


@pytest.fixture(scope="module")
def ours():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the test's lambdas given to Dataset.map
        return run_cases(keras, tf)


def _close(ours, theirs, path):
    if isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs), path
        for key in theirs:
            _close(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list) and theirs and isinstance(theirs[0], float):
        np.testing.assert_allclose(ours, theirs, atol=1e-4, err_msg=path)
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, f"{path}[{i}]")
    else:
        assert ours == theirs, path


@pytest.mark.parametrize("case", ["concat", "dict", "ints", "config"])
def test_outputs_match_keras(ours, case):
    _close(ours[case], RECORDED[case], case)


@pytest.mark.parametrize("name", sorted(RECORDED["errors"]))
def test_errors_match_keras(ours, name):
    assert ours["errors"][name] == RECORDED["errors"][name]


def test_a_functional_model_over_the_encoded_features_trains():
    FS = keras.utils.FeatureSpace
    data = table()
    space = FS({"income": "float_normalized", "city": "string_categorical",
                "rooms": FS.integer_categorical()}, crosses=[("city", "rooms")],
               crossing_dim=4)
    space.adapt(tf.data.Dataset.from_tensor_slices(data))
    out = keras.layers.Dense(1)(space.get_encoded_features())
    model = keras.Model(space.get_inputs(), out)
    model.compile("sgd", "mse")
    x = {k: data[k][:, None] for k in ("income", "city", "rooms")}
    history = model.fit(x, np.ones((12, 1), "float32"), epochs=2, verbose=0)
    assert model.predict(x, verbose=0).shape == (12, 1)
    assert history.history["loss"][1] < history.history["loss"][0]
    again = FS.from_config(space.get_config())
    assert sorted(again.features) == ["city", "income", "rooms"]
    assert [c.name for c in again.crosses] == ["city_X_rooms"]
