"""`save_weights` / `load_weights` (runtime.keras's `.weights.npz` file),
`ModelCheckpoint(save_weights_only=True)` with `save_best_only`, and the
errors for Keras's own formats (`.weights.h5`, `.keras`, `.h5`) and for
`model.save`, which points to `tf.saved_model.save`."""

import os

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
layers = tf.keras.layers

RNG = np.random.RandomState(0)
X = RNG.randn(16, 3).astype(np.float32)
Y = RNG.randn(16, 2).astype(np.float32)


def model():
    m = keras.Sequential([keras.Input((3,)), layers.Dense(4, activation="relu"),
                          layers.BatchNormalization(), layers.Dense(2)])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return m


def test_save_and_load_weights_round_trip(tmp_path):
    trained = model()
    trained.fit(X, Y, epochs=2, verbose=0)
    path = tmp_path / "m.weights.npz"
    trained.save_weights(path)
    assert sorted(os.listdir(tmp_path)) == ["m.weights.npz"]
    fresh = model()
    assert not np.allclose(fresh.predict(X, verbose=0), trained.predict(X, verbose=0))
    fresh.load_weights(str(path))
    for a, b in zip(fresh.get_weights(), trained.get_weights()):   # non-trainable too
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(fresh.predict(X, verbose=0), trained.predict(X, verbose=0))


def test_load_weights_into_another_architecture_is_an_error(tmp_path):
    path = str(tmp_path / "m.weights.npz")
    model().save_weights(path)
    other = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    with pytest.raises(ValueError, match=r"holds 8 weights but the model '.*' has 2"):
        other.load_weights(path)
    wider = keras.Sequential([keras.Input((3,)), layers.Dense(5, activation="relu"),
                              layers.BatchNormalization(), layers.Dense(2)])
    with pytest.raises(ValueError, match=r"weight shape \(3, 5\) is not compatible with "
                                         r"provided weight shape \(3, 4\)"):
        wider.load_weights(path)
    with pytest.raises(FileNotFoundError):
        other.load_weights(str(tmp_path / "missing.weights.npz"))


@pytest.mark.parametrize("name", ["w.h5", "w.keras", "w.npz"])
def test_save_weights_needs_a_weights_suffix(tmp_path, name):
    path = str(tmp_path / name)
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5` \(Keras 3's weights "
                                         r"format\) or `\.weights\.npz` \(runtime.keras's\)"):
        model().save_weights(path)
    assert os.listdir(tmp_path) == []
    with pytest.raises(ValueError if name != "w.keras" else FileNotFoundError):
        model().load_weights(path)


def test_weights_h5_round_trips_and_holds_keras_paths(tmp_path):
    trained = model()
    trained.fit(X, Y, epochs=1, verbose=0)
    path = str(tmp_path / "w.weights.h5")
    trained.save_weights(path)
    from runtime._src.keras.saving import hdf5
    with open(path, "rb") as f:
        datasets = hdf5.read_datasets(f.read())
    # Keras 3's layout of this Sequential (TF 2.21 writes these paths); SGD without
    # momentum has two variables (iteration, learning_rate)
    assert sorted(datasets) == [
        "layers/batch_normalization/vars/0", "layers/batch_normalization/vars/1",
        "layers/batch_normalization/vars/2", "layers/batch_normalization/vars/3",
        "layers/dense/vars/0", "layers/dense/vars/1", "layers/dense_1/vars/0",
        "layers/dense_1/vars/1", "optimizer/vars/0", "optimizer/vars/1"]
    assert int(datasets["optimizer/vars/0"]) == 1          # one step of fit
    fresh = model()
    fresh.load_weights(path)
    np.testing.assert_array_equal(fresh.predict(X, verbose=0), trained.predict(X, verbose=0))


def test_load_weights_reads_keras_files(tmp_path):
    trained = model()
    trained.fit(X, Y, epochs=1, verbose=0)
    trained.save(str(tmp_path / "m.keras"))
    fresh = model()
    fresh.load_weights(str(tmp_path / "m.keras"))
    np.testing.assert_array_equal(fresh.predict(X, verbose=0), trained.predict(X, verbose=0))


def test_model_save_needs_the_keras_extension(tmp_path):
    with pytest.raises(ValueError, match=r"legacy HDF5 model format \(`\.h5`\); save with "
                                         r"the `\.keras` extension"):
        model().save(str(tmp_path / "m.h5"))
    with pytest.raises(ValueError, match=r"Invalid filepath extension for saving"):
        model().save(str(tmp_path / "m"))
    assert os.listdir(tmp_path) == []


def test_checkpoint_every_epoch_with_a_formatted_name(tmp_path, capsys):
    m = model()
    pattern = str(tmp_path / "e{epoch:02d}-{loss:.2f}.weights.npz")
    cb = keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True, verbose=1)
    history = m.fit(X, Y, epochs=2, callbacks=[cb], verbose=0)
    names = sorted(os.listdir(tmp_path))
    losses = history.history["loss"]
    assert names == [f"e{i + 1:02d}-{loss:.2f}.weights.npz" for i, loss in enumerate(losses)]
    out = capsys.readouterr().out
    assert f"\nEpoch 2: saving model to {tmp_path / names[1]}\n" in out
    assert f"\nEpoch 2: finished saving model to {tmp_path / names[1]}\n" in out
    restored = model()
    restored.load_weights(str(tmp_path / names[1]))
    np.testing.assert_array_equal(restored.predict(X, verbose=0), m.predict(X, verbose=0))


def test_checkpoint_save_best_only_keeps_the_best_epoch(tmp_path, capsys):
    m = model()
    path = str(tmp_path / "best.weights.npz")
    saved = []

    class Record(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            saved.append((logs["val_loss"], m.get_weights()))

    val_y = Y + 3.0 * np.sign(RNG.randn(16, 2)).astype(np.float32)   # val_loss moves around
    cb = keras.callbacks.ModelCheckpoint(path, monitor="val_loss", save_best_only=True,
                                         save_weights_only=True, verbose=1)
    m.fit(X, Y, epochs=4, validation_data=(X, val_y), callbacks=[cb, Record()], verbose=0)
    best_loss, best_weights = min(saved, key=lambda s: s[0])
    assert cb.best == best_loss
    restored = model()
    restored.load_weights(path)
    for a, b in zip(restored.get_weights(), best_weights):
        np.testing.assert_array_equal(a, b)
    out = capsys.readouterr().out
    assert f"\nEpoch 1: val_loss improved from None to {saved[0][0]:.5f}, saving model to " \
           f"{path}\n" in out


def test_checkpoint_mode_max_and_unknown_monitor(tmp_path):
    m = model()
    path = str(tmp_path / "w.weights.npz")
    cb = keras.callbacks.ModelCheckpoint(path, monitor="loss", mode="max",
                                         save_best_only=True, save_weights_only=True)
    m.fit(X, Y, epochs=3, callbacks=[cb], verbose=0)
    assert cb.best == max(m.history.history["loss"])
    cb = keras.callbacks.ModelCheckpoint(path, monitor="nope", save_best_only=True,
                                         save_weights_only=True)
    with pytest.raises(ValueError, match="ModelCheckpoint callback received monitor=nope, "
                                         "but Keras isn't able to automatically determine"):
        m.fit(X, Y, epochs=1, callbacks=[cb], verbose=0)


def test_checkpoint_argument_errors(tmp_path):
    with pytest.raises(ValueError, match=r"When using `save_weights_only=True` in "
                                         r"`ModelCheckpoint`, the filepath provided must end "
                                         r"in `\.weights\.h5`"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "w.keras"), save_weights_only=True)
    # Keras 3 (TF 2.21)'s message
    with pytest.raises(ValueError, match=r"The filepath provided must end in `\.keras` "
                                         r"\(Keras model format\)"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.weights.npz"))
    with pytest.raises(ValueError, match="Unrecognized save_freq: 3.5"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "w.weights.npz"), save_freq=3.5,
                                        save_weights_only=True)
    with pytest.warns(UserWarning, match="ModelCheckpoint mode 'bad' is unknown, fallback to "
                                         "auto mode."):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "w.weights.npz"), mode="bad",
                                        save_weights_only=True)


def test_checkpoint_saves_whole_models_to_keras_files(tmp_path):
    m = model()
    cb = keras.callbacks.ModelCheckpoint(str(tmp_path / "m{epoch}.keras"))
    m.fit(X, Y, epochs=2, callbacks=[cb], verbose=0)
    assert sorted(os.listdir(tmp_path)) == ["m1.keras", "m2.keras"]
    loaded = keras.models.load_model(str(tmp_path / "m2.keras"))
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), m.predict(X, verbose=0))
