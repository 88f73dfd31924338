"""`sample_weight` / `class_weight` in fit, evaluate and the `*_on_batch`
methods, `weighted_metrics`, and the loss reductions with weights, against
numpy and against figures read off Keras 3 (TF 2.21) on the same data.

Keras's reduction "sum_over_batch_size" is sum(weight * loss) / number of
losses (not / sum of weights); compiled `metrics` ignore sample weights,
`weighted_metrics` ("weighted_<name>") use them."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
layers = tf.keras.layers

RNG = np.random.RandomState(0)
X = RNG.randn(6, 3).astype(np.float32)
Y = RNG.randn(6, 2).astype(np.float32)
SW = np.array([1, 0, 2, 0.5, 1, 3], np.float32)
LABELS = np.array([0, 1, 2, 1, 0, 2])


def model(units, loss, lr=0.1, **compile_args):
    m = keras.Sequential([keras.Input((3,)), layers.Dense(units, kernel_initializer="ones")])
    m.compile(optimizer=keras.optimizers.SGD(lr), loss=loss, **compile_args)
    return m


def per_sample_mse(pred):
    return np.mean((pred - Y) ** 2, axis=-1)


@pytest.mark.parametrize("weights", [SW, SW[:, None]])
def test_loss_is_weighted_sum_over_batch_size(weights):
    value = keras.losses.MeanSquaredError()(Y, X[:, :2], sample_weight=weights)
    np.testing.assert_allclose(float(value), np.sum(per_sample_mse(X[:, :2]) * SW) / 6,
                               rtol=1e-6)


def test_loss_reductions_with_weights():
    mse = keras.losses.MeanSquaredError
    np.testing.assert_allclose(mse(reduction="none")(Y, X[:, :2], sample_weight=SW).numpy(),
                               per_sample_mse(X[:, :2]) * SW, rtol=1e-6)
    np.testing.assert_allclose(float(mse(reduction="sum")(Y, X[:, :2], sample_weight=SW)),
                               np.sum(per_sample_mse(X[:, :2]) * SW), rtol=1e-6)
    np.testing.assert_allclose(
        float(mse(reduction="mean_with_sample_weight")(Y, X[:, :2], sample_weight=SW)),
        np.sum(per_sample_mse(X[:, :2]) * SW) / SW.sum(), rtol=1e-6)     # Keras: 0.82129
    bce = keras.losses.BinaryCrossentropy()(np.array([[1.], [0.], [1.]]),
                                            np.array([[.9], [.2], [.6]]),
                                            sample_weight=np.array([1., 2., 0.]))
    np.testing.assert_allclose(float(bce), 0.18388253450393677, rtol=1e-5)
    zero = mse()(Y, X[:, :2], sample_weight=np.zeros(6, np.float32))
    assert float(zero) == 0.0


def test_fit_with_sample_weight_matches_keras_and_a_numpy_step():
    m = model(2, "mse", metrics=["mae"])
    history = m.fit(X, Y, sample_weight=SW, epochs=2, batch_size=4, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [3.0471179485, 1.9075404405], rtol=1e-5)
    np.testing.assert_allclose(history.history["mae"], [1.8879960775, 1.6043778657], rtol=1e-5)
    np.testing.assert_allclose(m.get_weights()[1], [-0.1572369933, -0.3707794547], rtol=1e-5)
    # one full-batch step by hand: d/dW sum_i w_i mean_j (xW - y)^2 / n
    m = model(2, "mse")
    loss = m.train_on_batch(X, Y, sample_weight=SW)
    pred = X @ np.ones((3, 2), np.float32)
    np.testing.assert_allclose(loss, np.sum(per_sample_mse(pred) * SW) / 6, rtol=1e-6)
    grad = X.T @ ((pred - Y) * SW[:, None] / 6)          # 2 / (6 * 2) * sum ...
    np.testing.assert_allclose(m.get_weights()[0], np.ones((3, 2)) - 0.1 * grad, rtol=1e-5)


def test_fit_with_class_weight_matches_keras():
    m = model(3, keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    history = m.fit(X, LABELS, class_weight={0: 1.0, 1: 2.0, 2: 0.5}, epochs=2, batch_size=4,
                    shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [1.2973684072, 1.2143019437], rtol=1e-5)
    np.testing.assert_allclose(history.history["accuracy"], [1 / 6, 2 / 6], rtol=1e-6)
    np.testing.assert_allclose(m.get_weights()[0][0], [1.0115504264, 1.0917437076, 0.8967058062],
                               rtol=1e-5)
    onehot = model(3, keras.losses.CategoricalCrossentropy(from_logits=True))
    history = onehot.fit(X, np.eye(3, dtype=np.float32)[LABELS], class_weight={1: 3.0},
                         epochs=1, batch_size=6, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [1.8310203552], rtol=1e-5)


def test_evaluate_with_sample_weight_and_weighted_metrics():
    m = model(2, "mse", metrics=["mae"], weighted_metrics=["mae"])
    logs = m.evaluate(X, Y, sample_weight=SW, batch_size=4, verbose=0, return_dict=True)
    assert sorted(logs) == ["loss", "mae", "weighted_mae"]
    np.testing.assert_allclose(logs["loss"], 3.186105489730835, rtol=1e-6)
    np.testing.assert_allclose(logs["mae"], 1.9464160203933716, rtol=1e-6)   # unweighted
    np.testing.assert_allclose(logs["weighted_mae"], 1.0283946990966797, rtol=1e-6)
    assert m.evaluate(X, Y, verbose=0, batch_size=4, return_dict=True)["loss"] == \
        pytest.approx(6.712823390960693, rel=1e-6)


def test_validation_data_with_sample_weight():
    history = model(2, "mse").fit(X, Y, validation_data=(X, Y, SW), epochs=1, batch_size=6,
                                  shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [6.712823390960693], rtol=1e-6)
    np.testing.assert_allclose(history.history["val_loss"], [2.007249355316162], rtol=1e-5)


def test_on_batch_methods_reset_metrics_each_call():
    m = model(2, "mse", lr=0.0, metrics=["mae"])
    first = m.evaluate(X[:3], Y[:3], verbose=0)
    second = m.evaluate(X[3:], Y[3:], verbose=0)
    np.testing.assert_allclose(m.train_on_batch(X[:3], Y[:3]), first, rtol=1e-6)
    np.testing.assert_allclose(m.train_on_batch(X[3:], Y[3:]), second, rtol=1e-6)
    np.testing.assert_allclose(m.test_on_batch(X[:3], Y[:3]), first, rtol=1e-6)
    logs = m.test_on_batch(X[3:], Y[3:], return_dict=True)
    assert logs == pytest.approx({"loss": second[0], "mae": second[1]}, rel=1e-6)
    pred = m.predict_on_batch(X)
    assert isinstance(pred, np.ndarray)
    np.testing.assert_allclose(pred, X @ np.ones((3, 2)), rtol=1e-6)
    single = model(2, "mse")
    assert isinstance(single.train_on_batch(X, Y), float)
    assert isinstance(single.test_on_batch(X, Y), float)


@pytest.mark.parametrize("call", [
    lambda m: m.fit(X, Y, verbose=0), lambda m: m.evaluate(X, Y, verbose=0),
    lambda m: m.train_on_batch(X, Y), lambda m: m.test_on_batch(X, Y)])
def test_uncompiled_is_kerass_value_error(call):
    m = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    with pytest.raises(ValueError, match=r"^You must call `compile\(\)` before using the "
                                         r"model.$"):
        call(m)


def test_bad_weights_are_errors():
    m = model(2, "mse")
    with pytest.raises(ValueError, match="You cannot `class_weight` and `sample_weight` at "
                                         "the same time."):
        m.fit(X, Y, sample_weight=SW, class_weight={0: 1.0}, verbose=0)
    with pytest.raises(ValueError, match="Data cardinality is ambiguous. Make sure all arrays "
                                         "contain the same number of samples.'x' sizes: 6\n'y' "
                                         "sizes: 6\n'sample_weight' sizes: 4\n"):
        m.fit(X, Y, sample_weight=SW[:4], verbose=0)
