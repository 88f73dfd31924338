"""CategoricalHinge and MeanIoU. Expected values come from TF 2.21's Keras 3
for the same inputs."""

import numpy as np
import pytest

import runtime as tf

YT = np.array([[0, 1, 0], [1, 0, 0]], "float32")
YP = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3]], "float32")


@pytest.mark.parametrize("traced", [False, True])
def test_categorical_hinge(traced):
    loss = tf.keras.losses.CategoricalHinge()
    run = tf.function(loss) if traced else loss
    np.testing.assert_allclose(float(run(tf.constant(YT), tf.constant(YP))), 1.2999999523162842)
    np.testing.assert_allclose(float(loss(YT, YP, sample_weight=[1.0, 3.0])), 2.5999999046325684)
    np.testing.assert_allclose(tf.keras.losses.categorical_hinge(YT, YP).numpy(),
                               [1.2999999523162842, 1.2999999523162842])
    assert loss.get_config() == {"name": "categorical_hinge",
                                 "reduction": "sum_over_batch_size"}
    assert tf.keras.losses.get("categorical_hinge") is tf.keras.losses.categorical_hinge
    assert type(tf.keras.losses.get("CategoricalHinge")) is tf.keras.losses.CategoricalHinge


def test_categorical_hinge_gradient():
    y_pred = tf.Variable(YP)
    with tf.GradientTape() as tape:
        value = tf.keras.losses.CategoricalHinge()(YT, y_pred)
    np.testing.assert_allclose(tape.gradient(value, y_pred).numpy(),
                               [[0.5, -0.5, 0.0], [-0.5, 0.5, 0.0]])        # TF 2.21


def test_mean_iou_accumulates_a_confusion_matrix():
    m = tf.keras.metrics.MeanIoU(num_classes=3)
    m.update_state([0, 1, 2, 2, 1], [0, 2, 2, 1, 1])
    np.testing.assert_allclose(float(m.result()), 0.555555522441864)
    # fractional weights are truncated by the int64 matrix, as in Keras 3
    m.update_state([[0, 0], [1, 2]], [[1, 0], [1, 2]], sample_weight=[[0.5, 1.0], [2.0, 1.0]])
    np.testing.assert_allclose(float(m.result()), 0.699999988079071)
    assert m.variables[0].numpy().tolist() == [[2, 0, 0], [0, 3, 1], [0, 1, 2]]
    assert m.get_config() == {"num_classes": 3, "name": "mean_io_u", "dtype": "int64",
                              "ignore_class": None, "sparse_y_true": True,
                              "sparse_y_pred": True, "axis": -1}
    m.reset_state()
    assert m.variables[0].numpy().sum() == 0


def test_mean_iou_absent_classes_ignore_class_and_dense_predictions():
    m = tf.keras.metrics.MeanIoU(num_classes=2)
    m.update_state([0, 0], [0, 0])
    np.testing.assert_allclose(float(m.result()), 0.9999998807907104)
    m = tf.keras.metrics.MeanIoU(num_classes=3, ignore_class=0, sparse_y_pred=False)
    m.update_state([0, 1, 2], [[0.9, 0.1, 0], [0.2, 0.7, 0.1], [0.1, 0.8, 0.1]])
    np.testing.assert_allclose(float(m.result()), 0.25)


def test_mean_iou_inside_tf_function_and_compile():
    m = tf.keras.metrics.MeanIoU(num_classes=3)
    step = tf.function(lambda t, p: m.update_state(t, p))
    step(tf.constant([0, 1, 2, 2, 1]), tf.constant([0, 2, 2, 1, 1]))
    np.testing.assert_allclose(float(m.result()), 0.555555522441864)
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=[tf.keras.metrics.MeanIoU(num_classes=2)])
    logs = model.evaluate(np.zeros((4, 2), "float32"), np.zeros((4, 1), "float32"),
                          verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["mean_io_u"], 0.9999998807907104)
