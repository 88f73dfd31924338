"""`tf.keras.backend`'s Keras 2 functions (TF 2.21's Keras 3.15 legacy
backend) against their recorded values (tools/record_tf_keras_legacy.py
wrote tests/data/tf_keras_legacy.json; the test reruns the recorder's cases
on runtime.keras): values and dtypes of `tf.keras.backend.abs`, `.sum`,
`.mean`, `.std`, `.clip`, `.arange`, `.reshape`, `.permute_dimensions`,
`.repeat_elements`, `.switch`, `.relu`, `.hard_sigmoid`, `.softmax`,
`.bias_add`, `.dot`, `.binary_crossentropy`, `.categorical_crossentropy`,
`.sparse_categorical_crossentropy`, `.in_top_k` and the rest; variables
through `tf.keras.backend.variable`, `.int_shape`, `.get_value`,
`.set_value`, `.batch_get_value`, `.batch_set_value`, `.update_add`,
`.update_sub`, `.moving_average_update`, `.update`, `.eval`, `.zeros`,
`.ones`, `.eye`; and the errors."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from tools import record_tf_keras_legacy as recorder

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "tf_keras_legacy.json")
K = tf.keras.backend


@pytest.fixture(scope="module")
def pair():
    with open(DATA) as f:
        theirs = json.load(f)["backend"]
    return json.loads(json.dumps(recorder._backend(tf.keras))), theirs


def _keys():
    with open(DATA) as f:
        return sorted(json.load(f)["backend"])


@pytest.mark.parametrize("key", _keys())
def test_matches_keras_3_15_recorded(pair, key):
    ours, theirs = pair
    if key in ("meta", "errors"):
        assert ours[key] == theirs[key]
        return
    (value, dtype), (want, want_dtype) = ours[key], theirs[key]
    assert dtype == want_dtype, key
    np.testing.assert_allclose(np.asarray(value, "float64"), np.asarray(want, "float64"),
                               rtol=1e-5, atol=1e-6, err_msg=key)


def test_inside_tf_function_and_gradients():
    x = tf.Variable([[-1.0, 0.5, 2.0]])

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = K.sum(K.relu(x, max_value=1.5) * K.sqrt(K.abs(x)))
        return y, tape.gradient(y, x)
    y, g = f()
    # TF 2.21's recorded values (Keras 3.15's tf.keras.backend, eager)
    assert float(y) == pytest.approx(2.4748735427856445, rel=1e-6)
    np.testing.assert_allclose(g.numpy(), [[0.0, 1.0606601238250732, 0.5303301215171814]],
                               rtol=1e-6)
    assert K.int_shape(K.batch_flatten(tf.zeros((2, 3, 4)))) == (2, 12)
