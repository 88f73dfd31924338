"""Adafactor, Lamb and LossScaleOptimizer against Keras 3.15: the weights after
each of three steps (a matrix and a vector weight; recorded from TensorFlow 2.21 /
Keras 3.15 into tests/data/keras_optimizers_more.json by
tools/record_keras_optimizers_more.py), eagerly and in a traced step; configs;
LossScaleOptimizer in Model.fit."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from tests.keras import optimizer_cases_more as cases

with open(os.path.join(os.path.dirname(__file__), "..", "data",
                       "keras_optimizers_more.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", list(cases.CASES))
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_trajectory_matches_keras(name, traced):
    got = cases.run(tf.keras, tf, name, tf.function if traced else None)
    for (w, b), (want_w, want_b) in zip(got, RECORDED["cases"][name]):
        np.testing.assert_allclose(w, want_w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b, want_b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_loss_scale_optimizer_matches_keras(traced):
    got = cases.run_loss_scale(tf.keras, tf, tf.function if traced else None)
    for (w, scale, counter, iterations), want in zip(got, RECORDED["loss_scale"]):
        np.testing.assert_allclose(w, want[0], rtol=1e-6)
        assert (scale, counter, iterations) == tuple(want[1:])


def test_configs():
    O = tf.keras.optimizers
    config = O.Adafactor().get_config()
    assert {k: config[k] for k in ("beta_2_decay", "epsilon_1", "epsilon_2",
                                   "clip_threshold", "relative_step")} == {
        "beta_2_decay": -0.8, "epsilon_1": 1e-30, "epsilon_2": 1e-3, "clip_threshold": 1.0,
        "relative_step": True}
    assert O.Lamb().name.startswith("lamb")
    lso = O.LossScaleOptimizer(O.Adam(0.01), initial_scale=4.0)
    config = lso.get_config()
    assert config["initial_scale"] == 4.0 and config["dynamic_growth_steps"] == 2000
    assert config["inner_optimizer"]["class_name"] == "Adam"
    again = O.deserialize(O.serialize(lso))
    assert type(again.inner_optimizer) is O.Adam and again.initial_scale == 4.0
    np.testing.assert_allclose(lso.scale_loss(tf.constant(1.5)), 6.0)
    muon = O.Muon(exclude_layers=["dense_.*bias"])
    assert muon.get_config()["rms_rate"] == 0.2 and muon.get_config()["ns_steps"] == 5
    model = tf.keras.Sequential([tf.keras.layers.Embedding(5, 3), tf.keras.layers.Dense(2)])
    model.build((None, 4))
    assert set(muon.build_slots(model.weights[0])) == {"momentum", "velocity"}  # embedding
    assert set(muon.build_slots(model.weights[1])) == {"momentum"}              # a matrix
    with pytest.raises(ValueError, match="clipnorm"):
        O.LossScaleOptimizer(O.SGD(), clipnorm=1.0)


def test_loss_scale_optimizer_in_fit_trains_like_its_inner_optimizer():
    x = np.linspace(-1, 1, 16).reshape(8, 2).astype("float32")
    y = (x @ np.array([[0.5], [-1.0]], "float32")).astype("float32")
    weights = []
    for opt in (tf.keras.optimizers.SGD(0.1),
                tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1))):
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=opt, loss="mse")
        model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
        weights.append(model.get_weights())
    for a, b in zip(*weights):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_multi_optimizer_gives_each_variable_its_optimizer():
    O = tf.keras.optimizers
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, name="encoder"),
                                 tf.keras.layers.Dense(1, name="head")])
    x = np.linspace(-1, 1, 12).reshape(6, 2).astype("float32")
    model(x)
    start = [w.numpy() for w in model.weights]
    grads = [np.full(w.shape, 0.5, "float32") for w in start]
    adam, sgd = O.Adam(0.1), O.SGD(0.1)
    multi = O.MultiOptimizer(O.OptimizerMap(sgd, {".*/encoder/.*": adam}))
    step = tf.function(lambda: multi.apply_gradients(zip(grads, model.weights)))
    step()
    step()
    lone_adam, lone_sgd = O.Adam(0.1), O.SGD(0.1)
    want = [tf.Variable(w) for w in start]
    for _ in range(2):
        lone_adam.apply_gradients(zip(grads[:2], want[:2]))
        lone_sgd.apply_gradients(zip(grads[2:], want[2:]))
    for got, expected in zip(model.weights, want):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
    assert int(multi.iterations.numpy()) == 2 and int(adam.iterations.numpy()) == 2
    assert multi.optimizers == [adam, sgd]
    with pytest.raises(AttributeError, match="sub-optimizers"):
        multi.learning_rate
    mapping = O.OptimizerMap(sgd, {"a/.*": adam, ".*/kernel": O.Adam()})
    with pytest.raises(ValueError, match="Multiple optimizers"):
        mapping["a/kernel"]
    assert mapping["b/bias"] is sgd and mapping["a/bias"] is adam
