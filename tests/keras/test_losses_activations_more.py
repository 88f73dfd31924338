"""Keras 3.15's newer losses (Dice, Tversky, CategoricalGeneralizedCrossEntropy,
Circle) and activations (celu, glu, hard_shrink, ..., threshold) against the
values and gradients recorded from TensorFlow 2.21 / Keras 3.15
(tests/data/keras_losses_activations_more.json, by
tools/record_keras_losses_more.py from loss_cases_more.py); the initializers
Keras 3 names in lower case; serialize/deserialize."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from tests.keras import loss_cases_more as cases

with open(os.path.join(os.path.dirname(__file__), "..", "data",
                       "keras_losses_activations_more.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", list(cases.LOSSES))
def test_loss_matches_keras(name):
    np.testing.assert_allclose(cases.loss_value(tf.keras, name), RECORDED["losses"][name],
                               rtol=2e-5)


@pytest.mark.parametrize("name", ["dice", "tversky_axis_sum", "gce", "circle", "ctc_mean"])
def test_loss_inside_tf_function_with_gradient(name):
    cls, kwargs, y_true, y_pred, weight = cases.LOSSES[name]
    loss = getattr(tf.keras.losses, cls)(**kwargs)

    @tf.function
    def value_and_grad(y_pred):
        with tf.GradientTape() as tape:
            tape.watch(y_pred)
            value = loss(y_true, y_pred, sample_weight=weight)
        return value, tape.gradient(value, y_pred)
    value, grad = value_and_grad(tf.constant(y_pred))
    np.testing.assert_allclose(value, RECORDED["losses"][name], rtol=2e-5)
    assert grad.shape == y_pred.shape and np.isfinite(grad.numpy()).all()


def test_ctc_gradient_matches_keras():
    np.testing.assert_allclose(cases.ctc_gradient(tf.keras, tf), RECORDED["ctc_gradient"],
                               rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", list(cases.ACTIVATIONS))
def test_activation_and_gradient_match_keras(name):
    y, g = cases.activation_value_and_grad(tf.keras, tf, name)
    want = RECORDED["activations"][name]
    np.testing.assert_allclose(y, want["value"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g, want["grad"], rtol=1e-5, atol=1e-6)


def test_activations_by_name_and_in_layers():
    A = tf.keras.activations
    assert A.get("celu") is A.celu and A.serialize(A.sparse_plus) == "sparse_plus"
    layer = tf.keras.layers.Dense(2, activation="hard_tanh", kernel_initializer="identity")
    np.testing.assert_allclose(layer(np.array([[3.0, -0.5]], "float32")), [[1.0, -0.5]])
    assert layer.get_config()["activation"] == "hard_tanh"


def test_initializer_names_and_identity():
    I = tf.keras.initializers
    assert I.glorot_uniform is I.GlorotUniform and I.OrthogonalInitializer is I.Orthogonal
    assert I.IdentityInitializer is I.Identity is I.identity
    np.testing.assert_array_equal(I.Identity(gain=2.0)((2, 3)), [[2, 0, 0], [0, 2, 0]])
    assert I.serialize(I.Identity()) == {"module": "keras.initializers",
                                         "class_name": "Identity", "config": {},
                                         "registered_name": None}
    again = I.deserialize(I.serialize(I.he_normal(seed=4)))
    assert type(again) is I.HeNormal and again.seed == 4
    assert type(I.deserialize("identity")) is I.Identity
    with pytest.raises(ValueError, match="2D"):
        I.Identity()((2, 2, 2))


def test_loss_configs_and_serialization():
    L = tf.keras.losses
    assert L.Tversky().get_config() == {"name": "tversky", "reduction": "sum_over_batch_size",
                                        "alpha": 0.5, "beta": 0.5, "axis": None}
    assert L.Circle().get_config() == {"name": "circle", "reduction": "sum_over_batch_size",
                                       "gamma": 80.0, "margin": 0.4, "remove_diagonal": True}
    again = L.deserialize(L.serialize(L.CategoricalGeneralizedCrossEntropy(q=0.3)))
    assert type(again) is L.CategoricalGeneralizedCrossEntropy and again.q == 0.3
    assert L.get("dice") is L.dice and L.deserialize("tversky") is L.tversky
    with pytest.raises(ValueError, match="q must be"):
        L.CategoricalGeneralizedCrossEntropy(q=1.5)
