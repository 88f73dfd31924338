"""Model.compile / fit / evaluate / predict and a custom training loop:
training reduces the loss, each kind of step is traced once, graph and
eager steps agree, progress lines and History as Keras prints and returns
them."""

import re

import numpy as np
import pytest

import runtime as tf
from runtime._src.keras.utils import naming

layers = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    naming.reset_names()


def blobs(n=120, seed=0):
    """Three Gaussian blobs in 2-D, labels 0..2."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    centers = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]], np.float32)
    x = centers[y] + rng.normal(0, 0.5, (n, 2)).astype(np.float32)
    return x.astype(np.float32), y.astype(np.int32)


def small_model(seed=0):
    tf.random.set_seed(seed)
    return tf.keras.Sequential([layers.Dense(16, activation="relu"), layers.Dense(3)])


def test_fit_reduces_the_loss_and_traces_the_train_step_once(capsys):
    x, y = blobs()
    model = small_model()
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=4, validation_data=(x[:30], y[:30]))
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    losses = history.history["loss"]
    assert len(losses) == 4 and losses[-1] < losses[0]
    assert history.epoch == [0, 1, 2, 3]
    # 120 samples in batches of 32: the last batch has 24, and reuses the one graph.
    train = [f for (kind, _), f in model._keras_state.functions.items() if kind == "train"]
    assert len(train) == 1 and train[0].experimental_get_tracing_count() == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Epoch 1/4" and out[2] == "Epoch 2/4"
    assert re.fullmatch(r"4/4 \u2501{20} \d+s \d+(us|ms|s)/step - accuracy: \d\.\d{4} - "
                        r"loss: \d\.\d{4} - val_accuracy: \d\.\d{4} - val_loss: \d\.\d{4}",
                        out[1]), out[1]
    assert int(model.optimizer.iterations) == 16


def test_evaluate_and_predict_after_fit():
    x, y = blobs()
    model = small_model()
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x, y, batch_size=16, epochs=15, verbose=0)
    loss, accuracy = model.evaluate(x, y, verbose=0)
    assert accuracy > 0.9 and loss < 0.5
    assert model.metrics_names == ["loss", "compile_metrics"]     # Keras 3.15 on TF 2.21
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs == {"accuracy": accuracy, "loss": loss}
    predictions = model.predict(x, batch_size=50)
    assert predictions.shape == (120, 3) and predictions.dtype == np.float32
    np.testing.assert_allclose(predictions, model(x).numpy(), rtol=1e-5, atol=1e-6)
    assert (predictions.argmax(1) == y).mean() == pytest.approx(accuracy)


def test_graph_and_eager_training_give_the_same_weights():
    x, y = blobs(60)
    weights = []
    for run_eagerly in (False, True):
        model = small_model(seed=5)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      run_eagerly=run_eagerly)
        tf.random.set_seed(11)
        model.fit(x, y, batch_size=20, epochs=2, verbose=0)
        weights.append([v.numpy() for v in model.trainable_variables])
    for a, b in zip(*weights):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_mse_regression_and_verbose_2_line(capsys):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    tf.random.set_seed(0)
    model = tf.keras.Sequential([layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=16, epochs=20, verbose=2, shuffle=False)
    assert history.history["loss"][-1] < 1e-3
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"4/4 - \d+s - \d+(us|ms|s)/step - loss: \d\.\d{4}", lines[1]), lines[1]
    assert isinstance(model.evaluate(x, y, verbose=0), float)


def test_fit_before_compile_is_an_error():
    with pytest.raises(ValueError, match="You must call `compile\\(\\)` before using the model."):
        small_model().fit(np.ones((2, 2), np.float32), np.zeros(2, np.int32))


def test_custom_training_loop_with_tape_and_optimizer_in_one_graph():
    x, y = blobs(90)
    model = small_model()
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            loss = loss_fn(yb, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        accuracy.update_state(yb, logits)
        return loss

    first = [float(train_step(x[i:i + 30], y[i:i + 30])) for i in range(0, 90, 30)]
    for _ in range(10):
        last = [float(train_step(x[i:i + 30], y[i:i + 30])) for i in range(0, 90, 30)]
    assert np.mean(last) < np.mean(first)
    assert train_step.experimental_get_tracing_count() == 1
    assert 0.0 < float(accuracy.result()) <= 1.0


def test_unsupported_fit_arguments_are_refused_not_ignored():
    model = small_model()
    model.compile("sgd", "mse")
    x, y = np.ones((4, 2), np.float32), np.ones((4, 3), np.float32)
    with pytest.raises(TypeError, match="callbacks must be tf.keras.callbacks.Callback "
                                        "instances; got <object object"):
        model.fit(x, y, callbacks=[object()])
    with pytest.raises(TypeError, match="fit: argument 'sample_weights' is not supported"):
        model.fit(x, y, sample_weights=np.ones(4))


def test_embedding_and_softmax_models_train_with_string_losses():
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 10, (64, 4)).astype(np.int32)
    y = (ids.sum(1) > 18).astype(np.float32)
    tf.random.set_seed(0)
    emb = tf.keras.Sequential([layers.Embedding(10, 4), layers.Flatten(), layers.Dense(1)])
    emb.compile(tf.keras.optimizers.SGD(0.1, momentum=0.9),
                tf.keras.losses.BinaryCrossentropy(from_logits=True), metrics=["accuracy"])
    losses = emb.fit(ids, y, epochs=4, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
    x, labels = blobs(60)
    probs = tf.keras.Sequential([layers.Dense(8), layers.ReLU(), layers.Dense(3), layers.Softmax()])
    probs.compile("rmsprop", "sparse_categorical_crossentropy", metrics=["accuracy"])
    history = probs.fit(x, labels, epochs=4, verbose=0).history
    assert history["loss"][-1] < history["loss"][0] and sorted(history) == ["accuracy", "loss"]


def test_a_conv_model_trains_through_fit():
    # Conv2D and MaxPooling2D gradients (im2col and pooling rules) under fit's one-graph step.
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 6, 6, 1)).astype(np.float32)
    y = (x[:, :3].sum(axis=(1, 2, 3)) > x[:, 3:].sum(axis=(1, 2, 3))).astype(np.int32)
    tf.random.set_seed(0)
    model = tf.keras.Sequential([layers.Conv2D(4, 3, activation="relu", padding="same"),
                                 layers.MaxPooling2D(2), layers.Flatten(), layers.Dense(2)])
    model.compile(tf.keras.optimizers.Adam(0.02),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    losses = model.fit(x, y, batch_size=16, epochs=6, verbose=0).history["loss"]
    assert losses[-1] < 0.8 * losses[0], losses
    kernel = model.layers[0].kernel
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x[:4]))
    assert tape.gradient(loss, kernel).shape == kernel.shape
