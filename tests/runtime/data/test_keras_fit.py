"""Keras fit / evaluate / predict on tf.data datasets and Python generators."""

import numpy as np
import pytest

import runtime as tf


def _data():
    x = np.random.default_rng(0).normal(size=(512, 2)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] > 0).astype(np.int32)       # the README's XOR classifier
    return x, y


def _model():
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer="adam", metrics=["accuracy"],
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def test_fit_dataset_reaches_the_accuracy_of_fit_arrays():
    x, y = _data()
    arrays = _model()
    arrays.fit(x, y, batch_size=64, epochs=20, verbose=0, shuffle=False)
    on_arrays = arrays.evaluate(x, y, verbose=0)[1]
    model = _model()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    history = model.fit(ds, epochs=20, verbose=0, validation_data=ds)
    on_dataset = model.evaluate(ds, verbose=0)[1]
    assert on_dataset > 0.9 and abs(on_dataset - on_arrays) < 0.02
    # the same batches in the same order: the same weights
    for a, b in zip(arrays.get_weights(), model.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    assert len(history.history["val_accuracy"]) == 20
    assert model.predict(ds).shape == (512, 2)
    np.testing.assert_allclose(model.predict(ds.map(lambda a, b: a)), model.predict(x),
                               rtol=1e-5)


def test_fit_generator_with_steps_per_epoch_and_sample_weights():
    x, y = _data()

    def batches():
        while True:
            for i in range(0, 512, 64):
                yield x[i:i + 64], y[i:i + 64], np.ones(64, np.float32)
    model = _model()
    history = model.fit(batches(), steps_per_epoch=8, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3
    assert history.history["loss"][-1] < history.history["loss"][0]
    val = model.fit(batches(), steps_per_epoch=2, epochs=1, verbose=0,
                    validation_data=(x[:100], y[:100]))
    assert val.history["val_accuracy"][0] == pytest.approx(
        model.evaluate(x[:100], y[:100], verbose=0)[1])


def test_dataset_with_y_is_refused():
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices(x).batch(8)
    with pytest.raises(ValueError, match="`y` argument is not supported"):
        _model().fit(ds, y, verbose=0)
