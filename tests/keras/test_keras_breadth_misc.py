"""keras.preprocessing.sequence.pad_sequences, optimizers.schedules
(CosineDecayRestarts, serialize/deserialize) and regularizers
(OrthogonalRegularizer) against Keras 3.15's values, recorded by
tools/record_keras_misc.py into tests/data/keras_misc.json."""

import json
import pathlib
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_misc import PAD_CASES, pad_outcome, schedules_and_regularizers  # noqa: E402

keras = tf.keras
REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_misc.json")
                 .read_text())
# Keras fails inside numpy on these ("zero-size array to reduction operation",
# "could not broadcast"); ours returns the empty padding
_OURS = {"P([])": [[], "int32"], "P([[1], [2, 3]], maxlen=0)": [[[], []], "int32"]}


@pytest.mark.parametrize("case", PAD_CASES)
def test_pad_sequences_as_keras(case):
    got = pad_outcome(keras.preprocessing.sequence.pad_sequences, case)
    assert got == _OURS.get(case, REC["pad_sequences"][case])


def test_schedules_and_regularizers_as_keras():
    got, rec = schedules_and_regularizers(keras), REC["schedules_regularizers"]
    assert got.keys() == rec.keys()
    for key in rec:
        if key.startswith("dict(") or key == "orthogonal":
            np.testing.assert_allclose(got[key], rec[key], rtol=1e-6, atol=1e-8)
        else:
            assert got[key] == rec[key], key


def test_cosine_decay_restarts_in_a_traced_step():
    schedule = keras.optimizers.schedules.CosineDecayRestarts(0.1, 4, t_mul=1.5, m_mul=0.5,
                                                              alpha=0.1)
    rates = tf.function(lambda step: schedule(step))
    expected = REC["schedules_regularizers"]["dict(t_mul=1.5, m_mul=0.5, alpha=0.1)"]
    np.testing.assert_allclose([float(rates(tf.constant(i))) for i in (0, 5, 100)],
                               [expected[0], expected[5], expected[12]], rtol=1e-6)


def test_orthogonal_regularizer_on_a_dense_kernel_has_a_gradient():
    reg = keras.regularizers.get("orthogonal_regularizer")
    assert isinstance(reg, keras.regularizers.OrthogonalRegularizer)
    assert reg.factor == float(np.float32(0.01))       # float32, as Keras keeps it
    w = tf.Variable(np.array([[1.0, 2.0], [0.5, -1.0], [0.3, 0.3]], "float32"))
    with tf.GradientTape() as tape:
        penalty = keras.regularizers.OrthogonalRegularizer(1.0, "columns")(w)
    grad = tape.gradient(penalty, w).numpy()
    assert np.isfinite(grad).all() and np.abs(grad).sum() > 0
    layer = keras.layers.Dense(2, kernel_regularizer=keras.regularizers.OrthogonalRegularizer())
    layer(np.ones((1, 3), "float32"))
    assert len(layer.losses) == 1
