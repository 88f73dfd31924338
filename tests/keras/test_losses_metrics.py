"""tf.keras losses and metrics: values recorded from TensorFlow 2.21 (Keras 3)
on fixed inputs, the same eagerly and inside tf.function, reductions,
sample weights, and the metrics' update/result/reset cycle."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.losses
LABELS = np.array([2, 0, 1])
PROBS = np.array([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6]], np.float32)
LOGITS = np.array([[1.0, -2.0, 0.5], [0.3, 0.3, 3.0], [-1.0, 2.0, 0.0]], np.float32)
ONE_HOT = np.eye(3, dtype=np.float32)[LABELS]
B_TRUE = np.array([[1., 0.], [0., 1.], [1., 1.]], np.float32)
B_PRED = np.array([[0.9, 0.2], [0.3, 0.99], [1.0, 0.0]], np.float32)

# (loss object, y_true, y_pred, TensorFlow 2.21's value)
CASES = [
    (L.SparseCategoricalCrossentropy(), LABELS, PROBS, 0.8864200115203857),
    (L.SparseCategoricalCrossentropy(from_logits=True), LABELS, LOGITS, 1.3335188627243042),
    (L.CategoricalCrossentropy(), ONE_HOT, PROBS, 0.8864200115203857),
    (L.CategoricalCrossentropy(from_logits=True), ONE_HOT, LOGITS, 1.3335188627243042),
    (L.CategoricalCrossentropy(label_smoothing=0.1), ONE_HOT, PROBS, 0.9256108403205872),
    (L.BinaryCrossentropy(), B_TRUE, B_PRED, 2.802220582962036),
    (L.BinaryCrossentropy(from_logits=True), B_TRUE, LOGITS[:, :2], 0.5481816530227661),
    (L.BinaryCrossentropy(), np.array([1., 0.]), np.array([[0.8], [0.1]], np.float32),
     0.16425204277038574),
    (L.MeanSquaredError(), B_TRUE, B_PRED, 0.19001667201519012),
    (L.MeanSquaredError(reduction="sum"), B_TRUE, B_PRED, 0.5700500011444092),
]


@pytest.mark.parametrize("loss,y_true,y_pred,want", CASES,
                         ids=[f"{type(c[0]).__name__}-{i}" for i, c in enumerate(CASES)])
def test_loss_values_match_tensorflow_eager_and_in_graph(loss, y_true, y_pred, want):
    eager = loss(y_true, y_pred)
    assert eager.dtype == tf.float32 and eager.shape == ()
    np.testing.assert_allclose(eager.numpy(), want, rtol=1e-6)
    graph = tf.function(lambda t, p: loss(t, p))(tf.constant(y_true), tf.constant(y_pred))
    np.testing.assert_allclose(graph.numpy(), want, rtol=1e-6)


def test_reduction_none_sample_weight_and_names():
    np.testing.assert_allclose(L.MeanSquaredError(reduction="none")(B_TRUE, B_PRED).numpy(),
                               [0.025, 0.04505, 0.5], rtol=1e-6)
    weighted = L.SparseCategoricalCrossentropy()(LABELS, PROBS,
                                                 sample_weight=np.array([1., 0., 2.]))
    np.testing.assert_allclose(weighted.numpy(), 1.1918503046035767, rtol=1e-6)
    # Keras 3 (TF 2.21): a function's name gives the per-sample function, a class
    # name an instance
    assert L.get("sparse_categorical_crossentropy") is L.sparse_categorical_crossentropy
    assert L.get("mse") is L.mean_squared_error
    assert isinstance(L.get("MeanSquaredError"), L.MeanSquaredError)
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        L.MeanSquaredError(reduction="avg")
    with pytest.raises(ValueError, match="Could not interpret loss identifier: nope"):
        L.get("nope")


def test_mean_and_accuracy_metrics_update_result_reset():
    m = tf.keras.metrics.Mean()
    assert m.name == "mean" and float(m.result()) == 0.0
    m.update_state([1., 2.], sample_weight=[1., 3.])
    assert float(m.result()) == 1.75
    m.update_state(5.0)
    np.testing.assert_allclose(float(m.result()), 12 / 5)
    m.reset_state()
    assert float(m.result()) == 0.0
    acc = tf.keras.metrics.SparseCategoricalAccuracy()
    assert acc.name == "sparse_categorical_accuracy"
    acc.update_state(LABELS, PROBS)
    np.testing.assert_allclose(float(acc.result()), 2 / 3, rtol=1e-6)
    acc.update_state(LABELS[:, None], PROBS)
    np.testing.assert_allclose(float(acc.result()), 2 / 3, rtol=1e-6)
    assert acc.result().dtype == tf.float32


def test_metric_updates_inside_a_traced_function_accumulate_per_run():
    acc = tf.keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def step(y, p):
        acc.update_state(y, p)
        return acc.result()
    step(tf.constant(LABELS), tf.constant(PROBS))
    out = step(tf.constant(np.zeros(3, LABELS.dtype)), tf.constant(PROBS))
    np.testing.assert_allclose(float(out), 3 / 6, rtol=1e-6)
    assert step.experimental_get_tracing_count() == 1


def test_tf_keras_short_metric_names_are_the_loss_functions():
    # tf.keras (TF 2.21) has the losses' short names in tf.keras.metrics too, the same
    # functions; values recorded from TF 2.21
    m, losses = tf.keras.metrics, tf.keras.losses
    y = np.array([[0.0, 1.0], [0.5, 0.5]], np.float32)
    p = np.array([[0.2, 0.8], [0.6, 0.4]], np.float32)
    np.testing.assert_allclose(m.logcosh(y, p).numpy(), [0.01986808, 0.00499168], rtol=1e-6)
    np.testing.assert_allclose(m.kld(y, p).numpy(), [0.2231421, 0.02041098], rtol=1e-6)
    pairs = {"mse": "MSE", "mae": "MAE", "mape": "MAPE", "msle": "MSLE", "kld": "KLD"}
    for short, upper in pairs.items():
        assert getattr(m, short) is getattr(m, upper) is getattr(losses, short)
    assert m.kullback_leibler_divergence is m.kl_divergence and m.logcosh is m.log_cosh
