"""`tf.keras.constraints`: values recorded from TF 2.21's Keras 3 for the
same weights, eagerly and inside tf.function; a constrained Dense after a
fit step; names, configs and serialization as Keras writes them."""

import numpy as np
import pytest

import runtime as tf

C = tf.keras.constraints
W = np.array([[3.0, -0.5], [4.0, 0.2], [-1.0, 0.1]], np.float32)

CASES = [
    ("maxnorm", C.MaxNorm(2.0), {"max_value": 2.0, "axis": 0},
     [[1.17669677734375, -0.49999988079071045], [1.5689290761947632, 0.19999995827674866],
      [-0.3922322690486908, 0.09999997913837433]]),
    ("maxnorm_axis1", C.MaxNorm(1.0, axis=1), {"max_value": 1.0, "axis": 1},
     [[0.986393928527832, -0.16439898312091827], [0.9987523555755615, 0.049937617033720016],
      [-0.9950370192527771, 0.09950370341539383]]),
    ("nonneg", C.NonNeg(), {}, [[3.0, 0.0], [4.0, 0.20000000298023224],
                                [0.0, 0.10000000149011612]]),
    ("unitnorm", C.UnitNorm(), {"axis": 0},
     [[0.588348388671875, -0.9128708243370056], [0.7844645380973816, 0.3651483356952667],
      [-0.1961161345243454, 0.18257416784763336]]),
    ("minmaxnorm", C.MinMaxNorm(0.5, 1.5, rate=0.7),
     {"min_value": 0.5, "max_value": 1.5, "rate": 0.7, "axis": 0},
     [[1.517765760421753, -0.49999988079071045], [2.0236876010894775, 0.19999995827674866],
      [-0.5059219002723694, 0.09999997913837433]]),
    ("get_min_max_norm", C.get("min_max_norm"),
     {"min_value": 0.0, "max_value": 1.0, "rate": 1.0, "axis": 0},
     [[0.588348388671875, -0.49999988079071045], [0.7844645380973816, 0.19999995827674866],
      [-0.1961161345243454, 0.09999997913837433]]),
]


@pytest.mark.parametrize("name, constraint, config, want", CASES, ids=[c[0] for c in CASES])
def test_constraints_give_keras_values(name, constraint, config, want):
    assert constraint.get_config() == config
    for run in (constraint, tf.function(constraint)):
        got = run(tf.constant(W)).numpy()
        assert got.tolist() == want
        assert not np.signbit(got[got == 0]).any()         # NonNeg gives +0.0, as Keras


def test_a_constrained_dense_is_projected_after_each_step_and_serialized():
    dense = tf.keras.layers.Dense(2, kernel_constraint="max_norm",
                                  kernel_initializer=tf.keras.initializers.Constant(3.0))
    model = tf.keras.Sequential([tf.keras.Input((3,)), dense])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    model.fit(np.ones((4, 3), "float32"), np.zeros((4, 2), "float32"), epochs=1,
              batch_size=4, verbose=0)
    np.testing.assert_allclose(dense.kernel.numpy(), np.full((3, 2), 1.1547000408172607),
                               rtol=1e-6)                                      # TF 2.21
    assert type(dense.kernel_constraint).__name__ == "MaxNorm"
    assert dense.get_config()["kernel_constraint"] == {
        "module": "keras.constraints", "class_name": "MaxNorm",
        "config": {"max_value": 2, "axis": 0}, "registered_name": None}
    assert C.serialize(C.MaxNorm(3.0))["config"] == {"max_value": 3.0, "axis": 0}
    assert isinstance(C.deserialize(C.serialize(C.UnitNorm(1))), C.UnitNorm)


def test_an_unknown_name_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="Could not interpret constraint identifier: 'maxx'"):
        C.get("maxx")
