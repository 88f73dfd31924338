"""Callbacks in `fit`: the order hooks run in and the logs they get, History,
EarlyStopping (patience, min_delta, mode, restore_best_weights), LambdaCallback,
and validation_data / validation_split adding `val_` logs."""

import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.keras.utils import naming

keras = tf.keras
layers = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    naming.reset_names()


def data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], np.float32))[:, None]
    return x, y


def model(lr=0.05):
    tf.random.set_seed(0)
    m = keras.Sequential([layers.Dense(1)])
    m.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    return m


class Recorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def on_train_begin(self, logs=None):
        self.calls.append(("train_begin", self.params["epochs"], self.params["steps"]))

    def on_epoch_begin(self, epoch, logs=None):
        self.calls.append(("epoch_begin", epoch))

    def on_batch_end(self, batch, logs=None):
        self.calls.append(("batch_end", batch, sorted(logs)))

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(("epoch_end", epoch, sorted(logs)))

    def on_train_end(self, logs=None):
        self.calls.append(("train_end", sorted(logs)))


def test_hooks_run_in_keras_order_with_logs():
    x, y = data()
    rec = Recorder()
    m = model()
    history = m.fit(x, y, batch_size=16, epochs=2, verbose=0, validation_data=(x, y),
                    callbacks=[rec])
    assert rec.model is m
    epoch_keys = ["loss", "val_loss"]
    assert rec.calls == [
        ("train_begin", 2, 3),
        ("epoch_begin", 0), ("batch_end", 0, ["loss"]), ("batch_end", 1, ["loss"]),
        ("batch_end", 2, ["loss"]), ("epoch_end", 0, epoch_keys),
        ("epoch_begin", 1), ("batch_end", 0, ["loss"]), ("batch_end", 1, ["loss"]),
        ("batch_end", 2, ["loss"]), ("epoch_end", 1, epoch_keys),
        ("train_end", epoch_keys)]
    assert isinstance(history, keras.callbacks.History) and m.history is history
    assert history.epoch == [0, 1] and sorted(history.history) == epoch_keys
    # validation runs after the epoch's training: the last val_loss is evaluate()'s
    np.testing.assert_allclose(history.history["val_loss"][-1], m.evaluate(x, y, verbose=0),
                               rtol=1e-6)


def test_validation_split_takes_the_last_samples():
    x, y = data()
    m = model()
    history = m.fit(x, y, epochs=2, verbose=0, validation_split=0.25, batch_size=8)
    assert sorted(history.history) == ["loss", "val_loss"]
    np.testing.assert_allclose(history.history["val_loss"][-1],
                               m.evaluate(x[30:], y[30:], verbose=0), rtol=1e-6)
    train = [f for (k, _), f in m._keras_state.functions.items() if k == "train"]
    assert train[0].experimental_get_tracing_count() == 1


def test_lambda_callback_and_stop_training_from_a_batch():
    x, y = data()
    seen = []
    m = model()

    def stop_after_two(batch, logs):
        seen.append(("batch", batch, round(logs["loss"], 6) == round(logs["loss"], 6)))
        if batch == 1:
            m.stop_training = True
    cb = keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs: seen.append("begin"),
        on_epoch_end=lambda epoch, logs: seen.append(("epoch", epoch, sorted(logs))),
        on_train_batch_end=stop_after_two,
        on_train_end=lambda logs: seen.append("end"))
    history = m.fit(x, y, batch_size=8, epochs=5, verbose=0, callbacks=[cb])
    assert seen == ["begin", ("batch", 0, True), ("batch", 1, True),
                    ("epoch", 0, ["loss"]), "end"]
    assert history.epoch == [0] and int(m.optimizer.iterations) == 2


def test_early_stopping_counts_patience_without_improvement(capsys):
    x, y = data()
    m = model(lr=0.0)            # nothing changes: the loss never improves
    stop = keras.callbacks.EarlyStopping(monitor="loss", patience=2, verbose=1)
    history = m.fit(x, y, epochs=10, verbose=0, callbacks=[stop])
    assert history.epoch == [0, 1, 2] and stop.stopped_epoch == 2
    assert capsys.readouterr().out == "Epoch 3: early stopping\n"
    # improving by less than min_delta does not count
    m = model(lr=0.001)
    stop = keras.callbacks.EarlyStopping(monitor="loss", min_delta=10.0, patience=1)
    assert m.fit(x, y, epochs=10, verbose=0, callbacks=[stop]).epoch == [0, 1]


def test_early_stopping_restores_the_best_weights(capsys):
    x, y = data()
    m = model(lr=0.05)
    snapshots = []
    keep = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: snapshots.append(m.get_weights()))
    # mode="max" on a falling loss: epoch 0 is the best, training stops at epoch 1
    stop = keras.callbacks.EarlyStopping(monitor="loss", mode="max", patience=1,
                                         restore_best_weights=True, verbose=1)
    history = m.fit(x, y, epochs=10, verbose=0, callbacks=[keep, stop])
    assert history.epoch == [0, 1]
    assert capsys.readouterr().out == ("Epoch 2: early stopping\n"
                                       "Restoring model weights from the end of the best "
                                       "epoch: 1.\n")
    for now, best in zip(m.get_weights(), snapshots[0]):
        np.testing.assert_array_equal(now, best)
    assert not np.array_equal(snapshots[1][0], snapshots[0][0])


def test_early_stopping_mode_auto_and_unknown_metrics():
    x = np.random.default_rng(0).normal(size=(32, 2)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32)
    tf.random.set_seed(0)
    m = keras.Sequential([layers.Dense(2)])
    m.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    stop = keras.callbacks.EarlyStopping(monitor="val_accuracy")
    m.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), callbacks=[stop])
    assert stop.monitor_op is np.greater           # accuracies go up
    with pytest.raises(ValueError, match="EarlyStopping callback received monitor=val_auc, "
                                         "but Keras isn't able to automatically determine"):
        m.fit(x, y, epochs=1, verbose=0, validation_data=(x, y),
              callbacks=[keras.callbacks.EarlyStopping(monitor="val_auc")])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.fit(x, y, epochs=1, verbose=0,
              callbacks=[keras.callbacks.EarlyStopping(monitor="val_loss")])
    assert any("Early stopping conditioned on metric `val_loss` which is not available. "
               "Available metrics are: accuracy,loss" in str(w.message) for w in caught)
    with pytest.warns(UserWarning, match="EarlyStopping mode 'up' is unknown, fallback to "
                                         "auto mode."):
        keras.callbacks.EarlyStopping(mode="up")


def test_set_weights_checks_count_and_shapes():
    m = model()
    m(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError, match="with a weight list of length 1, but the layer was "
                                         "expecting 2 weights"):
        m.set_weights([np.ones((3, 1))])
    m.set_weights([np.full((3, 1), 2.0), np.array([1.0])])
    np.testing.assert_allclose(m(np.ones((1, 3), np.float32)).numpy(), [[7.0]])


class EvalRecorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def on_test_begin(self, logs=None):
        self.calls.append("test_begin")

    def on_test_batch_end(self, batch, logs=None):
        self.calls.append(("test_batch_end", batch, sorted(logs)))

    def on_test_end(self, logs=None):
        self.calls.append(("test_end", sorted(logs)))

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(("epoch_end", epoch))

    def on_predict_batch_end(self, batch, logs=None):
        self.calls.append(("predict_batch_end", batch, logs["outputs"].shape))


def test_validation_evaluate_and_predict_call_the_test_and_predict_hooks():
    x, y = data(n=24)
    m = model()
    rec = EvalRecorder()
    m.fit(x, y, batch_size=16, epochs=1, verbose=0, validation_data=(x[:20], y[:20]),
          callbacks=[rec])
    assert rec.calls == ["test_begin", ("test_batch_end", 0, ["loss"]),
                         ("test_batch_end", 1, ["loss"]), ("test_end", ["loss"]),
                         ("epoch_end", 0)]
    rec.calls.clear()
    m.evaluate(x, y, batch_size=24, verbose=0, callbacks=[rec])
    assert rec.calls == ["test_begin", ("test_batch_end", 0, ["loss"]), ("test_end", ["loss"])]
    rec.calls.clear()
    m.predict(x, batch_size=16, verbose=0, callbacks=[rec])
    assert rec.calls == [("predict_batch_end", 0, (16, 1)), ("predict_batch_end", 1, (8, 1))]
