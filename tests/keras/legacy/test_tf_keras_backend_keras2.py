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


@pytest.mark.parametrize("draw,low,high", [
    (lambda s: K.random_uniform((400,), -2.0, 3.0, seed=s), -2.0, 3.0),
    (lambda s: K.truncated_normal((400,), 1.0, 0.5, seed=s), 0.0, 2.0),
    (lambda s: K.random_bernoulli((400,), p=0.3, seed=s), 0.0, 1.0),
    (lambda s: K.random_normal((400,), 5.0, 0.1, seed=s), 4.0, 6.0),
])
def test_random_draws_bounds_and_dtypes(draw, low, high):
    """Keras 2 draws from TF's stream: the values differ, the ranges hold."""
    values = draw(3).numpy()
    assert values.dtype == np.float32 and values.shape == (400,)
    assert low <= values.min() and values.max() <= high and len(np.unique(values)) >= 2


def test_random_variables_dropout_and_loops():
    v = K.random_uniform_variable((3, 2), 0.0, 1.0, seed=1)
    assert isinstance(v, tf.Variable) and K.int_shape(v) == (3, 2)
    assert 0.0 <= K.get_value(v).min() and K.get_value(v).max() < 1.0
    n = K.random_normal_variable((2,), 0.0, 1.0, dtype="float64")
    assert K.dtype(n) == "float64"
    kept = K.dropout(tf.ones((1000,)), 0.5, seed=2).numpy()
    assert set(np.unique(kept)) <= {0.0, 2.0} and 300 < np.count_nonzero(kept) < 700
    f = tf.function(lambda x: K.foldl(lambda acc, e: acc + e * e, x))
    assert float(f(tf.constant([1.0, 2.0, 3.0]))) == 14.0


def test_gradients_inside_tf_function():
    """tf.keras.backend.gradients is tf.gradients: symbolic, so inside tf.function."""
    x = tf.constant([1.0, 2.0, 3.0])
    f = tf.function(lambda v: K.gradients(K.sum(K.square(v)), [v])[0])
    np.testing.assert_allclose(f(x).numpy(), [2.0, 4.0, 6.0])
