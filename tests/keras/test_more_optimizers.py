"""More of Keras 3's optimizers and schedules, checked against Keras 3: each optimizer
applies three gradients to one weight, eagerly and in a traced step; the
expected weights were recorded from TensorFlow 2.21 with Keras 3 (same
initial weight and gradients; Keras's `apply_gradients`)."""

import numpy as np
import pytest

import runtime as tf

OPT = tf.keras.optimizers
S = OPT.schedules
W0 = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
GRADS = [np.array([[0.1, -0.3], [0.7, 0.0]], np.float32) * (i + 1) for i in range(3)]

CASES = {
 "AdamW": lambda: OPT.AdamW(0.1), "Adagrad": lambda: OPT.Adagrad(0.1),
 "Adadelta": lambda: OPT.Adadelta(1.0), "Adamax": lambda: OPT.Adamax(0.1),
 "Nadam": lambda: OPT.Nadam(0.1),
 "Ftrl": lambda: OPT.Ftrl(0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02,
                       beta=0.1, l2_shrinkage_regularization_strength=0.01),
 "Lion": lambda: OPT.Lion(0.1), "Adam_amsgrad": lambda: OPT.Adam(0.1, amsgrad=True),
 "SGD_wd": lambda: OPT.SGD(0.1, momentum=0.9, weight_decay=0.05),
 "SGD_clipnorm": lambda: OPT.SGD(0.1, clipnorm=0.5),
 "SGD_clipvalue": lambda: OPT.SGD(0.1, clipvalue=0.25),
 "SGD_global": lambda: OPT.SGD(0.1, global_clipnorm=0.5),
 "RMSprop_centered": lambda: OPT.RMSprop(0.1, momentum=0.5, centered=True),
 "SGD_poly": lambda: OPT.SGD(S.PolynomialDecay(0.1, 2, 0.01, power=2.0)),
 "SGD_cosine_warm": lambda: OPT.SGD(S.CosineDecay(0.1, 4, alpha=0.1, warmup_target=0.2,
                                                warmup_steps=2)),
}

# Keras 3 (TF 2.21): the weight after the three steps
EXPECTED = {
    "AdamW": [[0.20720799267292023, -0.70660400390625], [1.7054040431976318, 0.24969999492168427]],
    "Adagrad": [[0.35697200894355774, -0.7730969786643982], [1.741595983505249, 0.25]],
    "Adadelta": [[0.49462398886680603, -0.9946240186691284], [1.9946240186691284, 0.25]],
    "Adamax": [[0.2546809911727905, -0.7546809911727905], [1.7546809911727905, 0.25]],
    "Nadam": [[0.2067680060863495, -0.7067679762840271], [1.7067680358886719, 0.25]],
    "Ftrl": [[-0.09628599882125854, -0.018188999965786934], [0.7896620035171509, 0.0]],
    "Lion": [[0.20000000298023224, -0.699999988079071], [1.7000000476837158, 0.25]],
    "Adam_amsgrad": [[0.20768900215625763, -0.7076849937438965], [1.70768404006958, 0.25]],
    "SGD_wd": [[0.3976820111274719, -0.7005090117454529], [1.30616295337677, 0.24626900255680084]],
    "SGD_clipnorm": [[0.48047199845314026, -0.941415011882782], [1.8633019924163818, 0.25]],
    "SGD_clipvalue": [[0.4449999928474426, -0.925000011920929], [1.9249999523162842, 0.25]],
    "SGD_global": [[0.48047199845314026, -0.941415011882782], [1.8633019924163818, 0.25]],
    "RMSprop_centered": [[-0.8503100275993347, 0.3503449857234955], [0.6496520042419434, 0.25]],
    "SGD_poly": [[0.4805000126361847, -0.9415000081062317], [1.8634999990463257, 0.25]],
    "SGD_cosine_warm": [[0.4000000059604645, -0.699999988079071], [1.2999999523162842, 0.25]],
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_optimizer_steps_match_keras(name, traced):
    opt, v = CASES[name](), tf.Variable(W0)

    def step(g):
        opt.apply_gradients([(g, v)])
    run = tf.function(step) if traced else step
    for g in GRADS:
        run(tf.constant(g))
    np.testing.assert_allclose(v.numpy(), EXPECTED[name], rtol=1e-5, atol=3e-6)


# Keras 3 (TF 2.21): [float(schedule(step)) for step in range(8)]
SCHEDULES = [
 (lambda: S.PolynomialDecay(0.1, 3, 0.01, power=0.5, cycle=True),
  [0.1, 0.0834847, 0.0619615, 0.01, 0.0619615, 0.0467423, 0.01, 0.0524264]),
 (lambda: S.PiecewiseConstantDecay([1, 3], [0.5, 0.2, 0.1]),
  [0.5, 0.5, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1]),
 (lambda: S.InverseTimeDecay(0.1, 2, 0.5, staircase=True),
  [0.1, 0.1, 0.0666667, 0.0666667, 0.05, 0.05, 0.04, 0.04]),
 (lambda: S.CosineDecay(0.1, 4, warmup_target=0.3, warmup_steps=3),
  [0.1, 0.1666667, 0.2333333, 0.3, 0.256066, 0.15, 0.043934, 0.0]),
]


@pytest.mark.parametrize("make, expected", SCHEDULES)
def test_schedules_match_keras(make, expected):
    schedule = make()
    np.testing.assert_allclose([float(schedule(s)) for s in range(8)], expected, atol=2e-7)
    clone = type(schedule).from_config(schedule.get_config())
    np.testing.assert_allclose([float(clone(s)) for s in range(8)], expected, atol=2e-7)


def test_optimizer_config_names_and_errors():
    config = OPT.Adam(0.1).get_config()
    # Keras 3 (TF 2.21): Adam(0.1).get_config(), less the name (Keras numbers it)
    assert {k: v for k, v in config.items() if k != "name"} == {
        "learning_rate": 0.10000000149011612, "weight_decay": None, "clipnorm": None,
        "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
        "ema_overwrite_frequency": None, "loss_scale_factor": None,
        "gradient_accumulation_steps": None, "beta_1": 0.9, "beta_2": 0.999,
        "epsilon": 1e-07, "amsgrad": False}
    for name in ("adamw", "adagrad", "adadelta", "adamax", "nadam", "ftrl", "lion"):
        assert type(OPT.get(name)).__name__.lower() == name
    clone = OPT.get(tf.keras.saving.serialize_keras_object(OPT.Nadam(0.5, clipnorm=1.0)))
    assert type(clone) is OPT.Nadam and clone.clipnorm == 1.0
    assert float(clone.learning_rate) == 0.5
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and "
                                         "`global_clipnorm` can be set"):
        OPT.SGD(clipnorm=1.0, clipvalue=1.0)
    v = tf.Variable(W0)
    opt = OPT.Adam(0.1)
    opt.apply_gradients([(tf.constant(GRADS[0]), v)])
    assert [w.name for w in opt.variables] == ["iteration", "learning_rate",
                                               "Variable_momentum", "Variable_velocity"]


def test_constraint_is_applied_after_the_update():
    layer = tf.keras.layers.Dense(2, kernel_constraint=lambda w: tf.clip_by_value(w, -0.1, 0.1))
    model = tf.keras.Sequential([tf.keras.Input((3,)), layer])
    model.compile(optimizer=OPT.SGD(1.0), loss="mse")
    model.fit(np.ones((4, 3), np.float32), np.full((4, 2), 5.0, np.float32), verbose=0)
    assert np.abs(layer.kernel.numpy()).max() <= 0.1 + 1e-7
