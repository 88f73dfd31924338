"""Learning-rate schedules: values against numpy formulas (eager and inside a
graph), use as an optimizer's learning_rate (the rate read from `iterations`
inside one traced step, never retraced), and Keras's errors."""

import math
import re

import numpy as np
import pytest

import runtime as tf

schedules = tf.keras.optimizers.schedules
STEPS = [0, 1, 5, 6, 10, 15, 25, 30]


def cosine(step, lr0, decay_steps, alpha=0.0):
    s = min(step, decay_steps)
    return lr0 * ((1 - alpha) * 0.5 * (1 + math.cos(math.pi * s / decay_steps)) + alpha)


def warm_cosine(step, lr0, decay_steps, target, warmup):
    step = min(step, decay_steps + warmup)
    if step < warmup:
        return (target - lr0) * step / warmup + lr0
    return cosine(step - warmup, target, decay_steps)


CASES = [
    (schedules.ExponentialDecay(0.1, 10, 0.5), lambda t: 0.1 * 0.5 ** (t / 10)),
    (schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True),
     lambda t: 0.1 * 0.5 ** (t // 10)),
    (schedules.InverseTimeDecay(0.1, 10, 0.5), lambda t: 0.1 / (1 + 0.5 * t / 10)),
    (schedules.InverseTimeDecay(0.1, 10, 0.5, staircase=True),
     lambda t: 0.1 / (1 + 0.5 * (t // 10))),
    (schedules.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]),
     lambda t: 1.0 if t <= 5 else 0.5 if t <= 10 else 0.1),
    (schedules.CosineDecay(0.1, 20, alpha=0.1), lambda t: cosine(t, 0.1, 20, 0.1)),
    (schedules.CosineDecay(0.0, 20, warmup_target=0.2, warmup_steps=5),
     lambda t: warm_cosine(t, 0.0, 20, 0.2, 5)),
]


@pytest.mark.parametrize("schedule,expected", CASES, ids=lambda c: type(c).__name__)
def test_schedule_values_eager_and_in_a_graph(schedule, expected):
    graph = tf.function(lambda step: schedule(step))
    for t in STEPS:
        value = schedule(t)
        assert value.dtype == tf.float32
        np.testing.assert_allclose(float(value), expected(t), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(float(graph(tf.constant(t, tf.int64))), expected(t),
                                   rtol=1e-5, atol=1e-7)
    assert graph.experimental_get_tracing_count() == 1


def test_training_step_reads_the_rate_from_iterations_and_traces_once():
    schedule = schedules.PiecewiseConstantDecay([1, 3], [1.0, 0.5, 0.25])
    opt = tf.keras.optimizers.SGD(learning_rate=schedule)
    w = tf.Variable([1.0, -2.0])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w) / 2.0          # gradient: w
        opt.apply_gradients([(tape.gradient(loss, w), w)])

    expected = np.array([1.0, -2.0])
    for t in range(6):
        np.testing.assert_allclose(float(opt.learning_rate), schedule(t).numpy())
        step()
        lr = 1.0 if t <= 1 else 0.5 if t <= 3 else 0.25
        expected = expected - lr * expected
        np.testing.assert_allclose(w.numpy(), expected, rtol=1e-6)
    assert step.experimental_get_tracing_count() == 1
    assert int(opt.iterations) == 6
    # Keras 3.15 names an unnamed SGD "sgd", then "sgd_1", ... (one counter per process)
    assert re.fullmatch(r"sgd(_\d+)?", opt.name)
    assert [(v.name, v.path) for v in opt.variables] == [("iteration", f"{opt.name}/iteration")]


def test_fit_with_a_schedule_traces_the_train_step_once():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [2.0], [-1.0]], np.float32)
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.Adam(schedules.ExponentialDecay(0.1, 4, 0.9)), "mse")
    history = model.fit(x, y, batch_size=16, epochs=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    np.testing.assert_allclose(float(model.optimizer.learning_rate), 0.1 * 0.9 ** 4,
                               rtol=1e-6)
    train = [f for (k, _), f in model._keras_state.functions.items() if k == "train"]
    assert train[0].experimental_get_tracing_count() == 1


def test_schedule_errors_match_keras():
    with pytest.raises(ValueError, match=r"The length of boundaries should be 1 less than the "
                                         r"length of values. Received: boundaries=\[5, 10\] "
                                         r"of length 2, and values=\[1.0, 0.5\] of length 2."):
        schedules.PiecewiseConstantDecay([5, 10], [1.0, 0.5])
    with pytest.raises(ValueError, match=r"Argument `decay_steps` must be > 0. Received: "
                                         r"decay_steps=0"):
        schedules.ExponentialDecay(0.1, 0, 0.5)
    opt = tf.keras.optimizers.SGD(schedules.ExponentialDecay(0.1, 10, 0.5))
    with pytest.raises(TypeError, match="This optimizer was created with a "
                                        "`LearningRateSchedule` object"):
        opt.learning_rate = 0.3
    assert schedules.ExponentialDecay(0.1, 10, 0.5).get_config() == {
        "initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5,
        "staircase": False, "name": "ExponentialDecay"}

    class Custom(schedules.LearningRateSchedule):
        pass
    with pytest.raises(NotImplementedError, match="must override `__call__"):
        tf.keras.optimizers.SGD(Custom()).apply_gradients([(tf.constant(1.0),
                                                            tf.Variable(1.0))])
