"""ReduceLROnPlateau, LearningRateScheduler, TerminateOnNaN,
EarlyStopping(restore_best_weights=True), CSVLogger, ProgbarLogger and
BackupAndRestore. Expected logs, printed lines and files were recorded from
TensorFlow 2.21 with Keras 3 on the same model, weights and data."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
C = keras.callbacks
rng = np.random.RandomState(3)
X = rng.randn(24, 3).astype("float32")
Y = (X @ np.array([1.0, -2.0, 0.5], "float32") + 0.1 * rng.randn(24)).astype("float32")[:, None]
XV, YV = X[:8] + 0.5, Y[:8]


def model(lr=0.05, optimizer=None):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                          keras.layers.Dense(1)])
    m.set_weights([np.linspace(-0.6, 0.8, v.numpy().size).reshape(v.shape).astype("float32")
                   for v in m.weights])
    m.compile(optimizer=optimizer or keras.optimizers.SGD(lr), loss="mse")
    return m


def test_reduce_lr_on_plateau_as_keras(capsys):
    cb = C.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=1, min_lr=0.02,
                             min_delta=0.05, cooldown=1, verbose=1)
    h = model(0.2).fit(X, Y, batch_size=8, epochs=8, shuffle=False, verbose=0,
                       validation_data=(XV, YV), callbacks=[cb])
    # Keras 3 (TF 2.21)
    np.testing.assert_allclose(h.history["learning_rate"],
                               [0.2, 0.2, 0.2, 0.1, 0.05, 0.05, 0.025, 0.02], rtol=1e-6)
    np.testing.assert_allclose(h.history["loss"], [4.946946, 1.099975, 0.362985, 0.27832,
                                                   0.225609, 0.215396, 0.200837, 0.195663],
                               atol=3e-6)
    np.testing.assert_allclose(h.history["val_loss"], [
        2.102624, 0.246864, 0.234198, 0.201852, 0.192688, 0.183964, 0.179837, 0.176565],
        atol=3e-6)
    assert capsys.readouterr().out == (
        "\nEpoch 3: ReduceLROnPlateau reducing learning rate to 0.10000000149011612.\n"
        "\nEpoch 4: ReduceLROnPlateau reducing learning rate to 0.05000000074505806.\n"
        "\nEpoch 6: ReduceLROnPlateau reducing learning rate to 0.02500000037252903.\n"
        "\nEpoch 7: ReduceLROnPlateau reducing learning rate to 0.02.\n")


def test_learning_rate_scheduler_as_keras(capsys):
    cb = C.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch > 0 else lr, verbose=1)
    h = model().fit(X, Y, batch_size=8, epochs=4, shuffle=False, verbose=0, callbacks=[cb])
    # Keras 3 (TF 2.21)
    np.testing.assert_allclose(h.history["learning_rate"], [0.05, 0.025, 0.0125, 0.00625],
                               rtol=1e-6)
    np.testing.assert_allclose(h.history["loss"], [5.404915, 4.180452, 3.680371, 3.434983],
                               atol=3e-6)
    assert capsys.readouterr().out == (
        "\nEpoch 1: LearningRateScheduler setting learning rate to 0.05000000074505806.\n"
        "\nEpoch 2: LearningRateScheduler setting learning rate to 0.02500000037252903.\n"
        "\nEpoch 3: LearningRateScheduler setting learning rate to 0.012500000186264515.\n"
        "\nEpoch 4: LearningRateScheduler setting learning rate to 0.0062500000931322575.\n")
    with pytest.raises(ValueError, match="should be a float"):
        model().fit(X, Y, epochs=1, verbose=0,
                    callbacks=[C.LearningRateScheduler(lambda epoch: "fast")])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_terminate_on_nan_stops_after_the_bad_batch(capsys):
    h = model(40.0).fit(X, Y, batch_size=8, epochs=3, shuffle=False, verbose=0,
                        callbacks=[C.TerminateOnNaN()])
    # Keras 3 (TF 2.21): [281452320.0, 8.451165929627396e+22, inf], 3 epochs
    assert len(h.epoch) == 3 and np.isinf(h.history["loss"][2])
    np.testing.assert_allclose(h.history["loss"][:2], [281452320.0, 8.451165929627396e+22],
                               rtol=2e-6)
    assert capsys.readouterr().out == "Batch 2: Invalid loss, terminating training\n"


def test_early_stopping_restores_the_best_weights_as_keras(capsys):
    m = model(0.3)
    h = m.fit(X, Y, batch_size=8, epochs=10, shuffle=False, verbose=0,
              validation_data=(XV, YV),
              callbacks=[C.EarlyStopping(patience=2, restore_best_weights=True, verbose=1)])
    # Keras 3 (TF 2.21)
    np.testing.assert_allclose(h.history["val_loss"], [
        0.682597, 0.701728, 0.311415, 0.14556, 0.116119, 0.099177, 0.143769, 0.115651],
        atol=3e-6)
    assert m.evaluate(XV, YV, verbose=0) == pytest.approx(0.099177, abs=2e-6)
    assert capsys.readouterr().out == ("Epoch 8: early stopping\nRestoring model weights "
                                       "from the end of the best epoch: 6.\n")


def test_csv_logger_rows_and_append_as_keras(tmp_path):
    path = tmp_path / "log.csv"
    m = model()
    m.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0, validation_data=(XV, YV),
          callbacks=[C.CSVLogger(str(path))])
    m.fit(X, Y, batch_size=8, epochs=1, shuffle=False, verbose=0,
          callbacks=[C.CSVLogger(str(path), append=True, separator=";")])
    lines = path.read_text().splitlines()
    # Keras 3 (TF 2.21): the header once, "NA" for the missing val_loss
    assert lines[0] == "epoch,loss,val_loss"
    rows = [[float(v) for v in line.split(",")] for line in lines[1:3]]
    np.testing.assert_allclose(rows, [[0, 5.4049153327941895, 4.45551872253418],
                                      [1, 4.080540180206299, 3.62560772895813]], atol=3e-6)
    epoch, loss, val = lines[3].split(";")
    assert (epoch, val) == ("0", "NA") and float(loss) == pytest.approx(2.957254, abs=3e-6)


def test_progbar_logger_prints_what_fit_prints(capsys):
    model().fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0,
                callbacks=[C.ProgbarLogger()])
    assert capsys.readouterr().out == ""          # it follows fit's verbose, as in Keras
    model().fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=2,
                callbacks=[C.ProgbarLogger()])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2" and len(lines) == 4
    assert lines[3].startswith("3/3 - ") and lines[3].endswith("ms/step - loss: 4.0805")


class _Interrupt(C.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 2:
            raise KeyboardInterrupt


def test_backup_and_restore_resumes_an_interrupted_fit(tmp_path):
    full = model(optimizer=keras.optimizers.Adam(0.05))
    whole = full.fit(X, Y, batch_size=8, epochs=5, shuffle=False, verbose=0).history["loss"]
    m = model(optimizer=keras.optimizers.Adam(0.05))
    backup = C.BackupAndRestore(str(tmp_path / "backup"))
    with pytest.raises(KeyboardInterrupt):
        m.fit(X, Y, batch_size=8, epochs=5, shuffle=False, verbose=0,
              callbacks=[backup, _Interrupt()])
    assert sorted(p.name for p in (tmp_path / "backup").iterdir()) == [
        "latest.weights.h5", "training_metadata.json"]          # Keras 3's names
    resumed = model(optimizer=keras.optimizers.Adam(0.05))
    h = resumed.fit(X, Y, batch_size=8, epochs=5, shuffle=False, verbose=0,
                    callbacks=[C.BackupAndRestore(str(tmp_path / "backup"))])
    assert h.epoch == [3, 4]
    np.testing.assert_allclose(h.history["loss"], whole[3:], rtol=1e-6)
    for a, b in zip(resumed.get_weights(), full.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert not (tmp_path / "backup").exists()
