"""tf.keras optimizers with hand-given gradients: three steps of each update
rule against values recorded from TensorFlow 2.21 (Keras 3), the same inside
tf.function, slots created once, `iterations`, None gradients skipped."""

import numpy as np
import pytest

import runtime as tf

O = tf.keras.optimizers
GRAD = np.array([0.5, -1.0], np.float32)

# (optimizer factory, variable after 3 steps with gradients GRAD * 1, 2, 3)
CASES = [
    (lambda: O.SGD(0.1), [0.6999999284744263, 2.5999999046325684]),
    (lambda: O.SGD(0.1, momentum=0.9), [0.5245000123977661, 2.9509997367858887]),
    (lambda: O.SGD(0.1, momentum=0.9, nesterov=True), [0.27204999327659607, 3.455899953842163]),
    (lambda: O.Adam(0.1), [0.7076846957206726, 2.292315721511841]),
    (lambda: O.Adam(0.1, amsgrad=True), [0.7076846957206726, 2.292315721511841]),
    (lambda: O.RMSprop(0.1), [0.13899484276771545, 2.861006021499634]),
    (lambda: O.RMSprop(0.1, momentum=0.5, centered=True), [-0.3503475487232208, 3.350348949432373]),
]


@pytest.mark.parametrize("make,want", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_three_steps_match_tensorflow_eager_and_in_graph(make, want):
    for staged in (False, True):
        opt = make()
        v = tf.Variable([1.0, 2.0])

        def step(g):
            opt.apply_gradients([(g, v)])
        run = tf.function(step) if staged else step
        for i in range(3):
            run(tf.constant(GRAD * (i + 1)))
        np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)
        assert int(opt.iterations) == 3 and opt.iterations.dtype == tf.int64
        if staged:
            assert run.experimental_get_tracing_count() == 1


def test_slots_are_created_once_so_later_traces_create_no_variables():
    opt = O.Adam(0.01)
    w = tf.Variable(tf.ones([3]))

    @tf.function
    def step(g):
        opt.apply_gradients(zip([g], [w]))
    step(tf.ones([3]))
    n = len(opt.variables)
    step(tf.ones([3], dtype=tf.float32) * 2)
    step(tf.constant([1.0, 2.0, 3.0]))
    assert len(opt.variables) == n == 4     # iterations, learning_rate, m, v
    step(tf.constant(np.ones(3, np.float64)))   # a new dtype retraces; no new Variable
    assert step.experimental_get_tracing_count() == 2
    assert len(opt.variables) == n


def test_none_gradients_are_skipped_and_learning_rate_is_a_variable():
    opt = O.SGD(0.5)
    a, b = tf.Variable(1.0, name="a"), tf.Variable(1.0)
    # Keras 3.15's warning for a missing gradient, and its error for none at all
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['a:0'\] "
                      "when minimizing the loss. If using `model.compile\\(\\)`, did you "
                      "forget to provide a `loss` argument\\?"):
        opt.apply_gradients([(None, a), (tf.constant(1.0), b)])
    assert float(a.numpy()) == 1.0 and float(b.numpy()) == 0.5
    with pytest.raises(ValueError, match=r"^No gradients provided for any variable\.$"):
        opt.apply_gradients([(None, a)])
    opt.learning_rate = 0.25
    opt.apply_gradients([(tf.constant(1.0), b)])
    assert float(b.numpy()) == 0.25
    with pytest.raises(ValueError, match="`momentum` must be a float between"):
        O.SGD(momentum=2.0)
    with pytest.raises(TypeError, match="expected \\(gradient, tf.Variable\\) pairs"):
        opt.apply_gradients([(tf.constant(1.0), tf.constant(1.0))])
    assert isinstance(O.get("adam"), O.Adam) and isinstance(O.get("RMSprop"), O.RMSprop)


def test_apply_is_apply_gradients_with_separate_lists():
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([1.0, 2.0])
    tf.keras.optimizers.SGD(0.5).apply([tf.constant([1.0, 1.0])], [a])
    tf.keras.optimizers.SGD(0.5).apply_gradients([(tf.constant([1.0, 1.0]), b)])
    np.testing.assert_allclose(a.numpy(), [0.5, 1.5])
    np.testing.assert_allclose(a.numpy(), b.numpy())


# Keras 3.15's names (recorded): an unnamed optimizer takes its class name in snake
# case, numbered from its second instance on, and prefixes its variables' paths with it
NAMES = {"SGD": ["sgd", "sgd_1"], "Adam": ["adam", "adam_1"], "AdamW": ["adam_w", "adam_w_1"],
         "RMSprop": ["rm_sprop", "rm_sprop_1"], "Adagrad": ["adagrad", "adagrad_1"],
         "Adadelta": ["adadelta", "adadelta_1"], "Adamax": ["adamax", "adamax_1"],
         "Ftrl": ["ftrl", "ftrl_1"], "Lion": ["lion", "lion_1"], "Nadam": ["nadam", "nadam_1"],
         "Lamb": ["lamb", "lamb_1"], "Adafactor": ["adafactor", "adafactor_1"]}


def test_unnamed_optimizers_are_named_as_keras():
    tf.keras.backend.clear_session()
    assert {n: [getattr(O, n)().name, getattr(O, n)().name] for n in NAMES} == NAMES
    opt, v = O.Adam(), tf.keras.Variable([1.0, 2.0], name="w")
    opt.build([v])
    assert [x.path for x in opt.variables] == ["adam_2/iteration", "adam_2/learning_rate",
                                               "adam_2/w_momentum", "adam_2/w_velocity"]
    assert opt.get_config()["name"] == "adam_2" and O.SGD(name="x").name == "x"
