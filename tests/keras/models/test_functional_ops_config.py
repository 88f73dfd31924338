"""A functional model that calls `keras.ops` and Python operators on its
tensors (x[:, 0, ...], *, +, >, unary -, reshape, concatenate, expand_dims,
mean, softmax, where, take with a numpy index, sum) against Keras 3.15 on TF
2.21 (tests/data/keras_functional_ops.json, recorded by
tools/record_keras_functional_ops.py): its config lists each call as Keras's
op class, the same JSON as Keras's; the model rebuilt from Keras's config
computes Keras's outputs; and a .keras file of it round-trips (Keras 3
loads ours: checked by hand, the same outputs)."""

import json

import numpy as np
import pytest

import runtime as tf
from tools.record_keras_functional_ops import OUT, build, inputs

RECORD = json.loads(OUT.read_text())


def test_the_config_is_keras_3s():
    tf.keras.backend.clear_session()        # names as a fresh process gives them (Keras's)
    assert json.loads(json.dumps(build(tf.keras).get_config())) == RECORD["config"]


def test_the_model_from_keras_3s_config_computes_its_outputs(tmp_path):
    model = tf.keras.Model.from_config(RECORD["config"])
    np.testing.assert_allclose(model(inputs()), RECORD["outputs"], rtol=1e-6, atol=1e-6)
    assert json.loads(json.dumps(model.get_config())) == RECORD["config"]
    model.save(str(tmp_path / "ops.keras"))
    again = tf.keras.models.load_model(str(tmp_path / "ops.keras"))
    np.testing.assert_allclose(again(inputs()), RECORD["outputs"], rtol=1e-6, atol=1e-6)


def test_a_saved_argument_our_op_does_not_take_is_an_error_naming_it():
    from runtime._src.keras.saving import op_config

    with pytest.raises(ValueError, match=r"The op 'e' \(ExpandDims\) has upper=True, which "
                                         r"keras.ops here does not take"):
        op_config.op_caller({"class_name": "ExpandDims",
                             "config": {"name": "e", "axis": 0, "upper": True}})
